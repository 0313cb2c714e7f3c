import type { User } from '@shared/contracts/auth';
import type { RenewalRate, RenewalRateFigures } from '@shared/contracts/renewal-vocabulary';
import { type AgencyFigures, type Report, type ReportRange, reportRangeDates } from '@shared/contracts/reports';
import { centsToAmount, divideRound } from '@shared/money';
import { can } from '@shared/permissions';
import type { Db } from '../../db/client';
import { businessToday } from '../../lib/business-day';
import { recentActivity, recordLink, summaryOf } from '../audit/audit.service';
import { previewContracts } from '../billing/billing.service';
import { sellThrough } from '../inventory/inventory.service';
import * as repo from './reports.repo';

type Actor = Pick<User, 'id' | 'role'>;

const TOP_PRODUCTS = 5;
const RECENT_ACTIVITY = 8;
/** Revenue by agency lists the best this many agencies by net. */
const TOP_AGENCIES = 10;

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
  // The collection rate: invoices that fell due in the range up to today (nothing yet when the range is to come).
  const through = today.localeCompare(to) < 0 ? today : to;
  const [revenue, contracts, top, billed, open, delivery, activity, inventory, renewals, due, autopay, agencies] =
    await Promise.all([
      repo.selectCashByMonth(db, scope, period),
      repo.selectContractFigures(db, scope, period, today),
      repo.selectTopProducts(db, scope, period, TOP_PRODUCTS),
      repo.selectBilled(db, scope, period),
      repo.selectOpenItems(db, scope, today),
      repo.selectDeliveryFigures(db, scope, period),
      recentActivity(db, { repId: scope.repId, limit: RECENT_ACTIVITY }),
      sellThrough(db, from, to),
      renewalRate(db, scope, period),
      repo.selectCollection(db, scope, { from, through }),
      repo.selectAutopayFigures(db, scope, period),
      repo.selectAgencyFigures(db, scope, period, TOP_AGENCIES),
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
      collectionRate: collectionRate(due.collectedCents, due.dueCents),
      dueInvoices: due.invoices,
      dueTotal: centsToAmount(due.dueCents),
      dueCollected: centsToAmount(due.collectedCents),
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
      summary: summaryOf(event),
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
    renewals,
    autopay: {
      paidInvoices: autopay.paidInvoices,
      autopayInvoices: autopay.autopayInvoices,
      autopayShare: percentOf(autopay.autopayInvoices, autopay.paidInvoices),
      autopayAmount: centsToAmount(autopay.autopayCents),
      recoveredInvoices: autopay.recoveredInvoices,
      recoveredAmount: centsToAmount(autopay.recoveredCents),
    },
    agencies: agencyFigures(agencies),
  };
}

/**
 * Agency billing in dollars (shared/contracts/reports.ts AgencyFigures): net is gross - commission, in cents,
 * for the totals and for each agency.
 */
function agencyFigures({ totals, byAgency }: Awaited<ReturnType<typeof repo.selectAgencyFigures>>): AgencyFigures {
  return {
    invoices: totals.invoices,
    gross: centsToAmount(totals.grossCents),
    commission: centsToAmount(totals.commissionCents),
    net: centsToAmount(totals.grossCents - totals.commissionCents),
    deductedCommission: centsToAmount(totals.deductedCents),
    owedCommission: centsToAmount(totals.owedCents),
    agencyCount: totals.agencies,
    byAgency: byAgency.map((row) => ({
      agencyId: row.agencyId,
      name: row.name,
      advertisers: row.advertisers,
      invoices: row.invoices,
      gross: centsToAmount(row.grossCents),
      commission: centsToAmount(row.commissionCents),
      net: centsToAmount(row.grossCents - row.commissionCents),
    })),
  };
}

type RenewalTally = { endedCount: number; endedCents: number; renewedCount: number; renewedCents: number };

