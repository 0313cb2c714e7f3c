import { z } from 'zod';
import { centsToAmount } from '../money';
import { moneyCents, optionalText, optionalWholeNumber } from './common';
import { capacitySchema, INVENTORY_MESSAGES } from './inventory';
import { AD_TYPE_LABELS, AD_TYPES, type AdType, PRICE_METRICS, type PriceMetric } from './product-vocabulary';

export * from './product-vocabulary';

/** The ad types whose label contains the search text ("pre-roll" finds pre_roll), for searching by label. */
export function adTypesMatching(q: string): AdType[] {
  const needle = q.trim().toLowerCase();
  if (!needle) return [];
  return AD_TYPES.filter((type) => AD_TYPE_LABELS[type].toLowerCase().includes(needle));
}

/** PostgreSQL text cannot hold NUL characters; refuse them with a message instead of failing on insert. */
const hasNoNul = (value: string | null) => value === null || !value.includes('\u0000');

/**
 * An optional money amount in dollars parsed into integer cents: '', null or absent mean "not set" (null).
 * Shared with packages (custom item prices).
 */
export function optionalMoneyCents(messages: { negative: string; invalid?: string }) {
  return z
    .preprocess(
      (value) => (value === '' ? null : value),
      moneyCents({ required: messages.invalid ?? 'Enter an amount in dollars, like 1250.00', ...messages }).nullish(),
    )
    .transform((cents) => cents ?? null);
}

export { optionalWholeNumber } from './common';

const name = z
  .string({ message: 'Name is required' })
  .trim()
  .min(1, 'Name is required')
  .max(200, 'Name cannot be longer than 200 characters')
  .refine(hasNoNul, 'Name contains an invalid character');

const adType = z.enum(AD_TYPES, {
  error: (issue) =>
    issue.input === undefined || issue.input === null || issue.input === ''
      ? 'Ad type is required'
      : `Ad type must be one of: ${AD_TYPES.join(', ')}`,
});

const priceMetric = z.enum(PRICE_METRICS, {
  error: (issue) =>
    issue.input === undefined || issue.input === null || issue.input === ''
      ? 'Price metric is required'
      : `Price metric must be one of: ${PRICE_METRICS.join(', ')}`,
});

const productFields = {
  name,
  description: optionalText(2000, 'Description').refine(hasNoNul, 'Description contains an invalid character'),
  adType,
  defaultPrice: moneyCents({
    required: 'Default price is required',
    negative: 'Default price cannot be negative',
    invalid: 'Default price must be an amount in dollars with at most two decimals, like 1250.00',
  }),
  priceMetric,
  /** Default run length in days. */
  defaultDuration: optionalWholeNumber(
    z
      .number({ message: 'Default duration must be a whole number of days' })
      .int('Default duration must be a whole number of days')
      .min(1, 'Default duration must be at least 1 day')
      .max(3650, 'Default duration cannot exceed 3650 days'),
  ),
  /** Price for billing periods starting October to December. */
  seasonalPrice: optionalMoneyCents({
    negative: 'Seasonal price cannot be negative',
    invalid: 'Seasonal price must be an amount in dollars with at most two decimals, like 1250.00',
  }),
  inventoryRequired: z.boolean({ message: 'Inventory required must be true or false' }),
  /** Units (slots) an inventory product runs per day, 1 to 1,000; null for other products. */
  capacity: capacitySchema,
  isActive: z.boolean({ message: 'Active must be true or false' }),
};

/**
 * POST /api/products. Money fields arrive in dollars and leave the schema as integer cents. An inventory
 * product needs its capacity; any other product has none (a capacity sent with it is dropped).
 */
export const createProductSchema = z
  .object({
    ...productFields,
    priceMetric: priceMetric.default('monthly'),
    inventoryRequired: productFields.inventoryRequired.default(false),
    capacity: capacitySchema.optional().transform((n) => n ?? null),
    isActive: productFields.isActive.default(true),
  })
  .superRefine((p, ctx) => {
    if (p.inventoryRequired && p.capacity === null) {
      ctx.addIssue({ code: 'custom', path: ['capacity'], message: INVENTORY_MESSAGES.capacityRequired });
    }
  })
  .transform((p) => ({ ...p, capacity: p.inventoryRequired ? p.capacity : null }));
export type CreateProductInput = z.input<typeof createProductSchema>;
export type ProductValues = z.output<typeof createProductSchema>;

/** PATCH /api/products/:id: any subset of the fields (no defaults, so absent fields stay as they are). */
export const updateProductSchema = z.object(productFields).partial();
export type UpdateProductInput = z.input<typeof updateProductSchema>;
export type ProductChanges = z.output<typeof updateProductSchema>;

/** The create/edit dialog: the same rules; its output is the JSON body the API takes (money in dollars). */
export const productFormSchema = createProductSchema.transform((p) => ({
  ...p,
  defaultPrice: centsToAmount(p.defaultPrice),
  seasonalPrice: p.seasonalPrice === null ? null : centsToAmount(p.seasonalPrice),
}));
export type ProductFormValues = z.input<typeof productFormSchema>;
export type ProductPayload = z.output<typeof productFormSchema>;

export const productListQuerySchema = z.object({
  active: z
    .enum(['true', 'false'], { message: 'active must be true or false' })
    .transform((v) => v === 'true')
    .optional(),
  /** 'all' (the filter's "All ad types") or an empty value means every ad type. */
  adType: z
    .union([z.enum(AD_TYPES), z.literal('all'), z.literal('')], {
      message: `adType must be one of: ${AD_TYPES.join(', ')}`,
    })
    .optional()
    .transform((v) => (v === 'all' || v === '' ? undefined : v)),
});

/** A product as the API returns it; money in dollars. */
export type Product = {
  id: string;
  name: string;
  description: string | null;
  adType: AdType;
  defaultPrice: number;
  priceMetric: PriceMetric;
  /** Days. */
  defaultDuration: number | null;
  /** Applies to billing periods starting October to December. */
  seasonalPrice: number | null;
  inventoryRequired: boolean;
  /** Units per day of an inventory product; null for others. */
  capacity: number | null;
  isActive: boolean;
  createdAt: string;
  updatedAt: string;
};

/**
 * DELETE /api/products/:id: removed when unused; archived (isActive false) when a contract line item or a
 * package item uses it, in which case the answer is the archived product with the message.
 */
export type DeleteProductResult =
  | { message: string; archived: false }
  | (Product & { message: string; archived: true });
