import { toNestErrors } from '@hookform/resolvers';
import {
  type Package,
  type PackageFormValues,
  type PackagePayload,
  packageFormSchema,
} from '@shared/contracts/packages';
import type { FieldError, Resolver } from 'react-hook-form';

/** The product select's value for an item that is not a catalog product. */
export const CUSTOM_ITEM = 'custom';

/** One item row as the form holds it: text throughout; productId '' until chosen, or CUSTOM_ITEM. */
export type ItemRow = {
  productId: string;
  productName: string;
  quantity: string;
  customPrice: string;
  customDescription: string;
  notes: string;
};

export type PackageFormState = { name: string; description: string; price: string; items: ItemRow[] };

/** A new row: no product yet, quantity 1 (ui-spec section 5). */
export const emptyItemRow = (): ItemRow => ({
  productId: '',
  productName: '',
  quantity: '1',
  customPrice: '',
  customDescription: '',
  notes: '',
});

export const EMPTY_PACKAGE: PackageFormState = { name: '', description: '', price: '', items: [] };

export function toFormState(pkg: Package): PackageFormState {
  return {
    name: pkg.name,
    description: pkg.description ?? '',
    price: String(pkg.price),
    items: pkg.items.map((item) => ({
      productId: item.productId ?? CUSTOM_ITEM,
      productName: item.productName ?? '',
      quantity: String(item.quantity),
      customPrice: item.customPrice === null ? '' : String(item.customPrice),
      customDescription: item.customDescription ?? '',
      notes: item.notes ?? '',
    })),
  };
}

const isCatalogProduct = (row: ItemRow) => row.productId !== '' && row.productId !== CUSTOM_ITEM;

/**
 * Only items with a product or a custom name are sent (ui-spec section 5): a row where nothing was chosen
 * is left out. A row marked "Custom item" is checked, so a forgotten name is pointed out, not dropped.
 */
export function isCheckedItem(row: ItemRow): boolean {
  return row.productId !== '';
}

function toSchemaInput(values: PackageFormState, kept: ItemRow[]): PackageFormValues {
  return {
    name: values.name,
    description: values.description,
    price: values.price,
    items: kept.map((row) => ({
      productId: isCatalogProduct(row) ? row.productId : null,
      // A catalog item keeps a custom name it already had (shown only for custom items).
      productName: row.productName,
      quantity: row.quantity,
      customPrice: row.customPrice,
      customDescription: row.customDescription,
      notes: row.notes,
    })),
  };
}

/**
 * Validates with packageFormSchema, the API's own rules, over the rows that will be sent, and puts each
 * message back under the row it belongs to (rows left out shift the indexes).
 */
export const packageFormResolver: Resolver<PackageFormState, unknown, PackagePayload> = (values, _context, options) => {
  const kept = values.items.map((row, index) => ({ row, index })).filter(({ row }) => isCheckedItem(row));
  const result = packageFormSchema.safeParse(
    toSchemaInput(
      values,
      kept.map(({ row }) => row),
    ),
  );
  if (result.success) return { values: result.data, errors: {} };
  const flat: Record<string, FieldError> = {};
  for (const issue of result.error.issues) {
    const path = [...issue.path];
    if (path[0] === 'items' && typeof path[1] === 'number') {
      const row = kept[path[1]];
      path[1] = row?.index ?? path[1];
      // "Choose a product or enter a custom name" belongs under the custom name of a custom item.
      if (row?.row.productId === CUSTOM_ITEM && path[2] === 'productId') path[2] = 'productName';
    }
    const key = path.map(String).join('.');
    if (!(key in flat)) flat[key] = { type: issue.code, message: issue.message };
  }
  return { values: {}, errors: toNestErrors<PackageFormState>(flat, options) };
};
