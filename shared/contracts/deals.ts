import { z } from 'zod';
import { centsToAmount } from '../money';
import { isCalendarDate, listQuerySchema, moneyCents, optionalText } from './common';
import { createCustomerSchema } from './customers';
import {
  DEAL_MESSAGES,
  DEAL_SORTS,
  DEAL_SOURCES,
  DEFAULT_LOST_REASONS,
  DEFAULT_ROTTEN_DAYS,
  type DealSource,
  MAX_DEAL_LINES,
  MAX_LOST_REASONS,
  MAX_STAGES,
  STAGE_KINDS,
  STAGE_MILESTONES,
  type StageKind,
  type StageMilestone,
} from './deal-vocabulary';

export * from './deal-vocabulary';

/**
 * The sales pipeline's requests and answers (product.md section 19): deals, their moves, the board's summary
 * and the pipeline settings. Money leaves the forms as integer cents and is answered in dollars, like every
 * other resource.
 */

/** An optional calendar day: left out, null or '' is none. */
function optionalDay(label: string) {
  return z
    .union([z.string(), z.null()], { message: `${label} must be a date (YYYY-MM-DD)` })
    .optional()
    .transform((v) => (v === undefined || v === null || v.trim() === '' ? null : v.trim().slice(0, 10)))
    .refine((v) => v === null || isCalendarDate(v), `${label}: enter a valid date (YYYY-MM-DD)`);
}

const uuidOf = (message: string) => z.string({ message }).trim().uuid(message);

const probability = z
  .union([z.number(), z.string(), z.null()], { message: DEAL_MESSAGES.probabilityRange })
  .transform((v) => (v === null || (typeof v === 'string' && v.trim() === '') ? null : Number(v)))
  .refine((v) => v === null || (Number.isInteger(v) && v >= 0 && v <= 100), DEAL_MESSAGES.probabilityRange);

const amount = moneyCents({
  required: DEAL_MESSAGES.amountRequired,
  negative: DEAL_MESSAGES.amountNegative,
  invalid: DEAL_MESSAGES.amountInvalid,
});

export const dealLineSchema = z.object({
  productId: uuidOf(DEAL_MESSAGES.productNotFound),
  quantity: z.coerce
    .number({ message: 'Quantity must be a whole number' })
    .int('Quantity must be a whole number')
    .min(1, 'Quantity must be at least 1')
    .max(10_000, 'Quantity cannot exceed 10,000'),
  unitPrice: moneyCents({
    required: 'Unit price is required',
    negative: 'Unit price cannot be negative',
    invalid: 'Unit price must be an amount in dollars with at most two decimals, like 250.00',
  }),
});

const dealFields = {
  title: z
    .string({ message: DEAL_MESSAGES.titleRequired })
    .trim()
    .min(1, DEAL_MESSAGES.titleRequired)
    .max(200, 'Title cannot be longer than 200 characters'),
  ownerId: uuidOf(DEAL_MESSAGES.ownerNotRep).nullish(),
  stageId: uuidOf(DEAL_MESSAGES.stageNotFound).nullish(),
  amount,
  expectedCloseDate: optionalDay('Expected close date'),
  flightStart: optionalDay('Flight start'),
  flightEnd: optionalDay('Flight end'),
  /** Left out or null: the stage's default probability. */
  probability: probability.optional().transform((v) => v ?? null),
  source: z
    .enum(DEAL_SOURCES, { message: 'Choose a source: inbound, outbound, referral or renewal' })
    .default('outbound'),
  nextStep: optionalText(500, 'Next step'),
  lines: z
    .array(dealLineSchema, { message: 'Lines must be a list' })
    .max(MAX_DEAL_LINES, `A deal can have at most ${MAX_DEAL_LINES} lines`)
    .nullish()
    .transform((v) => v ?? []),
};

const flightInOrder = (deal: { flightStart?: string | null; flightEnd?: string | null }) =>
  !deal.flightStart || !deal.flightEnd || deal.flightEnd >= deal.flightStart;

/** A prospect the deal creates as a customer: the customer form's name and e-mail rules. */
export const prospectSchema = createCustomerSchema.pick({ name: true, email: true });

/** POST /api/deals: an existing customer, or a prospect the deal creates as a customer. */
export const dealCreateSchema = z
  .object({
    customerId: uuidOf(DEAL_MESSAGES.customerOrProspect).nullish(),
    prospect: prospectSchema.nullish(),
    ...dealFields,
  })
  .superRefine((deal, ctx) => {
    if (!deal.customerId === !deal.prospect) {
      ctx.addIssue({ code: 'custom', path: ['customerId'], message: DEAL_MESSAGES.customerOrProspect });
    }
    if (!flightInOrder(deal)) ctx.addIssue({ code: 'custom', path: ['flightEnd'], message: DEAL_MESSAGES.flightOrder });
  });
export type DealCreateInput = z.input<typeof dealCreateSchema>;
export type DealCreateValues = z.output<typeof dealCreateSchema>;

