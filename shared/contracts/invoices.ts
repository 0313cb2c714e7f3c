import { z } from 'zod';
import type { AgencyBillingMode } from '../billing';
import { type Cents, centsToAmount, formatCents, MAX_CENTS, parseMoney } from '../money';
import type { DocumentExport } from './accounting-formats';
import type { InvoiceAutopay } from './autopay';
import { isCalendarDate, listQuerySchema, optionalText } from './common';
import type { CreditNote } from './credit-notes';
import type { DeliveryPeriod } from './delivery';
import {
  type DunningStage,
  INVOICE_MESSAGES,
  INVOICE_STATUSES,
  type InvoiceStatus,
  MANUAL_PAYMENT_METHODS,
  type PaymentMethod,
  type PaymentProvider,
} from './invoice-vocabulary';
import type { PriceMetric } from './product-vocabulary';

// ---------------------------------------------------------------------------------------------------------
// Vocabulary
// ---------------------------------------------------------------------------------------------------------

export * from './invoice-vocabulary';
/** How an invoice billed to an agency treats its commission (product.md section 20). */
export type { AgencyBillingMode };

// ---------------------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------------------

const boolFlag = (name: string) =>
  z
    .enum(['true', 'false', '1', '0'], { message: `${name} must be true or false` })
    .optional()
    .transform((v) => v === 'true' || v === '1');

const optionalDate = (label: string) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v.slice(0, 10) : undefined))
    .refine((v) => v === undefined || isCalendarDate(v), `${label} must be a date (YYYY-MM-DD)`);

export const invoiceListQuerySchema = listQuerySchema.extend({
  contractId: z.string().uuid('Not a valid contract').optional(),
  customerId: z.string().uuid('Not a valid customer').optional(),
  /** A status, or 'all'. */
  status: z
    .enum([...INVOICE_STATUSES, 'all'], { message: `Status must be one of ${INVOICE_STATUSES.join(', ')}` })
    .optional()
    .transform((v) => (v === 'all' ? undefined : v)),
  /** Unpaid (pending or failed) and past the due date. */
  overdue: boolFlag('overdue'),
  /** Periods starting on or after this day. */
  periodFrom: optionalDate('periodFrom'),
  /** Periods starting on or before this day. */
  periodTo: optionalDate('periodTo'),
});
export type InvoiceListQuery = z.output<typeof invoiceListQuerySchema>;

/**
 * A manual payment (check, wire, cash, other), for POST /api/invoices/{id}/payments and the Record
 * Payment dialog. `amountDueCents` (the dialog knows it) adds the "not more than due" check; the server
 * enforces it in the database either way.
 */
export function manualPaymentSchema(options: { amountDueCents?: Cents; today?: string } = {}) {
  return z.object({
    amount: z
      .union([z.number(), z.string()], { message: INVOICE_MESSAGES.amountRequired })
      .superRefine((value, ctx) => {
        if (typeof value === 'string' && value.trim() === '') {
          ctx.addIssue({ code: 'custom', message: INVOICE_MESSAGES.amountRequired });
          return;
        }
        const cents = parseMoney(value);
        if (cents === null) ctx.addIssue({ code: 'custom', message: INVOICE_MESSAGES.amountInvalid });
        else if (cents <= 0) ctx.addIssue({ code: 'custom', message: INVOICE_MESSAGES.amountPositive });
        else if (cents > MAX_CENTS) ctx.addIssue({ code: 'custom', message: 'Amount is too large' });
        else if (options.amountDueCents !== undefined && cents > options.amountDueCents) {
          ctx.addIssue({
            code: 'custom',
            message: `${INVOICE_MESSAGES.amountAboveDue} (${formatCents(options.amountDueCents)})`,
          });
        }
      })
      .transform((value) => parseMoney(value) as Cents),
    method: z.enum(MANUAL_PAYMENT_METHODS, { message: INVOICE_MESSAGES.methodRequired }),
    reference: optionalText(200, 'Reference'),
    /** The day the money arrived (YYYY-MM-DD); today when not given. */
    paidAt: z
      .string({ message: 'Enter a valid date (YYYY-MM-DD)' })
      .trim()
      .nullish()
      .transform((v) => (v ? v.slice(0, 10) : null))
      .superRefine((v, ctx) => {
        if (v === null) return;
        if (!isCalendarDate(v)) ctx.addIssue({ code: 'custom', message: 'Enter a valid date (YYYY-MM-DD)' });
        else if (options.today && v > options.today)
          ctx.addIssue({ code: 'custom', message: INVOICE_MESSAGES.paidAtFuture });
      }),
  });
}
export const manualPaymentBodySchema = manualPaymentSchema();
export type ManualPaymentInput = z.input<typeof manualPaymentBodySchema>;
export type ManualPayment = z.output<typeof manualPaymentBodySchema>;

export const voidInvoiceSchema = z.object({
  reason: z
    .string({ message: INVOICE_MESSAGES.voidReasonRequired })
    .trim()
    .min(1, INVOICE_MESSAGES.voidReasonRequired)
    .max(1000, 'The reason cannot be longer than 1000 characters'),
});
export type VoidInvoiceInput = z.input<typeof voidInvoiceSchema>;

/** GET /api/invoices/{id}/receipt: the receipt of the payment named, or of the invoice's latest payment. */
export const receiptQuerySchema = z.object({ payment: z.string().uuid('Not a valid id').optional() });

// ---------------------------------------------------------------------------------------------------------
// Responses (amounts in dollars)
// ---------------------------------------------------------------------------------------------------------

