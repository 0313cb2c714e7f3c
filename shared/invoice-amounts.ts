import type { Cents } from './money';

/**
 * What an invoice still asks for, in one place: the invoice statuses that can be paid, and the amount due
 * (server/db/invoice-amounts.ts is its SQL twin, for aggregates; a test holds the two to one table).
 */

/** Statuses of an invoice that still asks for money: not yet paid (a declined card leaves it `failed`). */
export const PAYABLE_INVOICE_STATUSES = ['pending', 'failed'] as const;

export function isPayable(status: string): boolean {
  return (PAYABLE_INVOICE_STATUSES as readonly string[]).includes(status);
}

/**
 * Total minus what was paid and what credit notes credited, on a payable invoice, never below zero; nothing
 * on a paid or void one (product.md section 14).
 */
export function amountDueCents(invoice: {
  status: string;
  totalCents: Cents;
  amountPaidCents: Cents;
  creditedCents: Cents;
}): Cents {
  if (!isPayable(invoice.status)) return 0;
  return Math.max(0, invoice.totalCents - invoice.amountPaidCents - invoice.creditedCents);
}
