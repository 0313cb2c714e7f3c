import { calendarDay, dayNumber, daysInMonth } from './calendar-date';
import { allocateCents, type Cents } from './money';

/**
 * How an amount lands over the months of a flight (product.md section 19: the forecast spreads a deal's money
 * over its flight by days): each month gets the share of the flight's days that fall in it, exactly, the cents
 * left over going to the months with the largest remainders (shared/money allocateCents), so the shares add up
 * to the amount. A flight of one day, or a deal with only a close date, lands in that day's month.
 */
export function spreadOverMonths(cents: Cents, start: string, end: string): Map<string, Cents> {
  const last = end < start ? start : end;
  const months: { key: string; days: number }[] = [];
  let year = Number(start.slice(0, 4));
  let month = Number(start.slice(5, 7));
  const endKey = last.slice(0, 7);
  for (;;) {
    const key = `${year}-${String(month).padStart(2, '0')}`;
    const first = calendarDay(year, month, 1);
    const final = calendarDay(year, month, daysInMonth(year, month));
    // Day numbers, not the YYYY-MM-DD texts, so that the earlier and later of two days are plain min and max.
    const from = Math.max(dayNumber(first), dayNumber(start));
    const to = Math.min(dayNumber(final), dayNumber(last));
    months.push({ key, days: to - from + 1 });
    if (key === endKey) break;
    month++;
    if (month > 12) {
      month = 1;
      year++;
    }
  }
  const shares = allocateCents(
    cents,
    months.map((m) => m.days),
  );
  return new Map(months.map((m, i) => [m.key, shares[i]]));
}

/** The `count` months from `first` (YYYY-MM), in order. */
export function monthsFrom(first: string, count: number): string[] {
  const start = Number(first.slice(0, 4)) * 12 + Number(first.slice(5, 7)) - 1;
  return Array.from({ length: count }, (_, i) => {
    const n = start + i;
    return `${Math.floor(n / 12)}-${String((n % 12) + 1).padStart(2, '0')}`;
  });
}
