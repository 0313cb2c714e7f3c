import { businessToday } from '../lib/business-day';

/**
 * Calendar days relative to the day a test runs, for tests that go through "today" in the app (a checkout, a
 * status change, the billing run without `asOf`): their expectations are computed from these, so they hold on
 * any day. Plain UTC date arithmetic, written apart from the billing engine's calendar (shared/billing.ts), so
 * that it can serve as an oracle. Tests run with BUSINESS_TIMEZONE unset: the business's day is the UTC day.
 */

const day = (date: Date) => date.toISOString().slice(0, 10);
const utc = (text: string) => new Date(`${text}T00:00:00Z`);

/** The business's today, read once per call (YYYY-MM-DD). */
export const today = (): string => businessToday();

/** The first day of the month `offset` months from this one (0: this month's first day). */
export function monthStartFromToday(offset: number): string {
  const now = utc(today());
  return day(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1)));
}

/** A calendar day plus `days` days. */
export function plusDays(date: string, days: number): string {
  const d = utc(date);
  d.setUTCDate(d.getUTCDate() + days);
  return day(d);
}

/** Today plus `days` days. */
export const daysFromToday = (days: number): string => plusDays(today(), days);

/** The first days of the months from `from` (a first day) to the month of `to`, both included. */
export function monthStartsThrough(from: string, to: string): string[] {
  const starts: string[] = [];
  for (let d = utc(from); day(d) <= to; d = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1))) {
    starts.push(day(d));
  }
  return starts;
}

/** The first leap year on or after `year` (the Gregorian rule, written out). */
export function leapYearFrom(year: number): number {
  const leap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  let y = year;
  while (!leap(y)) y++;
  return y;
}

/** Day `day` (1-28) of the month `months` months from this one. */
export const dayInMonthsFromToday = (months: number, day: number): string =>
  plusDays(monthStartFromToday(months), day - 1);
