import type { RenewalRateFigures } from '@shared/contracts/renewal-vocabulary';
import { CONTRACT_STATUSES_FOR_REPORTS, REPORT_RANGE_LABELS, type Report } from '@shared/contracts/reports';
import { plainAmount } from '@shared/money';
import { csvCell } from '../commissions/commissions.csv';

const title = (status: string) => status.charAt(0).toUpperCase() + status.slice(1);

/**
 * The report as CSV (RFC 4180, CRLF line ends): one line per figure the screen shows, as
 * Section, Item, Value. Amounts are dollars with two decimals; text cells are guarded against formulas.
 */
export function reportCsv(report: Report): string {
  const rows: [string, string, string][] = [
    ['Report', 'Range', REPORT_RANGE_LABELS[report.range]],
    ['Report', 'From', report.from],
    ['Report', 'To', report.to],
    ['Report', 'Scope', report.scope === 'own' ? 'My contracts' : 'All contracts'],
    ['Revenue', 'Total', plainAmount(report.revenue.total)],
    ...report.revenue.byMonth.map((m): [string, string, string] => [
      'Revenue by month',
      m.month,
      plainAmount(m.amount),
    ]),
    ['Monthly recurring revenue', 'MRR', plainAmount(report.mrr)],
    ...CONTRACT_STATUSES_FOR_REPORTS.map((s): [string, string, string] => [
      'Contract status',
      title(s),
      String(report.statusCounts[s]),
    ]),
    ...report.topProducts.map((p): [string, string, string] => ['Top products', p.name, plainAmount(p.revenue)]),
    ['Alerts', 'Overdue invoices', String(report.alerts.overdueInvoices)],
    ['Alerts', 'Contracts expiring within 30 days', String(report.alerts.expiringContracts)],
    ['Alerts', 'Payouts awaiting review', String(report.alerts.payoutsAwaitingReview)],
    ['Quick stats', 'New contracts', String(report.quickStats.newContracts)],
    ['Quick stats', 'Average contract value', plainAmount(report.quickStats.averageContractValue)],
    ['Quick stats', 'Invoices issued', String(report.quickStats.invoicesIssued)],
    ['Quick stats', 'Billed', plainAmount(report.quickStats.billed)],
    ['Quick stats', 'Collection rate (%)', percentText(report.quickStats.collectionRate)],
    ['Quick stats', 'Invoices fallen due', String(report.quickStats.dueInvoices)],
    ['Quick stats', 'Fallen due', plainAmount(report.quickStats.dueTotal)],
    ['Quick stats', 'Collected of what fell due', plainAmount(report.quickStats.dueCollected)],
    ['Quick stats', 'Open balance', plainAmount(report.quickStats.openBalance)],
    ['Quick stats', 'Active customers', String(report.quickStats.activeCustomers)],
    ['Delivery', 'Delivery rate (%)', percentText(report.delivery.deliveryRate)],
    ['Delivery', 'Impressions booked', String(report.delivery.bookedImpressions)],
    ['Delivery', 'Impressions delivered', String(report.delivery.deliveredImpressions)],
    ['Delivery', 'Periods recorded', String(report.delivery.periodsRecorded)],
    ['Delivery', 'Under-delivery credits', String(report.delivery.creditsIssued)],
    ['Delivery', 'Under-delivery credits amount', plainAmount(report.delivery.creditsAmount)],
    ['Delivery', 'Makegood impressions', String(report.delivery.makegoodImpressions)],
    ...report.inventory.flatMap((p): [string, string, string][] => [
      ['Inventory sell-through', `${p.productName}: sell-through (%)`, p.sellThrough.toFixed(1)],
      ['Inventory sell-through', `${p.productName}: booked slot-days`, String(p.bookedUnits)],
      ['Inventory sell-through', `${p.productName}: held slot-days`, String(p.heldUnits)],
      ['Inventory sell-through', `${p.productName}: capacity slot-days`, String(p.capacityUnits)],
    ]),
    ['Autopay', 'Invoices paid', String(report.autopay.paidInvoices)],
    ['Autopay', 'Paid by autopay', String(report.autopay.autopayInvoices)],
    ['Autopay', 'Paid by autopay (%)', percentText(report.autopay.autopayShare)],
    ['Autopay', 'Collected by autopay', plainAmount(report.autopay.autopayAmount)],
    ['Autopay', 'Recovered by retries', String(report.autopay.recoveredInvoices)],
    ['Autopay', 'Recovered by retries amount', plainAmount(report.autopay.recoveredAmount)],
    ...agencyRows(report.agencies),
    ...renewalRows('Renewals', '', report.renewals),
    ...report.renewals.byRep.flatMap((r) => renewalRows('Renewals by rep', `${r.salesRepName}: `, r)),
    ...report.recentActivity.map((e): [string, string, string] => [
      'Recent activity',
      e.createdAt,
      [e.summary, e.actorName ? `by ${e.actorName}` : null].filter(Boolean).join(' · '),
    ]),
  ];
  const lines = [['Section', 'Item', 'Value'], ...rows].map((row) => row.map(csvCell).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** The renewal rate's figures (product.md section 15), each item prefixed (a rep's name in the by-rep rows). */
function renewalRows(section: string, prefix: string, r: RenewalRateFigures): [string, string, string][] {
  return [
    [section, `${prefix}Contracts ended`, String(r.endedCount)],
    [section, `${prefix}Contracts renewed`, String(r.renewedCount)],
    [section, `${prefix}Renewal rate by count (%)`, percentText(r.countRate)],
    [section, `${prefix}Value ended`, plainAmount(r.endedValue)],
    [section, `${prefix}Value renewed`, plainAmount(r.renewedValue)],
    [section, `${prefix}Renewal rate by value (%)`, percentText(r.valueRate)],
  ];
}

/**
 * Agency billing (decision 060 "Reports"): gross, commission and net of the invoices billed to agencies, and each
 * agency listed by net; no rows when there was no agency billing in the range, as the screen shows none.
 */
function agencyRows(agencies: Report['agencies']): [string, string, string][] {
  if (agencies.invoices === 0) return [];
  return [
    ['Agency commission', 'Invoices billed to agencies', String(agencies.invoices)],
    ['Agency commission', 'Gross revenue', plainAmount(agencies.gross)],
    ['Agency commission', 'Agency commission', plainAmount(agencies.commission)],
    ['Agency commission', 'Net revenue', plainAmount(agencies.net)],
    ['Agency commission', 'Deducted on net-billed invoices', plainAmount(agencies.deductedCommission)],
    ['Agency commission', 'Owed on gross-billed invoices', plainAmount(agencies.owedCommission)],
    ...agencies.byAgency.flatMap((a): [string, string, string][] => [
      ['Revenue by agency', `${a.name}: advertisers`, String(a.advertisers)],
      ['Revenue by agency', `${a.name}: invoices`, String(a.invoices)],
      ['Revenue by agency', `${a.name}: gross`, plainAmount(a.gross)],
      ['Revenue by agency', `${a.name}: commission`, plainAmount(a.commission)],
      ['Revenue by agency', `${a.name}: net`, plainAmount(a.net)],
    ]),
  ];
}

/** A percentage with one decimal, or an empty cell when there is none. */
const percentText = (percent: number | null) => (percent === null ? '' : percent.toFixed(1));
