import { formatAmount as formatMoney } from '../money';
/**
 * Delivery and proof of performance (product.md section 12): the words and small computations screens show
 * (no zod here, so a screen can import them without the schemas).
 */

export const UNDER_DELIVERY_REMEDIES = ['credit', 'makegood'] as const;
export type UnderDeliveryRemedy = (typeof UNDER_DELIVERY_REMEDIES)[number];
export const DEFAULT_UNDER_DELIVERY_REMEDY: UnderDeliveryRemedy = 'credit';

export const UNDER_DELIVERY_REMEDY_LABELS: Record<UnderDeliveryRemedy, { label: string; description: string }> = {
  credit: { label: 'Credit note', description: 'Credit the undelivered impressions at the rate billed' },
  makegood: { label: 'Makegood impressions', description: "Add the shortfall free to the line's next period" },
};

/**
 * How a billed period stands: waiting for its figures; reported so far (figures an ad server pushed that are
 * not final yet: the period is running, or within its grace days); delivered in full (final, still
 * correctable); or settled.
 */
export type DeliveryStatus = 'awaiting' | 'reported' | 'delivered' | 'settled';
/** A settled period's remedy; 'none': figures entered before delivery was reconciled. */
export type DeliveryRemedy = UnderDeliveryRemedy | 'none';

/** Below this share of booked at period end, the rep is told (product.md section 12). */
export const PACING_ALERT_PERCENT = 90;

/** The largest figure accepted (a trillion): far above any campaign, safely inside a JavaScript number. */
export const MAX_FIGURE = 1_000_000_000_000;

/** The CSV import's limits. */
export const MAX_IMPORT_BYTES = 5 * 1024 * 1024;
export const MAX_IMPORT_ROWS = 50_000;
export const IMPORT_COLUMNS = ['contract', 'line', 'month', 'impressions', 'clicks'] as const;
/** The most rows one delivery push (POST /api/delivery) takes. */
export const MAX_PUSH_ROWS = 10_000;

/** Days after a period's end before pushed figures count as final (the contract settings' deliveryGraceDays). */
export const DEFAULT_DELIVERY_GRACE_DAYS = 3;
export const MAX_DELIVERY_GRACE_DAYS = 31;

/** What is wrong with an impressions or clicks figure: the same words for the CSV import and the JSON push. */
export const figureMessages = (label: string) =>
  ({
    required: `${label} is required`,
    number: `${label} must be a number`,
    whole: `${label} must be a whole number`,
    negative: `${label} cannot be negative`,
    tooLarge: `${label} is too large`,
  }) as const;

/**
 * Delivered as a percentage of booked with one decimal ("92.4%"), computed in integers (tenths of a percent,
 * rounded half up); "—" when nothing is booked or nothing was reported.
 */
export function pacingText(booked: number, delivered: number | null): string {
  if (delivered === null || booked <= 0) return '—';
  const tenths = Math.floor((delivered * 1000 * 2 + booked) / (booked * 2));
  return `${Math.trunc(tenths / 10)}.${tenths % 10}%`;
}

/** Click-through rate as a percentage with one decimal ("2.5%"), or "—" without impressions or clicks. */
export function clickThroughRate(figures: { impressions: number; clicks: number | null }): string {
  if (figures.impressions <= 0 || figures.clicks === null) return '—';
  return pacingText(figures.impressions, figures.clicks);
}

/** "2026-03" -> "March 2026". */
export function formatMonth(month: string): string {
  const [year, m] = month.split('-').map(Number);
  return new Date(Date.UTC(year, m - 1, 1)).toLocaleString('en-US', {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

/**
 * What became of a period's delivery, in words ("Credit note CN-2026-000004 for $600.00", "Makegood: 50,000
 * impressions on INV-2026-000031"); null while nothing is recorded or when it was delivered in full.
 */
export function deliveryNote(period: {
  status: DeliveryStatus;
  remedy: DeliveryRemedy | null;
  shortfall: number;
  makegood: number;
  creditNote: { number: string; amount: number } | null;
  makegoodInvoice: { number: string } | null;
}): string | null {
  const parts: string[] = [];
  if (period.makegood > 0) parts.push(`Includes ${IMPRESSIONS.format(period.makegood)} makegood impressions`);
  if (period.status === 'settled') {
    const shortfall = `${IMPRESSIONS.format(period.shortfall)} impressions short`;
    if (period.remedy === 'credit') {
      parts.push(
        period.creditNote
          ? `${shortfall}: credit note ${period.creditNote.number} for ${formatMoney(period.creditNote.amount)}`
          : `${shortfall}: nothing left to credit`,
      );
    } else if (period.remedy === 'makegood') {
      parts.push(
        `${shortfall}: made good free of charge on ${period.makegoodInvoice ? `invoice ${period.makegoodInvoice.number}` : 'the next invoice'}`,
      );
    } else {
      parts.push('Recorded before delivery was reconciled');
    }
  } else if (period.status === 'delivered') {
    parts.push('Delivered in full');
  } else if (period.status === 'reported') {
    parts.push('Reported so far');
  }
  return parts.length > 0 ? parts.join('. ') : null;
}

const IMPRESSIONS = new Intl.NumberFormat('en-US');

export const DELIVERY_MESSAGES = {
  month: 'Month must be a calendar month (YYYY-MM)',
  none: 'No delivery reported yet',
  noCpmLines: 'This contract has no CPM lines: delivery is reconciled for CPM lines only.',
  emptyFile: 'The file has no rows to import',
  tooLarge: 'The file is larger than 5 MB',
  tooManyRows: 'The file has more than 50,000 rows',
  columns: 'The file needs the columns contract, line, month, impressions (and optionally clicks)',
  csvOnly: 'Send the file as text/csv',
  date: 'Date must be a calendar day (YYYY-MM-DD)',
  dateOrMonth: 'Give the date (YYYY-MM-DD) of a daily figure or the month (YYYY-MM) of a period total',
  dateAndMonth: 'Give either a date or a month, not both',
  final: 'Final must be true or false',
  pushBody: 'Send a JSON object with the rows: { "rows": [...] }',
  pushRows: 'Rows must be a list of delivery rows',
  pushEmpty: 'Send at least one row',
  pushTooManyRows: 'Send at most 10,000 rows at a time',
  pushRow: 'A row must be an object with contract, line, date or month, and impressions',
} as const;
