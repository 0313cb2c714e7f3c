import { addDays } from '@shared/billing';
import { formatMonth, pacingText } from '@shared/contracts/delivery';
import { formatCents } from '@shared/money';
import type { PeriodRow } from '../invoices/invoices.service';

/** Delivery's words: a period's label, why it cannot take figures, the 409 of a settled one. */

const count = new Intl.NumberFormat('en-US');

/** "Pre-roll CPM, March 2026" */
export function periodLabel(row: Pick<PeriodRow, 'product_name' | 'month'>): string {
  return `${row.product_name}, ${formatMonth(row.month)}`;
}

/** Why a period cannot take delivery yet: it has not ended (answers null once it has). */
export function notEndedMessage(row: Pick<PeriodRow, 'period_start' | 'period_end'>, today: string): string | null {
  if (row.period_end < today) return null;
  return `The period ${row.period_start} to ${row.period_end} has not ended yet: its delivery can be recorded from ${addDays(row.period_end, 1)}`;
}

/** The 409 of a settled period whose figures a request would change. */
export function settledMessage(row: PeriodRow): string {
  const how =
    row.remedy === 'credit'
      ? row.credit_note_number
        ? `by credit note ${row.credit_note_number} (${formatCents(Number(row.credit_note_amount_cents))})`
        : 'by a credit'
      : row.remedy === 'makegood'
        ? `by a makegood of ${count.format(Number(row.shortfall_impressions))} impressions`
        : 'before delivery was reconciled';
  return `Delivery of ${periodLabel(row)} is settled ${how}: it can no longer be changed`;
}

/** "420,000 of 500,000 impressions (84.0%)" */
export function deliveredText(delivered: number, booked: number): string {
  return `${count.format(delivered)} of ${count.format(booked)} impressions (${pacingText(booked, delivered)})`;
}

export const formatImpressions = (n: number) => count.format(n);
