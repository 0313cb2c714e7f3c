import type { Product } from '@shared/contracts/products';
import {
  arrayOf,
  boolean,
  type JsonSchema,
  nullableInteger,
  nullableNumber,
  nullableString,
  number,
  object,
  string,
} from '../../lib/response-schema';

/** A product as the API answers it (lib/response-schema.ts): only these fields are ever sent. */
export const productProperties = {
  id: string,
  name: string,
  description: nullableString,
  adType: string,
  defaultPrice: number,
  priceMetric: string,
  defaultDuration: nullableInteger,
  seasonalPrice: nullableNumber,
  inventoryRequired: boolean,
  capacity: nullableInteger,
  isActive: boolean,
  createdAt: string,
  updatedAt: string,
} satisfies Record<keyof Product, JsonSchema>;

export const productResponse = object<Product>(productProperties);
export const productListResponse = arrayOf(productResponse);

/**
 * DELETE /api/products/:id: `{ message, archived: false }` when removed; the archived product with
 * `message` and `archived: true` when something uses it (the product's fields are then present).
 */
export const deleteProductResponse: JsonSchema = {
  type: 'object',
  properties: { ...productProperties, message: string, archived: boolean },
  required: ['message', 'archived'],
};
