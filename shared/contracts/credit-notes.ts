import { z } from 'zod';
import { type Cents, formatCents, MAX_CENTS, parseMoney } from '../money';
import type { DocumentExport } from './accounting-formats';
import { listQuerySchema, optionalText } from './common';
import { MANUAL_PAYMENT_METHODS, type ManualPaymentMethod } from './invoice-vocabulary';

/**
 * Credit notes and the customer's credit balance (product.md section 14): the words screens show, the
 * request schemas the forms and the routes share, and the response shapes (amounts in dollars).
 */

// ---------------------------------------------------------------------------------------------------------
// Vocabulary
// ---------------------------------------------------------------------------------------------------------

/** Why a credit note was issued: a void (what remained uncredited), a partial credit, an under-delivery. */
export const CREDIT_NOTE_KINDS = ['void', 'partial', 'delivery'] as const;
export type CreditNoteKind = (typeof CREDIT_NOTE_KINDS)[number];

export const CREDIT_NOTE_KIND_LABELS: Record<CreditNoteKind, string> = {
  void: 'Void',
  partial: 'Credit',
  delivery: 'Under-delivery',
};

/** Movements of a customer's credit balance. */
export const CREDIT_ENTRY_KINDS = ['credit', 'applied', 'unapplied', 'refunded'] as const;
export type CreditEntryKind = (typeof CREDIT_ENTRY_KINDS)[number];

export const CREDIT_ENTRY_LABELS: Record<CreditEntryKind, string> = {
  credit: 'Credit beyond the amount due',
  applied: 'Credit applied',
  unapplied: 'Credit returned (invoice voided)',
  refunded: 'Credit refunded',
};

/** The Invoices screen's type filter. */
export const INVOICE_DOCUMENT_TYPES = ['invoices', 'credit_notes'] as const;
export type InvoiceDocumentType = (typeof INVOICE_DOCUMENT_TYPES)[number];
export const INVOICE_DOCUMENT_TYPE_LABELS: Record<InvoiceDocumentType, string> = {
  invoices: 'Invoices',
  credit_notes: 'Credit notes',
};

export const CREDIT_MESSAGES = {
  amountRequired: 'Amount is required',
  amountPositive: 'Amount must be greater than zero',
  amountInvalid: 'Enter an amount in dollars, like 1250.00',
  amountTooLarge: 'Amount is too large',
  amountAboveCreditable: 'Amount cannot exceed what remains to credit on this invoice',
  amountAboveBalance: 'Amount cannot exceed the credit balance',
  reasonRequired: 'Please give a reason for the credit',
  reasonTooLong: 'The reason cannot be longer than 1000 characters',
  methodRequired: 'Refund method is required',
  invoiceVoid: 'This invoice is void. It cannot be credited.',
  fullyCredited: 'This invoice is already fully credited.',
  noBalance: 'This customer has no credit balance to refund.',
} as const;

// ---------------------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------------------

/** A money amount in dollars (number or string), at most `maxCents` when given (with its message). */
function amountField(max?: { cents: Cents; message: string }) {
  return z
    .union([z.number(), z.string()], { message: CREDIT_MESSAGES.amountRequired })
    .superRefine((value, ctx) => {
      if (typeof value === 'string' && value.trim() === '') {
        ctx.addIssue({ code: 'custom', message: CREDIT_MESSAGES.amountRequired });
        return;
      }
      const cents = parseMoney(value);
      if (cents === null) ctx.addIssue({ code: 'custom', message: CREDIT_MESSAGES.amountInvalid });
      else if (cents <= 0) ctx.addIssue({ code: 'custom', message: CREDIT_MESSAGES.amountPositive });
      else if (cents > MAX_CENTS) ctx.addIssue({ code: 'custom', message: CREDIT_MESSAGES.amountTooLarge });
      else if (max && cents > max.cents) {
        ctx.addIssue({ code: 'custom', message: `${max.message} (${formatCents(max.cents)})` });
      }
    })
    .transform((value) => parseMoney(value) as Cents);
}