/** The deal dialog: the same rules; its output is the JSON body the API takes (money in dollars). */
export const dealFormSchema = dealCreateSchema.transform((deal) => ({
  ...deal,
  amount: centsToAmount(deal.amount),
  lines: deal.lines.map((line) => ({ ...line, unitPrice: centsToAmount(line.unitPrice) })),
}));
export type DealFormValues = z.input<typeof dealFormSchema>;
export type DealPayload = z.output<typeof dealFormSchema>;

/** `version`: the deal as the caller last saw it; a deal changed since is refused (409), not overwritten. */
const version = z.coerce
  .number({ message: 'version must be a whole number' })
  .int('version must be a whole number')
  .min(1, 'version must be a whole number')
  .optional();

/** PATCH /api/deals/:id: any of the deal's fields (a stage given is a move, under the move's rules). */
export const dealPatchSchema = z
  .object({
    customerId: uuidOf('Customer not found').optional(),
    title: dealFields.title.optional(),
    ownerId: uuidOf(DEAL_MESSAGES.ownerNotRep).optional(),
    stageId: uuidOf(DEAL_MESSAGES.stageNotFound).optional(),
    amount: amount.optional(),
    expectedCloseDate: optionalDay('Expected close date'),
    flightStart: optionalDay('Flight start'),
    flightEnd: optionalDay('Flight end'),
    probability: probability.optional(),
    source: dealFields.source.optional(),
    nextStep: optionalText(500, 'Next step').optional(),
    lines: z
      .array(dealLineSchema, { message: 'Lines must be a list' })
      .max(MAX_DEAL_LINES, `A deal can have at most ${MAX_DEAL_LINES} lines`)
      .optional(),
    version,
  })
  .strict()
  .superRefine((deal, ctx) => {
    if (!flightInOrder(deal)) ctx.addIssue({ code: 'custom', path: ['flightEnd'], message: DEAL_MESSAGES.flightOrder });
  });
export type DealPatchInput = z.input<typeof dealPatchSchema>;
export type DealPatchValues = z.output<typeof dealPatchSchema>;

const reason = z
  .string({ message: DEAL_MESSAGES.reasonRequired })
  .trim()
  .min(1, DEAL_MESSAGES.reasonRequired)
  .max(100, DEAL_MESSAGES.reasonUnknown);

/** POST /api/deals/:id/move: to another stage (a lost one needs `reason`). */
export const dealMoveSchema = z.object({
  stageId: uuidOf(DEAL_MESSAGES.stageNotFound),
  reason: reason.optional(),
  version,
});
export type DealMoveValues = z.output<typeof dealMoveSchema>;

/** POST /api/deals/:id/lose. */
export const dealLoseSchema = z.object({ reason, version });
export type DealLoseValues = z.output<typeof dealLoseSchema>;

export const DEAL_STATUSES = ['open', 'won', 'lost'] as const;

const sortKey = z
  .string()
  .refine((v) => (DEAL_SORTS as readonly string[]).includes(v.replace(/^-/, '')), {
    message: `sort must be one of ${DEAL_SORTS.join(', ')} (a leading - sorts descending)`,
  })
  .optional();

/** GET /api/deals and GET /api/pipeline/summary. */
export const dealListQuerySchema = listQuerySchema.extend({
  stage: uuidOf(DEAL_MESSAGES.stageNotFound).optional(),
  status: z.enum(DEAL_STATUSES, { message: 'status must be open, won or lost' }).optional(),
  ownerId: uuidOf('Owner not found').optional(),
  customerId: uuidOf('Customer not found').optional(),
  source: z.enum(DEAL_SOURCES, { message: 'Choose a source: inbound, outbound, referral or renewal' }).optional(),
  closeFrom: optionalDay('closeFrom').transform((v) => v ?? undefined),
  closeTo: optionalDay('closeTo').transform((v) => v ?? undefined),
  stale: z
    .enum(['true', 'false'], { message: 'stale must be true or false' })
    .transform((v) => v === 'true')
    .optional(),
  sort: sortKey,
});
export type DealListQuery = z.output<typeof dealListQuerySchema>;
export type DealListParams = z.input<typeof dealListQuerySchema>;

export type DealLine = { productId: string; productName: string; quantity: number; unitPrice: number };

/** A deal as the API answers it; money in dollars. */
export type Deal = {
  id: string;
  customerId: string;
  customerName: string;
  title: string;
  ownerId: string;
  ownerName: string;
  stageId: string;
  stageName: string;
  stageKind: StageKind;
  amount: number;
  /** amount x probability / 100. */
  weightedAmount: number;
  expectedCloseDate: string | null;
  flightStart: string | null;
  flightEnd: string | null;
  /** The effective percent: the deal's own when overridden, else its stage's default. */
  probability: number;
  probabilityOverridden: boolean;
  source: DealSource;
  lostReason: string | null;
  nextStep: string | null;
  contractId: string | null;
  contractTitle: string | null;
  contractStatus: string | null;
  renewalOfContractId: string | null;
  lines: DealLine[];
  /** Open and without activity for the pipeline's rottenDays. */
  stale: boolean;
  lastActivityAt: string;
  closedAt: string | null;
  version: number;
  createdAt: string;
  updatedAt: string;
};

