import { addDays } from '@shared/billing';
import { formatMonth, pacingText } from '@shared/contracts/delivery';
import { formatCents } from '@shared/money';
import type { PeriodRow } from '../invoices/invoices.service';

/**
 * Delivery's words: a period's label, why it cannot take figures, the 409 of a settled one; and the one check
 * of a row against its billed period that the recorded and imported figures (delivery.service.ts) and the
 * pushed ones (delivery.push.ts) both make.
 */

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

/** Why a row's period refuses it; `settled` when only its being settled is in the way (409). */
export type PeriodProblem = { message: string; settled: boolean };

/** The figures a row gives for its whole period. */
type PeriodFigures = { impressions: number; clicks: number | null };

/** Whether a period's recorded total is these figures (a settled period given them again changes nothing). */
export function sameTotal(
  period: Pick<PeriodRow, 'delivered_impressions' | 'clicks'>,
  figures: PeriodFigures,
): boolean {
  const clicks = period.clicks === null ? null : Number(period.clicks);
  return Number(period.delivered_impressions) === figures.impressions && clicks === figures.clicks;
}

/**
 * What a row's billed period refuses, in this order: no period (the line was not billed for the row's month,
 * or for a period holding its day), then the caller's own refusal of the period (`refusal`: not ended yet, a
 * day not come ...), then a settled period given figures other than those it has (`sameFigures`). Null when
 * the row may be recorded.
 */
export function periodProblem(
  period: PeriodRow | undefined,
  when: { month: string } | { day: string },
  refusal: (period: PeriodRow) => string | null,
  sameFigures: (period: PeriodRow) => boolean,
): PeriodProblem | null {
  if (!period) {
    const message =
      'day' in when
        ? `The line was not billed for a period holding ${when.day}: there is no delivery to record for that day`
        : `The line was not billed for ${formatMonth(when.month)}: there is no delivery to record for that month`;
    return { message, settled: false };
  }
  const refused = refusal(period);
  if (refused) return { message: refused, settled: false };
  if (period.settled_at && !sameFigures(period)) return { message: settledMessage(period), settled: true };
  return null;
}
