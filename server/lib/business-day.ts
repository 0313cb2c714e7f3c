import { calendarDayIn } from '@shared/billing';

/**
 * "Today" for the business: the calendar day in BUSINESS_TIMEZONE (default UTC). Billing periods, due dates,
 * the overdue rule, dunning, inventory and delivery all count days from it, and the background jobs' cron
 * schedules are read in the same zone (server.ts). The zone is set once, when the app is built from its
 * configuration (app.ts); it is one value per process, like the configuration it comes from.
 */
let businessTimeZone = 'UTC';

export function setBusinessTimeZone(timeZone: string): void {
  businessTimeZone = timeZone;
}

export function getBusinessTimeZone(): string {
  return businessTimeZone;
}

/** The business's calendar day at `now` (YYYY-MM-DD). */
export function businessToday(now: Date = new Date()): string {
  return calendarDayIn(businessTimeZone, now);
}
