import { z } from 'zod';
import { lineTotalCents, MAX_CENTS } from '../money';
import { AGENCY_MESSAGES } from './agencies';
import { isCalendarDate, isoDate, listQuerySchema, moneyCents, optionalText } from './common';
import { computeAutoStopDate } from './contract-lifecycle';
import {
  CONTRACT_MESSAGES,
  CONTRACT_STATUSES,
  flightIssues,
  hasPackage,
  lineIssues,
  PAUSE_REASONS,
  PAYMENT_MODES,
  parseWhole,
  quantityIssue,
  termIssue,
} from './contract-vocabulary';
import { UNDER_DELIVERY_REMEDIES } from './delivery-vocabulary';

/** An optional calendar day: left out, null or '' is none. */
function optionalDate(label: string) {
  return z
    .union([z.string(), z.null()], { message: `${label} must be a date (YYYY-MM-DD)` })
    .optional()
    .transform((v) => (v === undefined || v === null || v.trim() === '' ? null : v.trim().slice(0, 10)))
    .refine((v) => v === null || isCalendarDate(v), 'Enter a valid date (YYYY-MM-DD)');
}

/** The contracts API's requests: POST and PATCH /api/contracts (the same body), the list query, the cancel body. */

/** An id that must be given ('required') and name a record ('unknown' for text that cannot be an id). */
function requiredId(required: string, unknown: string) {
  return z
    .string({ message: required })
    .trim()
    .superRefine((v, ctx) => {
      if (v === '') ctx.addIssue({ code: 'custom', message: required });
      else if (!z.uuid().safeParse(v).success) ctx.addIssue({ code: 'custom', message: unknown });
    });
}

