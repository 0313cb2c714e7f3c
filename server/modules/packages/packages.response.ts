import type { Package, PackageItem } from '@shared/contracts/packages';
import {
  arrayOf,
  integer,
  nullable,
  nullableNumber,
  nullableString,
  number,
  object,
  string,
} from '../../lib/response-schema';
import { productResponse } from '../products/products.response';

/** A package as the API answers it (lib/response-schema.ts), with its items and their products. */
export const packageResponse = object<Package>({
  id: string,
  name: string,
  description: nullableString,
  price: number,
  items: arrayOf(
    object<PackageItem>({
      id: string,
      productId: nullableString,
      productName: nullableString,
      quantity: integer,
      customPrice: nullableNumber,
      customDescription: nullableString,
      notes: nullableString,
      product: nullable(productResponse),
    }),
  ),
  createdAt: string,
  updatedAt: string,
});
export const packageListResponse = arrayOf(packageResponse);
