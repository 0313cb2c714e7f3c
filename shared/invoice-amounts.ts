import type { Cents } from './money';

/**
 * The rules of an invoice's amounts, in one place: which statuses can be paid, what is due, what credit notes
 * may still credit, what a void refunds, when payments and credits settle it (server/db/invoice-amounts.ts is
 * their SQL twin, for statements and aggregates; tests hold the two to one table). The invoice ledger
 * (server/modules/invoices/invoices.ledger.ts) writes by these rules; screens, e-mails and PDFs show them.
 */

/** Statuses of an invoice that still asks for money: not yet paid (a declined card leaves it `failed`). */
export const PAYABLE_INVOICE_STATUSES = ['pending', 'failed'] as const;

/** Statuses of an invoice that can be voided: every one but `void`. */
export const VOIDABLE_INVOICE_STATUSES = [...PAYABLE_INVOICE_STATUSES, 'paid'] as const;

export function isPayable(status: string): boolean {
  return (PAYABLE_INVOICE_STATUSES as readonly string[]).includes(status);
}

/**
 * Whether a list shows what is still due below an invoice's amount: on an invoice that can still be paid, with
 * something due that is not the whole amount (part of it paid or credited already). In any one unit.
 */
export function showsAmountDue(invoice: { status: string; amount: number; amountDue: number }): boolean {
  return isPayable(invoice.status) && invoice.amountDue > 0 && invoice.amountDue !== invoice.amount;
}

export function isVoidable(status: string): boolean {
  return (VOIDABLE_INVOICE_STATUSES as readonly string[]).includes(status);
}

type Amounts = { totalCents: Cents; amountPaidCents: Cents; creditedCents: Cents };

/**
 * Total minus what was paid and what credit notes credited, on a payable invoice, never below zero; nothing
 * on a paid or void one (product.md section 14).
 */
export function amountDueCents(invoice: Amounts & { status: string }): Cents {
  if (!isPayable(invoice.status)) return 0;
  return Math.max(0, invoice.totalCents - invoice.amountPaidCents - invoice.creditedCents);
}

/** The part of the total no credit note has credited yet (what a void's own credit note credits). */
export function uncreditedCents(invoice: Pick<Amounts, 'totalCents' | 'creditedCents'>): Cents {
  return Math.max(0, invoice.totalCents - invoice.creditedCents);
}

/** What a credit note may still credit: the total less what is credited; nothing on a void invoice. */
export function creditableCents(invoice: Pick<Amounts, 'totalCents' | 'creditedCents'> & { status: string }): Cents {
  return invoice.status === 'void' ? 0 : uncreditedCents(invoice);
}

/**
 * What voiding the invoice refunds: what was paid on it and not already credited (a credit beyond the amount
 * due went to the customer's credit balance before), that is least(paid, total - credited) (decision 024).
 */
export function refundableCents(invoice: Amounts): Cents {
  return Math.min(invoice.amountPaidCents, uncreditedCents(invoice));
}

/** Payments and credits together reach the total: a payable invoice with these amounts is paid. */
export function settles(invoice: Amounts): boolean {
  return invoice.amountPaidCents + invoice.creditedCents >= invoice.totalCents;
}
