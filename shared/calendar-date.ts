/** True for a real calendar day written YYYY-MM-DD (2026-02-30 is not one). No zod: the client's first loads use it. */
export function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

// Calendar days as whole numbers (days since 1970-01-01, proleptic Gregorian, as PostgreSQL's `date` and the
// JavaScript Date count) with integer arithmetic rather than Date objects: the billing engine steps through
// every period of a page of contracts and every day of a season, where parsing and formatting through Date was
// most of the time (docs/decisions/047-engine-hot-path.md).

const digits = (text: string, from: number, length: number) => {
  let value = 0;
  for (let i = from; i < from + length; i++) value = value * 10 + (text.charCodeAt(i) - 48);
  return value;
};

/** The number of a calendar day (YYYY-MM-DD, or the day of a longer ISO text): days since 1970-01-01. */
export function dayNumber(date: string): number {
  return daysFromCivil(digits(date, 0, 4), digits(date, 5, 2), digits(date, 8, 2));
}

/** A calendar day's year x 12 + month (1-12), read in place: months between two days by subtraction. */
export function monthNumber(date: string): number {
  return digits(date, 0, 4) * 12 + digits(date, 5, 2);
}

/** Days since 1970-01-01 of a year, month (1-12) and day (H. Hinnant's days_from_civil). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/** The calendar day (YYYY-MM-DD) of a day number (civil_from_days). */
export function dayFromNumber(number: number): string {
  const z = number + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const mp = Math.floor((5 * dayOfYear + 2) / 153);
  const month = mp < 10 ? mp + 3 : mp - 9;
  return calendarDay(
    yearOfEra + era * 400 + (month <= 2 ? 1 : 0),
    month,
    dayOfYear - Math.floor((153 * mp + 2) / 5) + 1,
  );
}

/** YYYY-MM-DD of a year, month (1-12) and day. */
export function calendarDay(year: number, month: number, day: number): string {
  return `${String(year).padStart(4, '0')}-${month < 10 ? '0' : ''}${month}-${day < 10 ? '0' : ''}${day}`;
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The days of a month (1-12) of a year, in the Gregorian calendar. */
export function daysInMonth(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month === 2 && leap ? 29 : MONTH_DAYS[month - 1];
}
