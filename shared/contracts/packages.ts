import { z } from 'zod';
import { centsToAmount } from '../money';
import { moneyCents, optionalText } from './common';
import { optionalMoneyCents, optionalWholeNumber, type Product } from './products';

export const MAX_PACKAGE_ITEMS = 100;
export const MAX_ITEM_QUANTITY = 10_000;

/** PostgreSQL text cannot hold NUL characters; refuse them with a message instead of failing on insert. */
const hasNoNul = (value: string | null) => value === null || !value.includes('\u0000');

const text = (max: number, label: string) =>
  optionalText(max, label).refine(hasNoNul, `${label} contains an invalid character`);

const quantity = optionalWholeNumber(
  z
    .number({ message: 'Quantity must be a whole number' })
    .int('Quantity must be a whole number')
    .min(1, 'Quantity must be at least 1')
    .max(MAX_ITEM_QUANTITY, `Quantity cannot exceed ${MAX_ITEM_QUANTITY.toLocaleString('en-US')}`),
).transform((n) => n ?? 1);

/** One item: a catalog product or a custom name (or both), a quantity and optional custom terms. */
export const packageItemSchema = z
  .object({
    productId: z
      .preprocess(
        (value) => (value === '' ? null : value),
        z.string({ message: 'Choose a valid product' }).uuid('Choose a valid product').nullish(),
      )
      .transform((id) => id ?? null),
    /** A custom item name, for items that are not a catalog product. */
    productName: text(200, 'Custom name'),
    quantity,
    customPrice: optionalMoneyCents({
      negative: 'Custom price cannot be negative',
      invalid: 'Custom price must be an amount in dollars with at most two decimals, like 250.00',
    }),
    customDescription: text(1000, 'Custom description'),
    notes: text(1000, 'Notes'),
  })
  .superRefine((item, ctx) => {
    if (!item.productId && !item.productName) {
      ctx.addIssue({ code: 'custom', path: ['productId'], message: 'Choose a product or enter a custom name' });
    }
  });
export type PackageItemInput = z.input<typeof packageItemSchema>;

/** POST /api/packages and PUT /api/packages/:id (which replaces the items). Money leaves as integer cents. */
export const packageSchema = z.object({
  name: z
    .string({ message: 'Package name is required' })
    .trim()
    .min(1, 'Package name is required')
    .max(200, 'Package name cannot be longer than 200 characters')
    .refine(hasNoNul, 'Package name contains an invalid character'),
  description: text(2000, 'Description'),
  price: moneyCents({
    required: 'Price is required',
    negative: 'Price must be positive',
    invalid: 'Price must be an amount in dollars with at most two decimals, like 1250.00',
  }),
  items: z
    .array(packageItemSchema, { message: 'Items must be a list' })
    .max(MAX_PACKAGE_ITEMS, `A package can have at most ${MAX_PACKAGE_ITEMS} items`)
    .nullish()
    .transform((items) => items ?? []),
});
export type PackageInput = z.input<typeof packageSchema>;
export type PackageValues = z.output<typeof packageSchema>;

/** The create/edit dialog: the same rules; its output is the JSON body the API takes (money in dollars). */
export const packageFormSchema = packageSchema.transform((p) => ({
  ...p,
  price: centsToAmount(p.price),
  items: p.items.map((item) => ({
    ...item,
    customPrice: item.customPrice === null ? null : centsToAmount(item.customPrice),
  })),
}));
export type PackageFormValues = z.input<typeof packageFormSchema>;
export type PackagePayload = z.output<typeof packageFormSchema>;

/** A package item as the API returns it, with its catalog product (null for a custom item). */
export type PackageItem = {
  id: string;
  productId: string | null;
  /** The custom name, for items that are not a catalog product. */
  productName: string | null;
  quantity: number;
  customPrice: number | null;
  customDescription: string | null;
  notes: string | null;
  product: Product | null;
};

/** A package as the API returns it; money in dollars; items in their saved order. */
export type Package = {
  id: string;
  name: string;
  description: string | null;
  price: number;
  items: PackageItem[];
  createdAt: string;
  updatedAt: string;
};