export type InvoiceLine = {
  id: string;
  /**
   * 'makegood': free impressions owed for an earlier period's shortfall, at $0.00; 'agency_commission': a net-billed
   * invoice's agency commission, negative ("Agency commission 15%", product.md section 20).
   */
  kind: 'product' | 'package' | 'setup_fee' | 'adjustment' | 'makegood' | 'agency_commission';
  description: string;
  productId: string | null;
  quantity: number;
  unitPrice: number;
  discount: number;
  amount: number;
  seasonal: boolean;
  /** A product line's price metric; null for the package and the setup fee. */
  priceMetric: PriceMetric | null;
  /** The days the line bills (a flat line: its flight; coversEnd null when open-ended). */
  coversStart: string | null;
  coversEnd: string | null;
  /** A prorated line: the days billed of the period's days. */
  proratedDays: number | null;
  periodDays: number | null;
  /** A CPM line's booked impressions for the days billed; a makegood line's free impressions; else null. */
  impressions: number | null;
};

export type Payment = {
  id: string;
  invoiceId: string;
  kind: 'payment' | 'refund';
  status: 'succeeded' | 'failed';
  amount: number;
  method: PaymentMethod;
  provider: PaymentProvider;
  reference: string | null;
  cardBrand: string | null;
  cardLast4: string | null;
  failureMessage: string | null;
  paidAt: string;
  createdAt: string;
};

export type Invoice = {
  id: string;
  number: string;
  contractId: string;
  customerId: string;
  customerName: string | null;
  contractTitle: string | null;
  periodIndex: number;
  /** YYYY-MM-DD */
  periodStart: string;
  periodEnd: string;
  dueDate: string;
  status: InvoiceStatus;
  /** The gross lines' sum (a net-billed invoice's negative agency-commission line is not part of it). */
  subtotal: number;
  setupFee: number;
  /**
   * The agency's commission (product.md section 20), 0 when not billed to an agency: billed net, deducted on the
   * invoice (its agency-commission line; tax and total are on subtotal - agencyCommission); billed gross, owed to
   * the agency once the invoice is paid.
   */
  agencyCommission: number;
  agencyBillingMode: AgencyBillingMode | null;
  tax: number;
  taxLabel: string;
  /** Percent: 8.25 */
  taxRate: number;
  taxIncluded: boolean;
  total: number;
  /** The same as total: ui-spec.md's client screens read `amount`. */
  amount: number;
  amountPaid: number;
  /** total - amountPaid - credited, never below zero; 0 on a paid or void invoice. */
  amountDue: number;
  refunded: number;
  /** What its credit notes credited (a void's included). */
  credited: number;
  /** What a credit note may still credit: total - credited (0 on a void invoice). */
  creditable: number;
  inSeason: boolean;
  paidAt: string | null;
  voidedAt: string | null;
  voidReason: string | null;
  issuedAt: string;
  /** Unpaid (pending or failed) and due before today. */
  overdue: boolean;
  /** How far dunning has chased it; null unless overdue. */
  dunningStage: DunningStage | null;
  lines: InvoiceLine[];
  payments: Payment[];
  /** The part of amountPaid that came from the customer's credit balance ("Credit applied"). */
  creditApplied: number;
  creditNotes: CreditNote[];
  /**
   * Proof of performance: each CPM line's booked vs delivered impressions for this invoice's period, with
   * the credit note or makegood that settled a shortfall (product.md section 12).
   */
  delivery: DeliveryPeriod[];
  /**
   * The accounting export batches that exported it, oldest first ("Exported: EXP-2026-000003 (Xero invoices)";
   * decision 043). Staff only: a client's answer carries none.
   */
  exports: DocumentExport[];
  /** Autopay (product.md section 18): when the invoice is charged, or its attempts; null when not on autopay. */
  autopay: InvoiceAutopay;
};

/** A list row: the invoice without its lines, payments and credit notes. */
export type InvoiceSummary = Omit<
  Invoice,
  'lines' | 'payments' | 'creditApplied' | 'creditNotes' | 'delivery' | 'exports' | 'autopay'
>;

export type ScheduleItem = {
  periodIndex: number;
  periodStart: string;
  periodEnd: string;
  dueDate: string;
  subtotal: number;
  setupFee: number;
  /** The agency's commission on this period's invoice (Invoice.agencyCommission); 0 when not billed to an agency. */
  agencyCommission: number;
  /** Billed net, the commission is deducted from the total; gross, it is owed to the agency; null: no agency. */
  agencyBillingMode: AgencyBillingMode | null;
  tax: number;
  total: number;
  /** The period starts October to December (seasonal prices apply). */
  inSeason: boolean;
  /** Some line is billed at its product's seasonal price. */
  seasonalPricing: boolean;
  /** The issued invoice for this period, when there is one. */
  invoice: { id: string; number: string; status: InvoiceStatus } | null;
  /**
   * The amendments' prorated charges (positive) and credits (negative) this period's invoice carries, each
   * as its invoice line (the issued invoice's own lines once it is issued); part of the subtotal.
   */
  adjustments: ScheduleAdjustment[];
};

export type ScheduleAdjustment = { description: string; coversStart: string; coversEnd: string; amount: number };

export type ContractSchedule = {
  contractId: string;
  taxLabel: string;
  taxRate: number;
  taxIncluded: boolean;
  /** The term's end, when billing stops there (pausePaymentsAfterExpiry); null when billing runs on. */
  stopsOn: string | null;
  items: ScheduleItem[];
};

export type ReceiptSent = { message: string };

/** Dollars for JSON. */
export const dollars = (cents: number) => centsToAmount(cents);
