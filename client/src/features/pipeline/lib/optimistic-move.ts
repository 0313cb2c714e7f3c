import { weightedCents } from '@shared/contracts/deal-vocabulary';
import type { Deal, PipelineStage, PipelineSummary } from '@shared/contracts/deals';
import { centsToAmount, parseMoney } from '@shared/money';
import type { StageDeals } from '../api/get-deals';

/**
 * What the board shows the moment a card is dropped, before the server answers (and what it goes back to if the
 * server refuses): the deal in its new stage, the two columns and the header figures. Money is added up in cents.
 */

/** Dollars from the API in cents. */
const toCents = (dollars: number) => parseMoney(dollars) ?? 0;

/** The deal as it will be in `to`: the stage's default probability unless the deal has its own. */
export function movedDeal(deal: Deal, to: PipelineStage, reason?: string): Deal {
  const probability = to.kind === 'open' && deal.probabilityOverridden ? deal.probability : to.probability;
  return {
    ...deal,
    stageId: to.id,
    stageName: to.name,
    stageKind: to.kind,
    probability,
    weightedAmount: centsToAmount(weightedCents(toCents(deal.amount), probability)),
    lostReason: to.kind === 'lost' ? (reason ?? deal.lostReason) : null,
    stale: to.kind === 'open' ? deal.stale : false,
  };
}

/** A column's cards without the deal (its count one less). */
export function withoutDeal(data: StageDeals, dealId: string): StageDeals {
  const found = data.pages.some((page) => page.rows.some((row) => row.id === dealId));
  if (!found) return data;
  return {
    ...data,
    pages: data.pages.map((page) => ({
      ...page,
      rows: page.rows.filter((row) => row.id !== dealId),
      total: Math.max(0, page.total - 1),
    })),
  };
}

/** A column's cards with the deal first (the column is ordered by the last change). */
export function withDealFirst(data: StageDeals, deal: Deal): StageDeals {
  const [first, ...rest] = withoutDeal(data, deal.id).pages;
  if (!first) return data;
  return {
    ...data,
    pages: [
      { ...first, rows: [deal, ...first.rows], total: first.total + 1 },
      ...rest.map((page) => ({ ...page, total: page.total + 1 })),
    ],
  };
}

const plus = (dollars: number, cents: number) => centsToAmount(toCents(dollars) + cents);

/** The header figures with the deal counted in its new stage instead of its old one. */
export function summaryAfterMove(summary: PipelineSummary, before: Deal, after: Deal): PipelineSummary {
  const amount = toCents(before.amount);
  const weightedBefore = toCents(before.weightedAmount);
  const weightedAfter = toCents(after.weightedAmount);
  return {
    stages: summary.stages.map((stage) => {
      if (stage.id === before.stageId) {
        return {
          ...stage,
          count: Math.max(0, stage.count - 1),
          total: plus(stage.total, -amount),
          weighted: plus(stage.weighted, -weightedBefore),
        };
      }
      if (stage.id === after.stageId) {
        return {
          ...stage,
          count: stage.count + 1,
          total: plus(stage.total, amount),
          weighted: plus(stage.weighted, weightedAfter),
        };
      }
      return stage;
    }),
    totals: { ...summary.totals, weighted: plus(summary.totals.weighted, weightedAfter - weightedBefore) },
  };
}
