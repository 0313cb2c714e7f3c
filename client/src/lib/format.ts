import { formatAmount } from '@shared/money';

/** Money from the API (dollars) as "$1,234.50": the one money format of the client. */
export const formatMoney = formatAmount;

/** "Nov 21, 2026" for an ISO date or timestamp; a plain YYYY-MM-DD is read as that calendar day. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '—';
  const date = /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T00:00:00`) : new Date(value);
  if (Number.isNaN(date.getTime())) return '—';
  return date.toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
}

const relativeTime = new Intl.RelativeTimeFormat('en-US', { numeric: 'auto' });
const RELATIVE_STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
];

/**
 * How long ago (or until) an instant is, in the largest whole unit of days, hours and minutes: "just now",
 * "5 minutes ago", "3 hours ago", "yesterday", "3 days ago"; "in 5 minutes", "tomorrow" ahead.
 */
export function formatTimeAgo(iso: string, now = Date.now()): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  for (const [unit, size] of RELATIVE_STEPS) {
    if (Math.abs(seconds) >= size) return relativeTime.format(Math.round(seconds / size), unit);
  }
  return 'just now';
}

/** Today's date as YYYY-MM-DD in the user's time zone. */
export function todayIso(): string {
  const now = new Date();
  const month = String(now.getMonth() + 1).padStart(2, '0');
  const day = String(now.getDate()).padStart(2, '0');
  return `${now.getFullYear()}-${month}-${day}`;
}

export function initials(firstName?: string, lastName?: string): string {
  return `${firstName?.[0] ?? ''}${lastName?.[0] ?? ''}`.toUpperCase() || '?';
}

/**
 * "1 invoice", "12 invoices"; a total that is only a lower bound (the server stopped counting, see
 * X-Total-Count-Lower-Bound) reads "1,000+ invoices".
 */
export function countLabel(total: number, lowerBound: boolean, singular: string, plural: string): string {
  if (lowerBound) return `${total.toLocaleString('en-US')}+ ${plural}`;
  return `${total} ${total === 1 ? singular : plural}`;
}