function rateFigures(t: RenewalTally): RenewalRateFigures {
  return {
    endedCount: t.endedCount,
    endedValue: centsToAmount(t.endedCents),
    renewedCount: t.renewedCount,
    renewedValue: centsToAmount(t.renewedCents),
    countRate: percentOf(t.renewedCount, t.endedCount),
    valueRate: t.endedCount === 0 ? null : percentOf(t.renewedCents, t.endedCents),
  };
}

/** `part` as a percentage of `whole`, one decimal (integer arithmetic); null when whole is not positive. */
export function percentOf(part: number, whole: number): number | null {
  if (whole <= 0) return null;
  return divideRound(part * 1000, whole) / 10;
}

/**
 * The renewal rate (product.md section 15): contracts whose term ended in the period and were running then,
 * and those of them renewed by a sent or running contract, valued by their term values (stored with the
 * monthly figures; a contract saved before they were stored is valued by the billing engine, billing.service
 * previewContracts). By rep when the report covers everyone.
 */
async function renewalRate(db: Db, scope: repo.ReportScope, period: repo.ReportPeriod): Promise<RenewalRate> {
  const [totals, legacy] = await Promise.all([
    repo.selectRenewalTotals(db, scope, period),
    repo.selectEndedWithoutTermValue(db, scope, period),
  ]);
  const unvalued = legacy.flatMap((row) => [
    ...(row.contract.termValueCents === null ? [row.contract] : []),
    ...(row.renewal && row.renewal.termValueCents === null ? [row.renewal] : []),
  ]);
  const previews = unvalued.length ? await previewContracts(db, unvalued) : new Map();
  const engineValue = (id: string) => previews.get(id)?.termValueCents ?? 0;
  const byRep = new Map(
    totals.map((row) => [
      row.repId,
      {
        name: row.repFirstName === null ? 'No sales rep' : `${row.repFirstName} ${row.repLastName ?? ''}`.trim(),
        endedCount: row.ended,
        endedCents: row.endedCents,
        renewedCount: row.renewed,
        renewedCents: row.renewedCents,
      },
    ]),
  );
  for (const { contract, renewal } of legacy) {
    const rep = byRep.get(contract.salesRepId);
    if (!rep) continue;
    if (contract.termValueCents === null) rep.endedCents += engineValue(contract.id);
    if (renewal && renewal.termValueCents === null) rep.renewedCents += engineValue(renewal.id);
  }
  const total: RenewalTally = { endedCount: 0, endedCents: 0, renewedCount: 0, renewedCents: 0 };
  for (const rep of byRep.values()) {
    total.endedCount += rep.endedCount;
    total.endedCents += rep.endedCents;
    total.renewedCount += rep.renewedCount;
    total.renewedCents += rep.renewedCents;
  }
  return {
    ...rateFigures(total),
    byRep: scope.repId
      ? []
      : [...byRep]
          .map(([salesRepId, tally]) => ({ salesRepId, salesRepName: tally.name, ...rateFigures(tally) }))
          .sort((a, b) => a.salesRepName.localeCompare(b.salesRepName)),
  };
}

/**
 * The collection rate (decision 049): what is collected of what fell due, as a percentage with one decimal
 * (integer arithmetic), from 0 to 100; null when nothing fell due.
 */
export function collectionRate(collectedCents: number, dueCents: number): number | null {
  if (dueCents <= 0) return null;
  const collected = Math.min(Math.max(collectedCents, 0), dueCents);
  return divideRound(collected * 1000, dueCents) / 10;
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

/**
 * Cash received this calendar month (UTC, as the report's Current Month), in dollars: the Admin Dashboard's
 * Monthly Revenue and finance's Cash this month. The report's cash query (decision 048), so the three are one
 * number.
 */
export async function cashReceivedThisMonth(db: Db, scope: repo.ReportScope, now = new Date()): Promise<number> {
  const { from, to } = reportRangeDates('current_month', now);
  const cash = await repo.selectCashByMonth(db, scope, { from, to });
  return centsToAmount(cash.totalCents);
}
