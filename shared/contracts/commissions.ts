import { z } from 'zod';
import { type Cents, centsToAmount, formatCents, parseMoney } from '../money';
import { COMMISSION_STATUSES, PAYOUT_FILTERS, PAYOUT_MESSAGES, PAYOUT_STATUSES } from './commission-vocabulary';
import { listQuerySchema, moneyCents } from './common';

export * from './commission-vocabulary';

// ---------------------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------------------

const positiveAmount = (required: string) =>
  moneyCents({ required, negative: PAYOUT_MESSAGES.amountPositive, invalid: PAYOUT_MESSAGES.amountInvalid }).refine(
    (cents) => cents > 0,
    PAYOUT_MESSAGES.amountPositive,
  );

/** POST /api/payouts/request. The server checks the limit (the caller's available amount) itself. */
export const requestPayoutSchema = z.object({ requestedAmount: positiveAmount(PAYOUT_MESSAGES.amountRequired) });
export type RequestPayoutInput = z.input<typeof requestPayoutSchema>;
export type RequestPayoutBody = z.output<typeof requestPayoutSchema>;

/**
 * The Request Payout dialog: the same rule plus the limit the screen knows (the available amount), so
 * "Amount cannot exceed available commission" shows as the user types.
 */
export function payoutRequestFormSchema(availableCents: Cents) {
  return z.object({
    requestedAmount: z
      .string()
      .superRefine((value, ctx) => {
        const text = value.trim();
        if (!text) return void ctx.addIssue({ code: 'custom', message: PAYOUT_MESSAGES.amountRequired });
        const cents = parseMoney(text);
        if (cents === null) return void ctx.addIssue({ code: 'custom', message: PAYOUT_MESSAGES.amountInvalid });
        if (cents <= 0) return void ctx.addIssue({ code: 'custom', message: PAYOUT_MESSAGES.amountPositive });
        if (cents > availableCents) {
          ctx.addIssue({ code: 'custom', message: PAYOUT_MESSAGES.amountExceedsAvailable });
        }
      })
      .transform((value) => centsToAmount(parseMoney(value.trim()) ?? 0)),
  });
}
export type PayoutRequestFormValues = z.input<ReturnType<typeof payoutRequestFormSchema>>;

/** True when the typed amount is a valid amount above the limit (the dialog disables submit then). */
export function exceedsAvailable(value: string, availableCents: Cents): boolean {
  const cents = parseMoney(value.trim());
  return cents !== null && cents > availableCents;
}

/** POST /api/payouts/{id}/approve: at most the requested amount (checked by the server against the payout). */
export const approvePayoutSchema = z.object({ approvedAmount: positiveAmount(PAYOUT_MESSAGES.approvedRequired) });
export type ApprovePayoutInput = z.input<typeof approvePayoutSchema>;
export type ApprovePayoutBody = z.output<typeof approvePayoutSchema>;

/** The approve dialog: the amount as typed, at most the requested amount (as the server checks). */
export function approvePayoutFormSchema(requestedCents: Cents) {
  return z.object({
    approvedAmount: z
      .string()
      .superRefine((value, ctx) => {
        const text = value.trim();
        if (!text) return void ctx.addIssue({ code: 'custom', message: PAYOUT_MESSAGES.approvedRequired });
        const cents = parseMoney(text);
        if (cents === null) return void ctx.addIssue({ code: 'custom', message: PAYOUT_MESSAGES.amountInvalid });
        if (cents <= 0) return void ctx.addIssue({ code: 'custom', message: PAYOUT_MESSAGES.amountPositive });
        if (cents > requestedCents) {
          ctx.addIssue({ code: 'custom', message: PAYOUT_MESSAGES.approvedExceedsRequested });
        }
      })
      .transform((value) => centsToAmount(parseMoney(value.trim()) ?? 0)),
  });
}
export type ApprovePayoutFormValues = z.input<ReturnType<typeof approvePayoutFormSchema>>;

