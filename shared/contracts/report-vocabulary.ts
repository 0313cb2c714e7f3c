/** reports: the words and constants screens show (no zod here, so a screen can import them without the schemas). */
/** The Reports screen's time ranges, in the select's order. Months are calendar months in UTC. */
export const REPORT_RANGES = ['current_month', 'last_month', 'last_3_months', 'last_6_months', 'current_year'] as const;
export type ReportRange = (typeof REPORT_RANGES)[number];

export const REPORT_RANGE_LABELS: Record<ReportRange, string> = {
  current_month: 'Current Month',
  last_month: 'Last Month',
  last_3_months: 'Last 3 Months',
  last_6_months: 'Last 6 Months',
  current_year: 'Current Year',
};

export const CONTRACT_STATUSES_FOR_REPORTS = ['draft', 'sent', 'active', 'paused', 'canceled', 'completed'] as const;

/**
 * The collection alert of the Reports screen needs at least this many invoices fallen due in the range
 * (decision 049): a rate over one or two invoices says little.
 */
export const COLLECTION_ALERT_MIN_INVOICES = 5;