/**
 * A partial credit note, for POST /api/invoices/{id}/credit-notes and the Issue Credit Note dialog.
 * `creditableCents` (the dialog knows it: total - already credited) adds the "not more than" check; the
 * server enforces it in the database either way.
 */
export function creditNoteSchema(options: { creditableCents?: Cents } = {}) {
  return z.object({
    amount: amountField(
      options.creditableCents === undefined
        ? undefined
        : { cents: options.creditableCents, message: CREDIT_MESSAGES.amountAboveCreditable },
    ),
    reason: z
      .string({ message: CREDIT_MESSAGES.reasonRequired })
      .trim()
      .min(1, CREDIT_MESSAGES.reasonRequired)
      .max(1000, CREDIT_MESSAGES.reasonTooLong),
  });
}
export const creditNoteBodySchema = creditNoteSchema();
export type CreditNoteInput = z.input<typeof creditNoteBodySchema>;
export type CreditNoteRequest = z.output<typeof creditNoteBodySchema>;

/** Finance pays a customer's credit balance back: POST /api/customers/{id}/credit-refunds. */
export function creditRefundSchema(options: { balanceCents?: Cents } = {}) {
  return z.object({
    amount: amountField(
      options.balanceCents === undefined
        ? undefined
        : { cents: options.balanceCents, message: CREDIT_MESSAGES.amountAboveBalance },
    ),
    method: z.enum(MANUAL_PAYMENT_METHODS, { message: CREDIT_MESSAGES.methodRequired }),
    reference: optionalText(200, 'Reference'),
  });
}
export const creditRefundBodySchema = creditRefundSchema();
export type CreditRefundInput = z.input<typeof creditRefundBodySchema>;
export type CreditRefundRequest = z.output<typeof creditRefundBodySchema>;

/** GET /api/credit-notes: by role, like the invoices (all, a rep's contracts', a client's own). */
export const creditNoteListQuerySchema = listQuerySchema.extend({
  customerId: z.string().uuid('Not a valid customer').optional(),
  invoiceId: z.string().uuid('Not a valid invoice').optional(),
  contractId: z.string().uuid('Not a valid contract').optional(),
});
export type CreditNoteListQuery = z.output<typeof creditNoteListQuerySchema>;

// ---------------------------------------------------------------------------------------------------------
// Responses (amounts in dollars)
// ---------------------------------------------------------------------------------------------------------

export type CreditNote = {
  id: string;
  /** CN-2026-000001 */
  number: string;
  kind: CreditNoteKind;
  reason: string;
  invoiceId: string;
  invoiceNumber: string;
  contractId: string;
  customerId: string;
  customerName: string | null;
  /** What is credited, tax included (the invoice's total is credited in the same terms). */
  amount: number;
  /** Its tax part. */
  tax: number;
  /** The part that lowered the invoice's amount due. */
  appliedToInvoice: number;
  /** The part beyond the amount due, added to the customer's credit balance. */
  toCreditBalance: number;
  issuedAt: string;
  /** The accounting export batches that exported it (decision 043); staff only, a client's answer carries none. */
  exports: DocumentExport[];
};

export type CustomerCreditEntry = {
  id: string;
  kind: CreditEntryKind;
  /** Positive: the balance grew; negative: it was used or paid back. */
  amount: number;
  creditNoteId: string | null;
  creditNoteNumber: string | null;
  invoiceId: string | null;
  invoiceNumber: string | null;
  /** A refund's method and reference, or a note. */
  method: ManualPaymentMethod | null;
  reference: string | null;
  createdAt: string;
};

/** GET /api/customers/{id}/credit: the balance and its movements, newest first. */
export type CustomerCredit = {
  customerId: string;
  balance: number;
  entries: CustomerCreditEntry[];
};
