import type { Deal, DealLine, PipelineSettings, PipelineStage, PipelineSummary } from '@shared/contracts/deals';
import { arrayOf, boolean, integer, nullableString, number, object, string } from '../../lib/response-schema';

/** The pipeline's answers as the API sends them (lib/response-schema.ts): only these fields, money in dollars. */
const stageFields = {
  id: string,
  name: string,
  position: integer,
  probability: integer,
  kind: string,
  milestone: nullableString,
};
export const stageResponse = object<PipelineStage>(stageFields);

export const dealResponse = object<Deal>({
  id: string,
  customerId: string,
  customerName: string,
  title: string,
  ownerId: string,
  ownerName: string,
  stageId: string,
  stageName: string,
  stageKind: string,
  amount: number,
  weightedAmount: number,
  expectedCloseDate: nullableString,
  flightStart: nullableString,
  flightEnd: nullableString,
  probability: integer,
  probabilityOverridden: boolean,
  source: string,
  lostReason: nullableString,
  nextStep: nullableString,
  contractId: nullableString,
  contractTitle: nullableString,
  contractStatus: nullableString,
  renewalOfContractId: nullableString,
  lines: arrayOf(object<DealLine>({ productId: string, productName: string, quantity: integer, unitPrice: number })),
  stale: boolean,
  lastActivityAt: string,
  closedAt: nullableString,
  version: integer,
  createdAt: string,
  updatedAt: string,
});
export const dealListResponse = arrayOf(dealResponse);

const figures = { count: integer, total: number, weighted: number };
export const pipelineSummaryResponse = object<PipelineSummary>({
  stages: arrayOf(object<PipelineSummary['stages'][number]>({ ...stageFields, ...figures })),
  totals: object<PipelineSummary['totals']>(figures),
});

export const pipelineSettingsResponse = object<PipelineSettings>({
  stages: arrayOf(stageResponse),
  lostReasons: arrayOf(string),
  rottenDays: integer,
});
