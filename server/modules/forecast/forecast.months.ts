import { weightedCents } from '@shared/contracts/deal-vocabulary';
import { MAX_FORECAST_MONTHS } from '@shared/contracts/forecast';
import { monthsFrom, spreadOverMonths } from '@shared/forecast';
import type { Db } from '../../db/client';
import { billedByMonth } from '../billing/billing.service';
import { openDealsLanding } from '../deals/deals.service';
import {
  addForecastSources,
  type ForecastSource,
  forecastRefreshDue,
  removeForecastSources,
  selectBookedContracts,
  selectForecastMonths,
  takeForecastMarks,
} from './forecast.repo';

/** Cents of one rep and month: booked, the open pipeline weighted by probability, and the whole open pipeline. */
export type MonthFigures = { booked: number; weighted: number; pipeline: number };

/**
 * The forecast's figures by rep and month (docs/decisions/059-forecast-months.md), as stored: booked is the
 * billing engine's schedule of signed and running contracts (billing.service billedByMonth: the subtotals the
 * invoices will have), the pipeline each open deal's amount, and its weighted amount, spread over its flight by
 * days (shared/forecast.ts). Each contract's and deal's share is stored for MAX_FORECAST_MONTHS months from the
 * current one (forecast_sources) and summed by rep and month (forecast_months). Triggers on contracts, their
 * lines, insertion orders, deals, stages and the contract settings mark what a change concerns; the next
 * forecast recomputes only those contracts and deals (everything when the month has turned or a change concerns
 * everyone) under one advisory lock, moves the sums by the difference, then reads them.
 */
export async function forecastMonthsByRep(
  db: Db,
  window: { months: readonly string[]; ownerId?: string },
): Promise<Map<string, Map<string, MonthFigures>>> {
  const fromMonth = window.months[0];
  await refreshForecastMonths(db, fromMonth);
  const rows = await selectForecastMonths(db, {
    from: `${fromMonth}-01`,
    to: `${window.months[window.months.length - 1]}-01`,
    ownerId: window.ownerId,
  });
  const byRep = new Map<string, Map<string, MonthFigures>>();
  for (const row of rows) {
    const months = byRep.get(row.repId) ?? new Map<string, MonthFigures>();
    months.set(row.month.slice(0, 7), {
      booked: row.bookedCents,
      weighted: row.weightedCents,
      pipeline: row.pipelineCents,
    });
    byRep.set(row.repId, months);
  }
  return byRep;
}

const lastDayOf = (month: string) => {
  const [y, m] = month.split('-').map(Number);
  return `${month}-${String(new Date(Date.UTC(y, m, 0)).getUTCDate()).padStart(2, '0')}`;
};

/**
 * Brings the stored months up to date for a forecast starting at `fromMonth` (YYYY-MM). Answers what it redid:
 * nothing, everything, or the number of contracts and deals marked.
 */
export async function refreshForecastMonths(db: Db, fromMonth: string): Promise<'none' | 'everything' | number> {
  const firstDay = `${fromMonth}-01`;
  if (!(await forecastRefreshDue(db, firstDay))) return 'none';
  return db.transaction(async (tx) => {
    const marks = await takeForecastMarks(tx);
    const everything = marks.everyone || marks.fromMonth !== firstDay;
    const marked = marks.contractIds.length + marks.dealIds.length;
    if (!everything && marked === 0) return 'none';
    const window = { firstDay, months: MAX_FORECAST_MONTHS };
    await removeForecastSources(
      tx,
      everything ? 'everything' : { contractIds: marks.contractIds, dealIds: marks.dealIds },
      window,
    );
    // Read after the marks are taken: every change whose mark was taken is committed, so it is seen here; a
    // change committed later leaves a mark for the next forecast.
    const months = monthsFrom(fromMonth, MAX_FORECAST_MONTHS);
    const [contracts, deals] = await Promise.all([
      !everything && marks.contractIds.length === 0
        ? []
        : selectBookedContracts(tx, { from: firstDay, ids: everything ? undefined : marks.contractIds }),
      !everything && marks.dealIds.length === 0
        ? []
        : openDealsLanding(tx, {
            from: firstDay,
            to: lastDayOf(months[months.length - 1]),
            ids: everything ? undefined : marks.dealIds,
          }),
    ]);
    const billed = await billedByMonth(tx, contracts, { fromMonth, months: MAX_FORECAST_MONTHS });
    const byMonth = (spread: ReadonlyMap<string, number>) => months.map((month) => spread.get(month) ?? 0);
    const sources: ForecastSource[] = [];
    for (const contract of contracts) {
      const booked = byMonth(billed.get(contract.id) ?? new Map());
      if (booked.some((cents) => cents !== 0)) {
        sources.push({
          contractId: contract.id,
          dealId: null,
          repId: contract.salesRepId!,
          booked,
          weighted: null,
          pipeline: null,
        });
      }
    }
    for (const deal of deals) {
      const start = deal.flightStart ?? deal.expectedCloseDate!;
      const end = deal.flightEnd ?? start;
      sources.push({
        contractId: null,
        dealId: deal.id,
        repId: deal.ownerId,
        booked: null,
        weighted: byMonth(spreadOverMonths(weightedCents(deal.amountCents, deal.probability), start, end)),
        pipeline: byMonth(spreadOverMonths(deal.amountCents, start, end)),
      });
    }
    await addForecastSources(tx, sources, window);
    return everything ? 'everything' : marked;
  });
}
