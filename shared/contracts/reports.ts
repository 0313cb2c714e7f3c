import { z } from 'zod';
import type { SellThroughRow } from './inventory';
import type { DunningStage } from './invoice-vocabulary';
import type { RenewalRate } from './renewal-vocabulary';
import { type CONTRACT_STATUSES_FOR_REPORTS, REPORT_RANGES, type ReportRange } from './report-vocabulary';

export * from './report-vocabulary';

export const reportQuerySchema = z.object({
  range: z
    .enum(REPORT_RANGES, { message: `range must be one of ${REPORT_RANGES.join(', ')}` })
    .default('current_month'),
});
export type ReportQuery = z.infer<typeof reportQuerySchema>;

/**
 * The first and last calendar month of a range (whole months, UTC), from today's date:
 * current_month this month; last_month the month before; last_3_months and last_6_months this month and
 * the 2 or 5 before it; current_year January to this month. `from`/`to` are the first and last day.
 */
export function reportRangeDates(range: ReportRange, today: Date): { from: string; to: string; months: string[] } {
  const year = today.getUTCFullYear();
  const month = today.getUTCMonth();
  const [first, last] = (
    {
      current_month: [month, month],
      last_month: [month - 1, month - 1],
      last_3_months: [month - 2, month],
      last_6_months: [month - 5, month],
      current_year: [0, month],
    } as const
  )[range];
  const day = (m: number, d: number) => new Date(Date.UTC(year, m, d)).toISOString().slice(0, 10);
  const months: string[] = [];
  for (let m = first; m <= last; m++) months.push(day(m, 1).slice(0, 7));
  return { from: day(first, 1), to: day(last + 1, 0), months };
}

export type ReportActivity = {
  id: number;
  action: string;
  entity: string;
  entityId: string;
  actorName: string | null;
  /** The record the event is about, by name ("Acme Corp", "INV-2026-000012"). */
  label: string | null;
  /** The event in one sentence, as the audit trail shows it ("Invoice INV-2026-000012 issued: $1,480.00"). */
  summary: string;
  /** The record's screen, when it has one. */
  link: string | null;
  createdAt: string;
};

/**
 * One agency's figures over the range (AgencyFigures.byAgency): the non-void invoices billed to it (for any of
 * its advertisers) issued in the range.
 */
export type AgencyRevenueRow = {
  agencyId: string;
  name: string;
  /** The advertisers (the invoices' customers) it was billed for. */
  advertisers: number;
  invoices: number;
  gross: number;
  commission: number;
  net: number;
};

/**
 * Agency billing over the range (product.md section 20, decision 060 "Reports"), on the invoices billed to an
 * agency (`agency_billing_mode` net or gross) that are not void and were issued in the range, before tax:
 * - gross: the sum of their subtotals (the gross lines: subtotal_cents never has the commission taken off);
 * - commission: the sum of their agency commissions (`agency_commission_cents`), billed net (deducted on the
 *   invoice) or gross (owed to the agency once the invoice is paid);
 * - net: gross - commission, the revenue the business keeps (a rep's commission is on it, less setup fees).
 * A net-billed invoice's billed total (quickStats.billed) is its net plus tax; a gross-billed one's, its gross
 * plus tax. Invoices not billed to an agency are in none of these figures. All zero when there was no agency
 * billing in the range. A rep's report: the invoices of their own contracts.
 */
export type AgencyFigures = {
  invoices: number;
  gross: number;
  commission: number;
  net: number;
  /** Of the commission: deducted on net-billed invoices, and owed to agencies on gross-billed ones. */
  deductedCommission: number;
  owedCommission: number;
  /** How many agencies were billed in the range (byAgency lists the best of them). */
  agencyCount: number;
  /** Revenue by agency: the top agencies by net, then by name (at most 10). */
  byAgency: AgencyRevenueRow[];
};

