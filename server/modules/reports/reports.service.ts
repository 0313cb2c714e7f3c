import type { User } from '@shared/contracts/auth';
import { type Report, type ReportRange, reportRangeDates } from '@shared/contracts/reports';
import { centsToAmount, divideRound } from '@shared/money';
import { can } from '@shared/permissions';
import type { Db } from '../../db/client';
import { businessToday } from '../../lib/business-day';
import { recentActivity, recordLink } from '../audit/audit.service';
import { sellThrough } from '../inventory/inventory.service';
import * as repo from './reports.repo';

type Actor = Pick<User, 'id' | 'role'>;

const TOP_PRODUCTS = 5;
const RECENT_ACTIVITY = 8;

/** The report-compaction job (server/jobs.ts): folds the totals' delta rows; reports are exact with or without it. */
export function compactReportTotals(db: Db): Promise<number> {
  return repo.compactReportTotals(db);
}

/** report:read:any sees every contract; report:read:own (sales) only their own. */
export function reportScope(actor: Actor, mine = false): repo.ReportScope {
  return mine || !can(actor, 'report:read:any') ? { repId: actor.id } : {};
}

/** One report: each figure is one SQL aggregate, run side by side. */
export async function buildReport(db: Db, actor: Actor, range: ReportRange, now = new Date()): Promise<Report> {
  const scope = reportScope(actor);
  const { from, to } = reportRangeDates(range, now);
  const period = { from, to };
  // Overdue and expiring count from the business's day, as invoices and dunning do (months stay UTC).
  const today = businessToday(now);
  const [revenue, contracts, top, billed, open, delivery, activity, inventory] = await Promise.all([
    repo.selectRevenueByMonth(db, scope, period),
    repo.selectContractFigures(db, scope, period, today),
    repo.selectTopProducts(db, scope, period, TOP_PRODUCTS),
    repo.selectBilled(db, scope, period),
    repo.selectOpenItems(db, scope, today),
    repo.selectDeliveryFigures(db, scope, period),
    recentActivity(db, { repId: scope.repId, limit: RECENT_ACTIVITY }),
    sellThrough(db, from, to),
  ]);
  return {
    range,
    from,
    to,
    scope: scope.repId ? 'own' : 'all',
    revenue: {
      total: centsToAmount(revenue.totalCents),
      byMonth: revenue.byMonth.map((m) => ({ month: m.month, amount: centsToAmount(m.cents) })),
    },
    mrr: centsToAmount(contracts.mrrCents),
    statusCounts: contracts.statusCounts,
    topProducts: top.map((p) => ({ productId: p.productId, name: p.name, revenue: centsToAmount(p.cents) })),
    alerts: {
      overdueInvoices: open.overdueInvoices,
      overdueByStage: open.overdueByStage,
      contractsPausedForNonPayment: open.contractsPausedForNonPayment,
      expiringContracts: contracts.expiringContracts,
      payoutsAwaitingReview: open.payoutsAwaitingReview,
    },
    quickStats: {
      newContracts: contracts.newContracts,
      averageContractValue: centsToAmount(contracts.averageContractCents),
      invoicesIssued: billed.invoices,
      billed: centsToAmount(billed.cents),
      collectionRate: collectionRate(revenue.totalCents, billed.cents),
      openBalance: centsToAmount(open.openBalanceCents),
      activeCustomers: contracts.activeCustomers,
    },
    recentActivity: activity.map((event) => ({
      id: event.id,
      action: event.action,
      entity: event.entity,
      entityId: event.entityId,
      actorName: event.actorName,
      label: event.label,
      link: recordLink(event.entity, event.entityId, event.recordExists),
      createdAt: event.createdAt.toISOString(),
    })),
    delivery: {
      periodsRecorded: delivery.periodsRecorded,
      bookedImpressions: delivery.bookedImpressions,
      deliveredImpressions: delivery.deliveredImpressions,
      deliveryRate: deliveryRate(delivery.countedImpressions, delivery.bookedImpressions),
      creditsIssued: delivery.creditsIssued,
      creditsAmount: centsToAmount(delivery.creditsCents),
      makegoodImpressions: delivery.makegoodImpressions,
    },
    inventory,
  };
}

/** Cash received as a percentage of what was billed, one decimal (integer arithmetic); null when nothing was billed. */
export function collectionRate(receivedCents: number, billedCents: number): number | null {
  if (billedCents <= 0) return null;
  return divideRound(receivedCents * 1000, billedCents) / 10;
}

/**
 * Delivered (each period counted up to its booked volume) as a percentage of booked, one decimal (integer
 * arithmetic); null when nothing was booked.
 */
export function deliveryRate(countedImpressions: number, bookedImpressions: number): number | null {
  if (bookedImpressions <= 0) return null;
  return divideRound(countedImpressions * 1000, bookedImpressions) / 10;
}

/**
 * This calendar month's contract figures (the dashboard's contract cards: counts by status, MRR, new
 * contracts): the report's contracts query.
 */
export async function contractFiguresThisMonth(
  db: Db,
  scope: repo.ReportScope,
  now = new Date(),
): Promise<repo.ContractFigures> {
  const { from, to } = reportRangeDates('current_month', now);
  return repo.selectContractFigures(db, scope, { from, to }, businessToday(now));
}

/** Cash received this calendar month (the dashboard's Monthly Revenue): the report's revenue query. */
export async function cashReceivedThisMonth(db: Db, scope: repo.ReportScope, now = new Date()): Promise<number> {
  const { from, to } = reportRangeDates('current_month', now);
  const revenue = await repo.selectRevenueByMonth(db, scope, { from, to });
  return centsToAmount(revenue.totalCents);
}
