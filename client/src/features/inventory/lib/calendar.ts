import type { AvailabilityDay } from '@shared/contracts/inventory-vocabulary';

/**
 * How much of a day is taken ((booked + held + held for renewal) / capacity): nothing, part of it, or all of
 * it. The calendar colours a day by it; units held (a sent contract) or held for renewal show apart.
 */
export type SellThrough = 'free' | 'partly' | 'sold_out';

export function sellThrough(
  day: Pick<AvailabilityDay, 'capacity' | 'booked' | 'held' | 'heldForRenewal'>,
): SellThrough {
  const taken = day.booked + day.held + day.heldForRenewal;
  if (taken <= 0) return 'free';
  if (day.capacity <= 0 || taken >= day.capacity) return 'sold_out';
  return 'partly';
}

/**
 * "2026-12-20: 1 of 3 available, 1 booked, 1 held" (", 1 held for renewal" when some are): a day cell's name,
 * so colour is never the only cue.
 */
export function dayLabel(day: AvailabilityDay): string {
  const renewal = day.heldForRenewal > 0 ? `, ${day.heldForRenewal} held for renewal` : '';
  return `${day.date}: ${day.available} of ${day.capacity} available, ${day.booked} booked, ${day.held} held${renewal}`;
}

/** "3 slots a day", "1 slot a day". */
export const capacityText = (capacity: number) =>
  `${capacity.toLocaleString('en-US')} ${capacity === 1 ? 'slot' : 'slots'} a day`;

/** A day of a month's grid: its figures when the range covers it, else null (shown faded, not selectable). */
export type CalendarCell = { date: string; day: number; figures: AvailabilityDay | null };

export type CalendarMonth = {
  /** YYYY-MM. */
  key: string;
  /** "December 2026". */
  label: string;
  /** Empty cells before the 1st, in a week that starts on Monday. */
  leadingBlanks: number;
  cells: CalendarCell[];
};

const utc = (date: string) => {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d));
};
const iso = (date: Date) => date.toISOString().slice(0, 10);

/** Monday 0 ... Sunday 6. */
export const weekdayIndex = (date: string) => (utc(date).getUTCDay() + 6) % 7;

export const WEEKDAYS = [
  { short: 'M', long: 'Monday' },
  { short: 'T', long: 'Tuesday' },
  { short: 'W', long: 'Wednesday' },
  { short: 'T', long: 'Thursday' },
  { short: 'F', long: 'Friday' },
  { short: 'S', long: 'Saturday' },
  { short: 'S', long: 'Sunday' },
] as const;

/**
 * The months the days fall in, each a whole month (Monday-first weeks) whose days outside the range have no
 * figures. The days come from the server in order; an empty list has no months.
 */
export function calendarMonths(days: AvailabilityDay[]): CalendarMonth[] {
  if (days.length === 0) return [];
  const byDate = new Map(days.map((day) => [day.date, day]));
  const first = utc(days[0].date);
  const last = utc(days[days.length - 1].date);
  const months: CalendarMonth[] = [];
  for (
    let month = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), 1));
    month <= last;
    month = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 1))
  ) {
    const length = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 0)).getUTCDate();
    const cells: CalendarCell[] = [];
    for (let day = 1; day <= length; day++) {
      const date = iso(new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth(), day)));
      cells.push({ date, day, figures: byDate.get(date) ?? null });
    }
    months.push({
      key: iso(month).slice(0, 7),
      label: month.toLocaleDateString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' }),
      leadingBlanks: weekdayIndex(iso(month)),
      cells,
    });
  }
  return months;
}

/** The day `days` after (or before) a YYYY-MM-DD day. */
export const shiftDate = (date: string, days: number) => {
  const next = utc(date);
  next.setUTCDate(next.getUTCDate() + days);
  return iso(next);
};

/** Days sold out (nothing left) in a product's range. */
export const soldOutDays = (days: AvailabilityDay[]) => days.filter((day) => sellThrough(day) === 'sold_out').length;