/** GET /api/reports. Amounts are dollars; counts are whole numbers. */
export type Report = {
  range: ReportRange;
  from: string;
  to: string;
  /** all: every contract; own: a sales rep's own contracts (and payouts). */
  scope: 'all' | 'own';
  /**
   * Cash received (decision 048): payments received by card, autopay, manual and bank payments, by payment date,
   * less refunds and credit balances paid back; a credit balance or credit note applied is never cash.
   */
  revenue: { total: number; byMonth: { month: string; amount: number }[] };
  /** Monthly recurring amount of the active contracts (now). */
  mrr: number;
  /** Contracts by status (now). */
  statusCounts: Record<(typeof CONTRACT_STATUSES_FOR_REPORTS)[number], number>;
  /** Product lines of non-void invoices issued in the range, best first (at most 5). */
  topProducts: { productId: string; name: string; revenue: number }[];
  alerts: {
    /** Unpaid (pending or failed) invoices due before today: the invoice list's overdue filter. */
    overdueInvoices: number;
    /** The overdue invoices by how far dunning has chased them (they add up to overdueInvoices). */
    overdueByStage: Record<DunningStage, number>;
    /** Contracts paused for non-payment (now). */
    contractsPausedForNonPayment: number;
    /** Active or paused contracts whose auto-stop date is within the next 30 days. */
    expiringContracts: number;
    /** Payout requests waiting for review. */
    payoutsAwaitingReview: number;
  };
  quickStats: {
    /** Contracts created in the range. */
    newContracts: number;
    /** Mean total value of the contracts created in the range (0 when none). */
    averageContractValue: number;
    /** Non-void invoices issued in the range and their total. */
    invoicesIssued: number;
    billed: number;
    /**
     * Of the invoices that fell due in the range up to today (non-void, due date within the range and on or
     * before today), the share of their amount (net of credit notes) that is paid (net of refunds), a percent
     * from 0 to 100 with one decimal; null when none fell due (decision 049).
     */
    collectionRate: number | null;
    /** The invoices the collection rate counts: how many fell due, their amount and what of it is collected. */
    dueInvoices: number;
    dueTotal: number;
    dueCollected: number;
    /** Still owed on pending and failed invoices (now). */
    openBalance: number;
    /** Customers with at least one active contract (now). */
    activeCustomers: number;
  };
  recentActivity: ReportActivity[];
  /**
   * Proof of performance across CPM lines (product.md section 12): delivery recorded for the periods that
   * start in the range, and what under-delivery was settled with in the range.
   */
  delivery: {
    /** Billed CPM periods starting in the range with delivery recorded. */
    periodsRecorded: number;
    bookedImpressions: number;
    deliveredImpressions: number;
    /** Delivered as a percentage of booked (over-delivery counts up to booked), one decimal; null when none. */
    deliveryRate: number | null;
    /** Under-delivery credit notes issued in the range: how many and their total (dollars). */
    creditsIssued: number;
    creditsAmount: number;
    /** Makegood impressions granted by periods settled in the range. */
    makegoodImpressions: number;
  };
  /**
   * Sell-through of each inventory product over the range's days (product.md section 13): unit-days booked
   * (active and paused contracts) and held (sent, hold running) against capacity x days. Every contract,
   * whatever the scope: inventory is one stock the whole team sells from.
   */
  inventory: SellThroughRow[];
  /**
   * Renewal rate (product.md section 15) of the contracts whose term ended in the range and that were running
   * then: renewed count over ended count and renewed value over ended value (term values), by rep for
   * managers and admins.
   */
  renewals: RenewalRate;
  /**
   * Autopay over the range (product.md section 18): the share of invoices paid by autopay, and what retries
   * recovered. Scoped as the other figures (a rep: their own contracts' invoices).
   */
  autopay: {
    /** Invoices paid in the range (status paid, paid_at within it). */
    paidInvoices: number;
    /** Of them, those with a succeeded autopay payment (card on file or bank debit). */
    autopayInvoices: number;
    /** autopayInvoices as a percentage of paidInvoices, one decimal (integer arithmetic); null when none was paid. */
    autopayShare: number | null;
    /** What those autopay payments collected (dollars). */
    autopayAmount: number;
    /** Invoices that a retry (attempt 2 or later) charged successfully in the range, after a first attempt failed. */
    recoveredInvoices: number;
    /** What those retries collected (dollars). */
    recoveredAmount: number;
  };
  /** Gross revenue, agency commission and net revenue of agency billing, and revenue by agency (AgencyFigures). */
  agencies: AgencyFigures;
};