/** POST /api/payouts/{id}/reject. */
export const rejectPayoutSchema = z.object({
  reason: z
    .string({ message: PAYOUT_MESSAGES.reasonRequired })
    .trim()
    .min(1, PAYOUT_MESSAGES.reasonRequired)
    .max(500, 'The reason cannot be longer than 500 characters')
    .refine((v) => !v.includes('\u0000'), 'The reason cannot contain NUL characters'),
});
export type RejectPayoutInput = z.input<typeof rejectPayoutSchema>;
export type RejectPayoutBody = z.output<typeof rejectPayoutSchema>;

const repId = z.string().uuid('Not a valid sales rep').optional();

/** GET /api/commissions/summary: a rep sees their own; staff who read every rep's may name one. */
export const commissionSummaryQuerySchema = z.object({ repId });

/** GET /api/commissions and /export: the history, newest first, filtered by status and rep. */
export const commissionListQuerySchema = listQuerySchema.extend({
  /** A status, or 'all' (the filter's "All") or an empty value for every status. */
  status: z
    .enum([...COMMISSION_STATUSES, 'all', ''], { message: 'Unknown commission status' })
    .optional()
    .transform((v) => (v === 'all' || v === '' ? undefined : v)),
  repId,
});
export type CommissionListQuery = z.infer<typeof commissionListQuerySchema>;

export const commissionExportQuerySchema = commissionListQuerySchema.pick({ status: true, repId: true });
export type CommissionExportQuery = z.infer<typeof commissionExportQuerySchema>;

/** GET /api/payouts: newest first, filtered by status (or `open`) and rep. */
export const payoutListQuerySchema = listQuerySchema.extend({
  status: z
    .enum([...PAYOUT_FILTERS, 'all', ''], { message: 'Unknown payout status' })
    .optional()
    .transform((v) => (v === 'all' || v === '' ? undefined : v)),
  repId,
});
export type PayoutListQuery = z.infer<typeof payoutListQuerySchema>;

// ---------------------------------------------------------------------------------------------------------
// Responses (amounts in dollars, as everywhere in JSON)
// ---------------------------------------------------------------------------------------------------------

/**
 * available + requested + disbursed = total (earned net of adjustments), for every rep at every moment.
 * `requested` is what payouts not yet disbursed hold (waiting for review or approved); `pending` is the
 * same figure under the dashboard's name. `thisMonth` is what was earned (net of adjustments) this
 * calendar month.
 */
export const commissionSummarySchema = z.object({
  available: z.number(),
  pending: z.number(),
  requested: z.number(),
  disbursed: z.number(),
  thisMonth: z.number(),
  total: z.number(),
});
export type CommissionSummary = z.infer<typeof commissionSummarySchema>;

export const commissionSchema = z.object({
  id: z.string(),
  /** When it was earned (or adjusted). */
  createdAt: z.string(),
  status: z.enum(COMMISSION_STATUSES),
  amount: z.number(),
  /** The rate it was earned at, as a fraction (0.05 is 5%). */
  rate: z.number(),
  /** The commissionable amount of the invoice (subtotal without the setup fee, before tax). */
  baseAmount: z.number(),
  invoiceId: z.string(),
  invoiceNumber: z.string().nullable(),
  contractId: z.string(),
  /** The contract list's short id (the last 8 characters). */
  contractShortId: z.string(),
  contractTitle: z.string().nullable(),
  customerId: z.string().nullable(),
  customerName: z.string().nullable(),
  repId: z.string(),
  repName: z.string().nullable(),
  payoutId: z.string().nullable(),
});
export type Commission = z.infer<typeof commissionSchema>;

export const payoutSchema = z.object({
  id: z.string(),
  repId: z.string(),
  repName: z.string().nullable(),
  status: z.enum(PAYOUT_STATUSES),
  requestedAt: z.string(),
  requestedAmount: z.number(),
  approvedAmount: z.number().nullable(),
  rejectReason: z.string().nullable(),
  reviewedAt: z.string().nullable(),
  reviewedByName: z.string().nullable(),
  disbursedAt: z.string().nullable(),
});
export type Payout = z.infer<typeof payoutSchema>;

/** GET /api/commissions/reps: the reps a reviewer can filter by. */
export const commissionRepSchema = z.object({ id: z.string(), name: z.string(), email: z.string() });
export type CommissionRep = z.infer<typeof commissionRepSchema>;

/** The amount text used in messages ("$1,250.00"). */
export const payoutAmountText = (cents: Cents) => formatCents(cents);
