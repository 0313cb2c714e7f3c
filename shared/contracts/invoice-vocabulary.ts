/** invoices: the words and constants screens show (no zod here, so a screen can import them without the schemas). */

import { formatDocumentDate } from '../document-date';
import type { BadgeTone } from './contract-vocabulary';
import { PRICE_METRIC_DESCRIPTIONS, type PriceMetric } from './product-vocabulary';

export const INVOICE_STATUSES = ['pending', 'paid', 'failed', 'void'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

export const INVOICE_STATUS_LABELS: Record<InvoiceStatus, string> = {
  pending: 'Pending',
  paid: 'Paid',
  failed: 'Failed',
  void: 'Void',
};

/** Paid green (ui-spec.md section 4), pending yellow (outstanding), failed red, void grey. */
export const INVOICE_STATUS_TONES: Record<InvoiceStatus, BadgeTone> = {
  pending: 'yellow',
  paid: 'green',
  failed: 'red',
  void: 'grey',
};

/** An invoice status badge's label and tone (the client's Badge colours it); overdue pending ones are red. */
export function invoiceStatusBadge(status: string, overdue = false): { label: string; tone: BadgeTone } {
  const known = (INVOICE_STATUSES as readonly string[]).includes(status);
  const tone: BadgeTone = overdue ? 'red' : known ? INVOICE_STATUS_TONES[status as InvoiceStatus] : 'grey';
  const label = known ? INVOICE_STATUS_LABELS[status as InvoiceStatus] : status;
  return { label: overdue ? `${label} · Overdue` : label, tone };
}

/**
 * How far dunning has chased an overdue invoice (product.md section 14): overdue with no reminder yet, the
 * first or second reminder sent, or its contract paused for non-payment.
 */
export const DUNNING_STAGES = ['overdue', 'first_reminder', 'second_reminder', 'contract_paused'] as const;
export type DunningStage = (typeof DUNNING_STAGES)[number];

export const DUNNING_STAGE_LABELS: Record<DunningStage, string> = {
  overdue: 'Not reminded yet',
  first_reminder: 'First reminder sent',
  second_reminder: 'Second reminder sent',
  contract_paused: 'Contract paused for non-payment',
};

/** The stage of an invoice: null unless it is overdue; the contract's pause outranks the reminders. */
export function dunningStageOf(invoice: {
  overdue: boolean;
  /** The latest reminder sent: 0 none, 1 the first, 2 the second. */
  reminderLevel: number;
  contractPausedForNonPayment: boolean;
}): DunningStage | null {
  if (!invoice.overdue) return null;
  if (invoice.contractPausedForNonPayment) return 'contract_paused';
  if (invoice.reminderLevel >= 2) return 'second_reminder';
  if (invoice.reminderLevel === 1) return 'first_reminder';
  return 'overdue';
}

/** Every way money arrives. Card payments come from a payment provider; the others are recorded by staff. */
export const PAYMENT_METHODS = [
  'card',
  'card_on_file',
  'bank_debit',
  'check',
  'wire',
  'cash',
  'other',
  'credit',
] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export const MANUAL_PAYMENT_METHODS = ['check', 'wire', 'cash', 'other'] as const;
export type ManualPaymentMethod = (typeof MANUAL_PAYMENT_METHODS)[number];

export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  card: 'Card',
  card_on_file: 'Card on file',
  bank_debit: 'Bank debit',
  check: 'Check',
  wire: 'Wire transfer',
  cash: 'Cash',
  other: 'Other',
  credit: 'Credit applied',
};

/** How a payment was made, as receipts say it: "Visa ending in 4242", "Card", "Wire transfer". */
export function paymentMethodText(payment: {
  method: PaymentMethod;
  cardBrand: string | null;
  cardLast4: string | null;
}): string {
  if ((payment.method === 'card' || payment.method === 'card_on_file') && payment.cardLast4) {
    const brand = payment.cardBrand ? payment.cardBrand.charAt(0).toUpperCase() + payment.cardBrand.slice(1) : 'Card';
    const card = `${brand} ending in ${payment.cardLast4}`;
    // Autopay (product.md section 18): "Card on file (Visa ending in 4242)".
    return payment.method === 'card_on_file' ? `${PAYMENT_METHOD_LABELS.card_on_file} (${card})` : card;
  }
  return PAYMENT_METHOD_LABELS[payment.method] ?? payment.method;
}

/** `credit`: the customer's credit balance paid it (product.md section 14). */
export const PAYMENT_PROVIDERS = ['builtin', 'stripe', 'manual', 'credit'] as const;
export type PaymentProvider = (typeof PAYMENT_PROVIDERS)[number];

export const INVOICE_MESSAGES = {
  amountRequired: 'Amount is required',
  amountPositive: 'Amount must be greater than zero',
  amountInvalid: 'Enter an amount in dollars, like 1250.00',
  amountAboveDue: 'Amount cannot exceed the amount due',
  methodRequired: 'Payment method is required',
  paidAtFuture: 'The payment date cannot be in the future',
  voidReasonRequired: 'Please give a reason for voiding the invoice',
  alreadyPaid: 'This invoice is already paid.',
  isVoid: 'This invoice is void.',
  noReceipt: 'No payment to send a receipt for',
} as const;

const shortDate = formatDocumentDate;

/**
 * What an invoice line bills, in words, under its description: "CPM, per 1000 impressions · Oct 16, 2026 – Nov 15, 2026",
 * "Per Month · Oct 16, 2026 – Oct 31, 2026 · prorated 16 of 31 days", "Flat Rate, billed once · from Dec 1, 2026".
 * null for the package and setup-fee lines.
 */
export function invoiceLineDetail(line: {
  kind?: string;
  priceMetric: PriceMetric | null;
  coversStart: string | null;
  coversEnd: string | null;
  proratedDays: number | null;
  periodDays: number | null;
  impressions?: number | null;
}): string | null {
  const impressions =
    line.impressions === null || line.impressions === undefined
      ? ''
      : `${IMPRESSIONS.format(line.impressions)} impressions`;
  if (line.kind === 'makegood') return `${impressions} free of charge, delivered in this period`;
  if (line.priceMetric === null || line.coversStart === null) return null;
  const metric = line.priceMetric === 'flat' ? 'Flat Rate, billed once' : PRICE_METRIC_DESCRIPTIONS[line.priceMetric];
  const span = line.coversEnd
    ? `${shortDate(line.coversStart)} – ${shortDate(line.coversEnd)}`
    : `from ${shortDate(line.coversStart)}`;
  const prorated =
    line.proratedDays !== null && line.periodDays !== null
      ? ` · prorated ${line.proratedDays} of ${line.periodDays} days`
      : '';
  return `${metric} · ${span}${prorated}${impressions ? ` · ${impressions} booked` : ''}`;
}

const IMPRESSIONS = new Intl.NumberFormat('en-US');
