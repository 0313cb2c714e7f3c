import { type Cents, shareOfCents } from '../money';

/**
 * The sales pipeline (product.md section 19): the words, defaults and small rules the server and the screens
 * share. Zod-free, so the board's cards load without the form schemas.
 */

export const STAGE_KINDS = ['open', 'won', 'lost'] as const;
export type StageKind = (typeof STAGE_KINDS)[number];

/**
 * The steps of a contract a stage stands for: a deal whose contract is drafted from it moves to the stage
 * marked `contract_drafted` (Proposal), and when that contract is sent, to the one marked `contract_sent`
 * (IO sent). At most one stage carries each.
 */
export const STAGE_MILESTONES = ['contract_drafted', 'contract_sent'] as const;
export type StageMilestone = (typeof STAGE_MILESTONES)[number];

export const DEAL_SOURCES = ['inbound', 'outbound', 'referral', 'renewal'] as const;
export type DealSource = (typeof DEAL_SOURCES)[number];

export const DEAL_SOURCE_LABELS: Record<DealSource, string> = {
  inbound: 'Inbound',
  outbound: 'Outbound',
  referral: 'Referral',
  renewal: 'Renewal',
};

export const STAGE_KIND_LABELS: Record<StageKind, string> = { open: 'Open', won: 'Won', lost: 'Lost' };

export const STAGE_MILESTONE_LABELS: Record<StageMilestone, string> = {
  contract_drafted: 'Contract drafted',
  contract_sent: 'Contract sent',
};

/** The reasons the product itself closes a deal with (a canceled contract, a renewal that did not happen). */
export const LOST_REASON_CONTRACT_CANCELED = 'Contract canceled';
export const LOST_REASON_NOT_RENEWED = 'Not renewed';

export type PipelineStageDefault = {
  name: string;
  probability: number;
  kind: StageKind;
  milestone: StageMilestone | null;
};

/** A new pipeline's stages, in order (migration 0042 writes the same rows). */
export const DEFAULT_STAGES: readonly PipelineStageDefault[] = [
  { name: 'Lead', probability: 10, kind: 'open', milestone: null },
  { name: 'Qualified', probability: 25, kind: 'open', milestone: null },
  { name: 'Proposal', probability: 50, kind: 'open', milestone: 'contract_drafted' },
  { name: 'IO sent', probability: 75, kind: 'open', milestone: 'contract_sent' },
  { name: 'Won', probability: 100, kind: 'won', milestone: null },
  { name: 'Lost', probability: 0, kind: 'lost', milestone: null },
];

export const DEFAULT_LOST_REASONS: readonly string[] = [
  'Price',
  'Budget',
  'Timing',
  'Chose a competitor',
  'No response',
  LOST_REASON_CONTRACT_CANCELED,
  LOST_REASON_NOT_RENEWED,
];

/** Days without activity after which an open deal is stale (`rottenDays`). */
export const DEFAULT_ROTTEN_DAYS = 14;

export const MAX_STAGES = 20;
export const MAX_LOST_REASONS = 30;
export const MAX_DEAL_LINES = 50;

/** The deal list's sort keys; a leading '-' sorts descending. */
export const DEAL_SORTS = ['title', 'amount', 'expectedCloseDate', 'probability', 'updatedAt', 'createdAt'] as const;
export type DealSort = (typeof DEAL_SORTS)[number];

export const DEAL_MESSAGES = {
  customerOrProspect: "Choose a customer or enter the prospect's name and e-mail",
  titleRequired: 'Title is required',
  amountRequired: 'Amount is required',
  amountNegative: 'Amount cannot be negative',
  amountInvalid: 'Amount must be an amount in dollars with at most two decimals, like 12500.00',
  probabilityRange: 'Probability must be a whole number from 0 to 100',
  flightOrder: 'Flight end cannot be before flight start',
  stageNotFound: 'Choose a stage of the pipeline',
  newDealOpenStage: 'A new deal starts in an open stage',
  ownerNotRep: 'Choose a sales rep or sales manager as the owner',
  ownerOthers: 'Only managers can give a deal to another rep',
  reasonRequired: 'Choose the reason the deal was lost',
  reasonUnknown: 'Choose one of the lost reasons of the pipeline settings',
  wonNeedsContract: 'A deal is won once its contract is signed or active',
  wonStays: 'A won deal stays won; its contract decides what happens next',
  changedMeanwhile: 'This deal was changed by someone else meanwhile. Reload it and try again.',
  hasContract: 'This deal already has a contract',
  closedNoContract: 'A closed deal cannot start a contract',
  noLines: 'Add the products the deal sells before creating its contract',
  deleteClosed: 'Only an open deal without a contract can be deleted',
  productNotFound: 'Product not found',
} as const;

/** The probability a deal is weighted by: its own when set, else its stage's default. */
export function effectiveProbability(deal: { probability: number | null }, stage: { probability: number }): number {
  return deal.probability ?? stage.probability;
}

/** A deal's weighted amount in cents: amount x probability / 100, rounded half away from zero (shared/money). */
export function weightedCents(amountCents: Cents, probability: number): Cents {
  return shareOfCents(amountCents, probability, 100);
}
