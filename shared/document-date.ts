/**
 * How documents (PDFs and e-mails) write days and moments: one formatter for all of them. A module of its own,
 * without the calendar arithmetic of calendar-date.ts, so that the screens that show a document's words
 * (invoice-vocabulary.ts) load nothing more.
 */

const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * "Dec 15, 2026" for a YYYY-MM-DD day or the day of an ISO timestamp (its UTC day: pass the business's day of
 * a moment when that is the one meant).
 */
export function formatDocumentDate(value: string): string {
  return `${MONTH_NAMES[Number(value.slice(5, 7)) - 1]} ${Number(value.slice(8, 10))}, ${value.slice(0, 4)}`;
}

/** "Dec 15, 2026, 14:03:27 UTC": a moment on a record (the signing certificate), to the second, in UTC. */
export function formatDocumentInstant(value: string | Date): string {
  const iso = (typeof value === 'string' ? new Date(value) : value).toISOString();
  return `${formatDocumentDate(iso)}, ${iso.slice(11, 19)} UTC`;
}