export const apiLineSchema = z
  .object({
    productId: requiredId(CONTRACT_MESSAGES.productRequired, 'Product not found'),
    quantity: z
      .union([z.number(), z.string()], { message: CONTRACT_MESSAGES.quantityMin })
      .transform((v) => (typeof v === 'number' ? v : parseWhole(v)))
      .superRefine((v, ctx) => {
        const issue = quantityIssue(v);
        if (issue) ctx.addIssue({ code: 'custom', message: issue });
      }),
    unitPrice: moneyCents({
      required: CONTRACT_MESSAGES.unitPriceRequired,
      negative: CONTRACT_MESSAGES.unitPriceNegative,
      invalid: CONTRACT_MESSAGES.unitPriceInvalid,
    }),
    discount: moneyCents({
      required: CONTRACT_MESSAGES.discountInvalid,
      negative: CONTRACT_MESSAGES.discountNegative,
      invalid: CONTRACT_MESSAGES.discountInvalid,
    })
      .nullish()
      .transform((v) => v ?? 0),
    /** Left out: the product's seasonal price; null or '': none for this line. */
    seasonalPrice: z.preprocess(
      (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
      moneyCents({
        required: CONTRACT_MESSAGES.seasonalPriceInvalid,
        negative: CONTRACT_MESSAGES.seasonalPriceNegative,
        invalid: CONTRACT_MESSAGES.seasonalPriceInvalid,
      })
        .nullable()
        .optional(),
    ),
    /** Left out: the contract's start date. */
    flightStart: optionalDate('Flight start'),
    /** Left out: open-ended (a flat line: its product's default duration). */
    flightEnd: optionalDate('Flight end'),
  })
  .superRefine((line, ctx) => {
    const { quantity, unitPrice, discount, seasonalPrice } = line;
    // Only a line whose own fields are valid is checked as a whole.
    if (![quantity, unitPrice, discount].every(Number.isSafeInteger)) return;
    if (quantityIssue(quantity) || unitPrice < 0 || discount < 0) return;
    // An in-season price left out is the product's: the server checks the line again with it.
    const seasonalPriceCents =
      typeof seasonalPrice === 'number' && Number.isSafeInteger(seasonalPrice) && seasonalPrice >= 0
        ? seasonalPrice
        : null;
    const issue = lineIssues({ quantity, unitPriceCents: unitPrice, discountCents: discount, seasonalPriceCents });
    if (issue) ctx.addIssue({ code: 'custom', message: issue, path: ['discount'] });
  });

export const contractBodySchema = z
  .object({
    customerId: requiredId(CONTRACT_MESSAGES.customerRequired, 'Customer not found'),
    title: optionalText(200, 'Title'),
    description: optionalText(5000, 'Description'),
    startDate: isoDate(CONTRACT_MESSAGES.startDateRequired),
    termMonths: z
      .union([z.number(), z.string(), z.null()], { message: CONTRACT_MESSAGES.termWhole })
      .optional()
      .transform((v) =>
        v === undefined || v === null || (typeof v === 'string' && v.trim() === '')
          ? null
          : typeof v === 'number'
            ? v
            : parseWhole(v),
      )
      .superRefine((v, ctx) => {
        const issue = v === null ? null : termIssue(v);
        if (issue) ctx.addIssue({ code: 'custom', message: issue });
      }),
    setupFee: moneyCents({
      required: CONTRACT_MESSAGES.setupFeeInvalid,
      negative: CONTRACT_MESSAGES.setupFeeNegative,
      invalid: CONTRACT_MESSAGES.setupFeeInvalid,
    })
      .nullish()
      .transform((v) => v ?? 0),
    paymentMode: z.enum(PAYMENT_MODES, { message: CONTRACT_MESSAGES.paymentModeRequired }),
    /** Left out: 'credit' on create, unchanged on an edit. */
    underDeliveryRemedy: z.enum(UNDER_DELIVERY_REMEDIES, { message: CONTRACT_MESSAGES.remedyInvalid }).optional(),
    /** null, '' or 'none': no package. */
    packageId: z
      .string({ message: 'Package not found' })
      .trim()
      .nullish()
      .transform((v) => (hasPackage(v) ? v : null))
      .refine((v) => v === null || z.uuid().safeParse(v).success, 'Package not found'),
    sendToCustomer: z.boolean({ message: 'sendToCustomer must be true or false' }).default(false),
    makeActive: z.boolean({ message: 'makeActive must be true or false' }).default(false),
    /** 'active' is the same as makeActive; 'sent' the same as sendToCustomer. Other changes use the actions. */
    status: z
      .enum(['draft', 'sent', 'active'], {
        message: 'Status can only be draft, sent or active here; use the contract actions for other changes',
      })
      .optional(),
    /**
     * Who is invoiced and pays (product.md section 20): the customer itself or its agency of record on the start
     * date. Left out, null or '': that agency when the customer has one, else the customer (the server decides).
     */
    billToCustomerId: z
      .string({ message: AGENCY_MESSAGES.billToInvalid })
      .trim()
      .nullish()
      .transform((v) => (v ? v : null))
      .refine((v) => v === null || z.uuid().safeParse(v).success, AGENCY_MESSAGES.billToInvalid),
    /** Only holders of contract:assign-rep may name someone other than themselves. */
    salesRepId: z.string().uuid('Sales rep not found').nullish(),
    lineItems: z.array(apiLineSchema, { message: 'Line items must be a list' }).default([]),
  })
  .superRefine((body, ctx) => {
    if (body.packageId === null && body.lineItems.length === 0) {
      ctx.addIssue({ code: 'custom', message: CONTRACT_MESSAGES.packageOrLine, path: ['lineItems'] });
    }
    if (typeof body.startDate === 'string' && (body.termMonths === null || Number.isInteger(body.termMonths))) {
      const termEnd = computeAutoStopDate(body.startDate, body.termMonths);
      body.lineItems.forEach((line, i) => {
        for (const [field, message] of Object.entries(flightIssues(line, { startDate: body.startDate, termEnd }))) {
          ctx.addIssue({ code: 'custom', message, path: ['lineItems', i, field] });
        }
      });
    }
    // Lines whose own fields are invalid have their messages already; the rest are added up.
    const lineTotals = body.lineItems
      .filter((l) => [l.quantity, l.unitPrice, l.discount].every(Number.isSafeInteger))
      .map((l) => lineTotalCents({ quantity: l.quantity, unitPriceCents: l.unitPrice, discountCents: l.discount }));
    if (lineTotals.reduce((a, b) => a + b, 0) + (Number.isSafeInteger(body.setupFee) ? body.setupFee : 0) > MAX_CENTS) {
      ctx.addIssue({ code: 'custom', message: CONTRACT_MESSAGES.totalTooLarge, path: ['lineItems'] });
    }
  });

/** What a client sends (amounts in dollars). */
export type ContractBodyInput = z.input<typeof contractBodySchema>;
/** What the server works with after validation (amounts in cents). */
export type ContractBody = z.output<typeof contractBodySchema>;

export const contractListQuerySchema = listQuerySchema.extend({
  /** A status, or 'all' (the filter's "All") or an empty value for every status. */
  status: z
    .enum([...CONTRACT_STATUSES, 'all', ''], { message: `Status must be one of ${CONTRACT_STATUSES.join(', ')}` })
    .optional()
    .transform((v) => (v === 'all' || v === '' ? undefined : v)),
  customerId: z.string().uuid('Not a valid customer').optional(),
  /** Why a paused contract is paused (manual or non_payment), or 'all' / empty for any: the reason filter. */
  reason: z
    .enum([...PAUSE_REASONS, 'all', ''], { message: `Reason must be one of ${PAUSE_REASONS.join(', ')}` })
    .optional()
    .transform((v) => (v === 'all' || v === '' ? undefined : v)),
  /** Running contracts (active or paused) whose auto-stop date is within this many days from today. */
  expiring: z.coerce
    .number({ message: 'expiring must be a number of days' })
    .int('expiring must be a whole number of days')
    .min(1, 'expiring must be at least 1 day')
    .max(366, 'expiring cannot exceed 366 days')
    .optional(),
  /** The sales view's "my contracts": only those the caller is the sales rep of. */
  mine: z
    .enum(['true', 'false', '1', '0'], { message: 'mine must be true or false' })
    .optional()
    .transform((v) => v === 'true' || v === '1'),
});
export type ContractListQuery = z.output<typeof contractListQuerySchema>;

export const cancelContractSchema = z.object({
  reason: z
    .string({ message: CONTRACT_MESSAGES.cancelReasonRequired })
    .trim()
    .min(1, CONTRACT_MESSAGES.cancelReasonRequired)
    .max(1000, 'The reason cannot be longer than 1000 characters'),
});
export type CancelContractInput = z.input<typeof cancelContractSchema>;

// ---------------------------------------------------------------------------------------------------------
// Amendments of a running contract (product.md section 11)
// ---------------------------------------------------------------------------------------------------------

/** POST /api/contracts/{id}/lines: a line added from today (or a later day). */
export const addContractLineSchema = apiLineSchema;
export type AddContractLineInput = z.input<typeof addContractLineSchema>;
export type AddContractLine = z.output<typeof addContractLineSchema>;

/** POST /api/contracts/{id}/lines/{lineId}/end: the line's last day (default today). */
export const endContractLineSchema = z
  .object({ endDate: optionalDate('End date') })
  .nullish()
  .transform((body) => ({ endDate: body?.endDate ?? null }));
export type EndContractLineInput = z.input<typeof endContractLineSchema>;
