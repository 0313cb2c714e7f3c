import { plainAmount } from '@shared/money';
import { formatDate, formatMoney } from '@/lib/format';

/** "Oct 3 – Nov 2, 2026" for a billing period ("Dec 15, 2026 – Jan 14, 2027" across a year). */
export function periodLabel(start: string, end: string): string {
  if (start.slice(0, 4) !== end.slice(0, 4)) return `${formatDate(start)} – ${formatDate(end)}`;
  const short = new Date(`${start}T00:00:00`).toLocaleDateString('en-US', { month: 'short', day: 'numeric' });
  return `${short} – ${formatDate(end)}`;
}

/** "Oct 2026": the month a period starts in. */
export function monthLabel(date: string): string {
  const d = new Date(`${date}T00:00:00`);
  return Number.isNaN(d.getTime()) ? date : d.toLocaleDateString('en-US', { month: 'short', year: 'numeric' });
}

/** Today's date as YYYY-MM-DD in the user's time zone (the payment date's default and maximum). */
export function localToday(): string {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}

/** An amount as the input field holds it: 1250.5 -> "1250.50". */
export function amountText(amount: number): string {
  return plainAmount(amount);
}

export { formatDate, formatMoney };
