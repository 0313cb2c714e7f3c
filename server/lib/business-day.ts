import { calendarDayIn } from '@shared/billing';

/**
 * "Today" for the business: the calendar day in BUSINESS_TIMEZONE (default UTC). Billing periods, due dates,
 * the overdue rule (the invoice list's and the reports' alerts), dunning, inventory, delivery, the commissions
 * export and the audit trail's date filter all count days from it, and the background jobs' cron
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

/** The business's calendar day of a moment in the past, as its wall clocks showed it (a payment's, say). */
export function businessDayOf(moment: Date): string {
  return calendarDayIn(businessTimeZone, moment);
}
