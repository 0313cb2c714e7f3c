/** receivables: the words and constants the Receivables screen shows (no zod here; ./receivables has the schemas). */
import type { DunningStage } from './invoice-vocabulary';

/**
 * Aging buckets of what is still due, by days past the due date on the business day: `current` is not yet
 * due (due today or later), then 1-30, 31-60, 61-90 and more than 90 days past due.
 */
export const AGING_BUCKETS = ['current', '1-30', '31-60', '61-90', '90+'] as const;
export type AgingBucket = (typeof AGING_BUCKETS)[number];

export const AGING_BUCKET_LABELS: Record<AgingBucket, string> = {
  current: 'Current',
  '1-30': '1–30 days',
  '31-60': '31–60 days',
  '61-90': '61–90 days',
  '90+': '90+ days',
};

/** The list's orders: the largest open balance first, or the oldest unpaid due date first. */
export const RECEIVABLES_SORTS = ['balance', 'oldest'] as const;
export type ReceivablesSort = (typeof RECEIVABLES_SORTS)[number];

export const RECEIVABLES_SORT_LABELS: Record<ReceivablesSort, string> = {
  balance: 'Largest balance',
  oldest: 'Oldest due date',
};

/** One amount per aging bucket, in dollars. */
export type AgingAmounts = Record<AgingBucket, number>;

/**
 * GET /api/receivables: one customer with an open balance or a credit balance. Amounts in dollars: the open
 * balance is the amount due over its pending and failed invoices (shared/invoice-amounts.ts amountDueCents).
 */
export type ReceivableRow = {
  customerId: string;
  customerName: string;
  company: string | null;
  openBalance: number;
  /** The part of the open balance past its due date (every bucket but `current`). */
  overdue: number;
  aging: AgingAmounts;
  openInvoices: number;
  overdueInvoices: number;
  /** The earliest due date among the invoices still owing, and how many days it is past (0 when not yet due). */
  oldestDueDate: string | null;
  daysPastDue: number;
  /** The furthest dunning step among its overdue invoices; null when nothing is overdue. */
  dunningStage: DunningStage | null;
  creditBalance: number;
  /** The last payment received (not one made from the credit balance): its business day and amount. */
  lastPaymentDate: string | null;
  lastPaymentAmount: number | null;
};

/** GET /api/receivables/summary: the totals of the customers the filters select. */
export type ReceivablesSummary = {
  customers: number;
  openBalance: number;
  overdue: number;
  aging: AgingAmounts;
  creditBalance: number;
};

/** GET /api/receivables/outlook: the cash figures of finance's dashboard. */
export type ReceivablesOutlook = {
  openBalance: number;
  overdue: number;
  /**
   * Cash received this calendar month (UTC, the reports' months): payments received less refunds and credit
   * balances paid back; a credit balance applied is not cash. The Admin Dashboard's Monthly Revenue (decision 048).
   */
  cashThisMonth: number;
  /** Open invoices due in the next 30 days plus the next scheduled charges of active contracts in that time. */
  expectedNext30Days: number;
  expectedFromInvoices: number;
  expectedFromSchedule: number;
  /** The business day the figures count from (YYYY-MM-DD). */
  asOf: string;
};

/** An invoice still owing money, on the customer page. */
export type OpenInvoice = {
  id: string;
  number: string;
  contractId: string;
  dueDate: string;
  total: number;
  amountDue: number;
  status: string;
  overdue: boolean;
  daysPastDue: number;
};

/** GET /api/receivables/customers/{id}: a customer's balance, credit and open invoices (oldest due first). */
export type CustomerReceivable = {
  customerId: string;
  openBalance: number;
  overdue: number;
  creditBalance: number;
  lastPaymentDate: string | null;
  lastPaymentAmount: number | null;
  openInvoiceCount: number;
  /** The first OPEN_INVOICES_SHOWN of them. */
  openInvoices: OpenInvoice[];
};

export const OPEN_INVOICES_SHOWN = 50;