export type PipelineStage = {
  id: string;
  name: string;
  position: number;
  probability: number;
  kind: StageKind;
  milestone: StageMilestone | null;
};

/** GET /api/pipeline/summary: each stage with its deals' count, total and weighted total (in dollars). */
export type PipelineSummary = {
  stages: (PipelineStage & { count: number; total: number; weighted: number })[];
  totals: { count: number; total: number; weighted: number };
};

export type PipelineSettings = { stages: PipelineStage[]; lostReasons: string[]; rottenDays: number };

const stageInput = z.object({
  /** Left out: a new stage. */
  id: uuidOf(DEAL_MESSAGES.stageNotFound).nullish(),
  name: z
    .string({ message: 'Stage name is required' })
    .trim()
    .min(1, 'Stage name is required')
    .max(60, 'Stage name cannot be longer than 60 characters'),
  probability: z.coerce
    .number({ message: DEAL_MESSAGES.probabilityRange })
    .int(DEAL_MESSAGES.probabilityRange)
    .min(0, DEAL_MESSAGES.probabilityRange)
    .max(100, DEAL_MESSAGES.probabilityRange),
  kind: z.enum(STAGE_KINDS, { message: 'Kind must be open, won or lost' }),
  milestone: z
    .enum(STAGE_MILESTONES, { message: 'Milestone must be contract_drafted or contract_sent' })
    .nullish()
    .transform((v) => v ?? null),
});

const pipelineRuleFields = {
  lostReasons: z
    .array(
      z
        .string({ message: 'A lost reason must be text' })
        .trim()
        .min(1, 'A lost reason cannot be empty')
        .max(100, 'A lost reason cannot be longer than 100 characters'),
      { message: 'Lost reasons must be a list' },
    )
    .min(1, 'Keep at least one lost reason')
    .max(MAX_LOST_REASONS, `At most ${MAX_LOST_REASONS} lost reasons`),
  rottenDays: z.coerce
    .number({ message: 'Stale after must be a number of days from 1 to 365' })
    .int('Stale after must be a number of days from 1 to 365')
    .min(1, 'Stale after must be a number of days from 1 to 365')
    .max(365, 'Stale after must be a number of days from 1 to 365'),
};

/** What the pipeline settings keep beside the stages (the settings group 'pipeline'). */
export const pipelineRulesSchema = z.object(pipelineRuleFields);
export type PipelineRules = z.output<typeof pipelineRulesSchema>;
export const DEFAULT_PIPELINE_RULES: PipelineRules = {
  lostReasons: [...DEFAULT_LOST_REASONS],
  rottenDays: DEFAULT_ROTTEN_DAYS,
};

/** PUT /api/settings/pipeline: the stages in order (those left out are removed), lost reasons, rottenDays. */
export const pipelineSettingsSchema = z
  .object({
    stages: z
      .array(stageInput, { message: 'Stages must be a list' })
      .min(3, 'A pipeline needs an open stage, a won stage and a lost stage')
      .max(MAX_STAGES, `A pipeline can have at most ${MAX_STAGES} stages`),
    ...pipelineRuleFields,
  })
  .superRefine((value, ctx) => {
    const names = new Set<string>();
    value.stages.forEach((stage, index) => {
      const key = stage.name.toLowerCase();
      if (names.has(key)) {
        ctx.addIssue({
          code: 'custom',
          path: ['stages', index, 'name'],
          message: 'Two stages cannot have the same name',
        });
      }
      names.add(key);
      if (stage.milestone && stage.kind !== 'open') {
        ctx.addIssue({
          code: 'custom',
          path: ['stages', index, 'milestone'],
          message: 'Only an open stage can follow a contract step',
        });
      }
    });
    const count = (kind: StageKind) => value.stages.filter((s) => s.kind === kind).length;
    if (count('open') === 0)
      ctx.addIssue({ code: 'custom', path: ['stages'], message: 'Keep at least one open stage' });
    if (count('won') !== 1) ctx.addIssue({ code: 'custom', path: ['stages'], message: 'Keep exactly one won stage' });
    if (count('lost') !== 1) ctx.addIssue({ code: 'custom', path: ['stages'], message: 'Keep exactly one lost stage' });
    for (const milestone of STAGE_MILESTONES) {
      if (value.stages.filter((s) => s.milestone === milestone).length > 1) {
        ctx.addIssue({ code: 'custom', path: ['stages'], message: 'At most one stage can follow each contract step' });
      }
    }
    const reasons = new Set(value.lostReasons.map((r) => r.toLowerCase()));
    if (reasons.size !== value.lostReasons.length) {
      ctx.addIssue({ code: 'custom', path: ['lostReasons'], message: 'Two lost reasons cannot be the same' });
    }
  });
export type PipelineSettingsInput = z.input<typeof pipelineSettingsSchema>;
export type PipelineSettingsValues = z.output<typeof pipelineSettingsSchema>;
