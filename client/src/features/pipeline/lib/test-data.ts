import type { Deal, PipelineSettings, PipelineStage, PipelineSummary } from '@shared/contracts/deals';
import { QueryClient } from '@tanstack/react-query';

/** Records as the API answers them, for the pipeline's component tests. */

export const STAGES: PipelineStage[] = [
  {
    id: '00000000-0000-4000-8000-000000000001',
    name: 'Lead',
    position: 0,
    probability: 10,
    kind: 'open',
    milestone: null,
  },
  {
    id: '00000000-0000-4000-8000-000000000002',
    name: 'Qualified',
    position: 1,
    probability: 25,
    kind: 'open',
    milestone: null,
  },
  {
    id: '00000000-0000-4000-8000-000000000003',
    name: 'Proposal',
    position: 2,
    probability: 50,
    kind: 'open',
    milestone: 'contract_drafted',
  },
  {
    id: '00000000-0000-4000-8000-000000000005',
    name: 'Won',
    position: 3,
    probability: 100,
    kind: 'won',
    milestone: null,
  },
  {
    id: '00000000-0000-4000-8000-000000000006',
    name: 'Lost',
    position: 4,
    probability: 0,
    kind: 'lost',
    milestone: null,
  },
];

export const [LEAD, QUALIFIED, PROPOSAL, WON, LOST] = STAGES;

export const SETTINGS: PipelineSettings = {
  stages: STAGES,
  lostReasons: ['Price', 'Budget', 'Timing'],
  rottenDays: 14,
};

export function makeDeal(overrides: Partial<Deal> = {}): Deal {
  return {
    id: '10000000-0000-4000-8000-000000000001',
    customerId: '20000000-0000-4000-8000-000000000001',
    customerName: 'Harbor Bakery',
    title: 'Holiday banners',
    ownerId: '30000000-0000-4000-8000-000000000001',
    ownerName: 'Sam Seller',
    stageId: LEAD.id,
    stageName: LEAD.name,
    stageKind: 'open',
    amount: 12500,
    weightedAmount: 1250,
    expectedCloseDate: '2026-12-15',
    flightStart: null,
    flightEnd: null,
    probability: 10,
    probabilityOverridden: false,
    source: 'outbound',
    lostReason: null,
    nextStep: null,
    contractId: null,
    contractTitle: null,
    contractStatus: null,
    renewalOfContractId: null,
    lines: [],
    stale: false,
    lastActivityAt: '2026-11-20T10:00:00.000Z',
    closedAt: null,
    version: 3,
    createdAt: '2026-11-01T10:00:00.000Z',
    updatedAt: '2026-11-20T10:00:00.000Z',
    ...overrides,
  };
}

/** The summary of the given deals, stage by stage (money in dollars, as the API answers it). */
export function summaryOf(deals: Deal[]): PipelineSummary {
  const stages = STAGES.map((stage) => {
    const inStage = deals.filter((deal) => deal.stageId === stage.id);
    return {
      ...stage,
      count: inStage.length,
      total: inStage.reduce((sum, deal) => sum + deal.amount, 0),
      weighted: inStage.reduce((sum, deal) => sum + deal.weightedAmount, 0),
    };
  });
  return {
    stages,
    totals: {
      count: deals.length,
      total: deals.reduce((sum, deal) => sum + deal.amount, 0),
      weighted: deals.reduce((sum, deal) => sum + deal.weightedAmount, 0),
    },
  };
}

/** A query client as the app's (nothing refetches by itself, nothing is retried), for data the test puts in. */
export const testQueryClient = () =>
  new QueryClient({
    defaultOptions: { queries: { staleTime: Number.POSITIVE_INFINITY, retry: false }, mutations: { retry: false } },
  });
