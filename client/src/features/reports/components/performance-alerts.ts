import { DUNNING_STAGES, type DunningStage } from '@shared/contracts/invoice-vocabulary';
import { COLLECTION_ALERT_MIN_INVOICES } from '@shared/contracts/report-vocabulary';
import type { Report } from '@shared/contracts/reports';

export type PerformanceAlert = { tone: 'warning' | 'info'; text: string };

/** Below this share of billed revenue collected, the collection rate is flagged. */
export const COLLECTION_RATE_TARGET = 90;
/** A month-over-month change of revenue at least this large (percent) is worth a line. */
export const REVENUE_SWING = 10;

const MONTH = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
const monthName = (yyyyMm: string) => MONTH.format(new Date(`${yyyyMm}-01T00:00:00Z`));
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** How many overdue invoices stand at a dunning stage, in the overdue alert's breakdown. */
const STAGE_PHRASES: Record<DunningStage, (n: number) => string> = {
  overdue: (n) => `${n} not reminded yet`,
  first_reminder: (n) => `${n} after the first reminder`,
  second_reminder: (n) => `${n} after the second reminder`,
  contract_paused: (n) => plural(n, 'on a paused contract', 'on paused contracts'),
};

/** "3 invoices are overdue: 1 not reminded yet, 2 after the first reminder." (the stages that have any). */
function overdueText(total: number, byStage: Record<DunningStage, number>): string {
  const stages = DUNNING_STAGES.filter((stage) => byStage[stage] > 0).map((stage) =>
    STAGE_PHRASES[stage](byStage[stage]),
  );
  const head = `${plural(total, 'invoice is', 'invoices are')} overdue`;
  return stages.length ? `${head}: ${stages.join(', ')}.` : `${head}.`;
}

/**
 * The Reports screen's performance alerts for manager-level roles, read from the report's own figures:
 * collection below target (once at least COLLECTION_ALERT_MIN_INVOICES invoices fell due in the range), revenue swings between the last two complete months of the range (the current
 * month is still running, so it is not compared), overdue invoices by dunning stage, contracts paused for
 * non-payment, contracts running out, payouts waiting.
 */
export function performanceAlerts(report: Report, today = new Date()): PerformanceAlert[] {
  const alerts: PerformanceAlert[] = [];
  const rate = report.quickStats.collectionRate;
  if (
    rate !== null &&
    rate < COLLECTION_RATE_TARGET &&
    report.quickStats.dueInvoices >= COLLECTION_ALERT_MIN_INVOICES
  ) {
    alerts.push({
      tone: 'warning',
      text: `Collection rate is ${rate.toFixed(1)}% of what fell due (target ${COLLECTION_RATE_TARGET}%): follow up on unpaid invoices.`,
    });
  }
  const current = today.toISOString().slice(0, 7);
  const complete = report.revenue.byMonth.filter((m) => m.month < current);
  if (complete.length >= 2) {
    const [before, last] = complete.slice(-2);
    if (before.amount > 0) {
      const change = Math.round(((last.amount - before.amount) / before.amount) * 100);
      if (change <= -REVENUE_SWING) {
        alerts.push({
          tone: 'warning',
          text: `Revenue in ${monthName(last.month)} was ${-change}% below ${monthName(before.month)}.`,
        });
      } else if (change >= REVENUE_SWING) {
        alerts.push({
          tone: 'info',
          text: `Revenue in ${monthName(last.month)} was ${change}% above ${monthName(before.month)}.`,
        });
      }
    }
  }
  const { overdueInvoices, overdueByStage, contractsPausedForNonPayment, expiringContracts, payoutsAwaitingReview } =
    report.alerts;
  if (overdueInvoices > 0) {
    alerts.push({ tone: 'warning', text: overdueText(overdueInvoices, overdueByStage) });
  }
  if (contractsPausedForNonPayment > 0) {
    alerts.push({
      tone: 'warning',
      text: `${plural(contractsPausedForNonPayment, 'contract is', 'contracts are')} paused for non-payment.`,
    });
  }
  if (expiringContracts > 0) {
    alerts.push({
      tone: 'info',
      text: `${plural(expiringContracts, 'contract ends', 'contracts end')} within 30 days: time for renewal conversations.`,
    });
  }
  if (report.statusCounts.sent > 0) {
    alerts.push({
      tone: 'info',
      text: `${plural(report.statusCounts.sent, 'contract is', 'contracts are')} sent and waiting for the customer.`,
    });
  }
  if (payoutsAwaitingReview > 0) {
    alerts.push({
      tone: 'info',
      text: `${plural(payoutsAwaitingReview, 'payout request is', 'payout requests are')} waiting for review.`,
    });
  }
  return alerts;
}
