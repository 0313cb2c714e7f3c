import { contractBodySchema } from '@shared/contracts/contract-api';
import { createCustomerSchema } from '@shared/contracts/customers';
import {
  DEAL_MESSAGES,
  type Deal,
  type DealCreateValues,
  type DealListQuery,
  type DealLoseValues,
  type DealMoveValues,
  type DealPatchValues,
  effectiveProbability,
  type PipelineSettings,
  type PipelineSettingsValues,
  type PipelineStage,
  type PipelineSummary,
  type StageKind,
  type StageMilestone,
  weightedCents,
} from '@shared/contracts/deals';
import { centsToAmount } from '@shared/money';
import { can } from '@shared/permissions';
import type { Db } from '../../db/client';
import { recordAudit } from '../../lib/audit';
import { businessToday } from '../../lib/business-day';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../lib/errors';
import { type ContractDeps, createContract } from '../contracts/contracts.service';
import { createCustomer } from '../customers/customers.service';
import type { SessionUser } from '../sessions/sessions';
import { getSettings, saveSettings } from '../settings/settings.service';
import { emitWebhookEvent } from '../webhooks/webhook-events';
import {
  countDealsInStages,
  customerExists,
  type DealFilter,
  type DealLineRow,
  type DealListRow,
  type DealRow,
  deleteOpenDeal,
  insertDeal,
  lockStages,
  replaceDealLines,
  type StageRow,
  saveStages,
  selectContractStanding,
  selectDeal,
  selectDealLines,
  selectDealPage,
  selectOpenDealsLanding,
  selectProductIds,
  selectStageBy,
  selectStages,
  selectStageTotals,
  selectUsersWithRoles,
  touchDealActivity,
  updateDealAtVersion,
} from './deals.repo';

type Actor = SessionUser;

/** Who may own a deal: the people who sell. */
const OWNER_ROLES = ['sales', 'sales_manager'] as const;

// ---------------------------------------------------------------------------------------------------------
// Answers
// ---------------------------------------------------------------------------------------------------------

export function toStage(row: StageRow): PipelineStage {
  return {
    id: row.id,
    name: row.name,
    position: row.position,
    probability: row.probability,
    kind: row.kind as StageKind,
    milestone: (row.milestone as StageMilestone | null) ?? null,
  };
}

function toDeal(row: DealListRow, lines: DealLineRow[], staleBefore: Date): Deal {
  const { deal, stage } = row;
  const probability = effectiveProbability(deal, stage);
  return {
    id: deal.id,
    customerId: deal.customerId,
    customerName: row.customerName,
    title: deal.title,
    ownerId: deal.ownerId,
    ownerName: `${row.ownerFirstName} ${row.ownerLastName}`.trim(),
    stageId: stage.id,
    stageName: stage.name,
    stageKind: stage.kind as StageKind,
    amount: centsToAmount(deal.amountCents),
    weightedAmount: centsToAmount(weightedCents(deal.amountCents, probability)),
    expectedCloseDate: deal.expectedCloseDate,
    flightStart: deal.flightStart,
    flightEnd: deal.flightEnd,
    probability,
    probabilityOverridden: deal.probability !== null,
    source: deal.source as Deal['source'],
    lostReason: deal.lostReason,
    nextStep: deal.nextStep,
    contractId: deal.contractId,
    contractTitle: row.contractTitle,
    contractStatus: row.contractStatus,
    renewalOfContractId: deal.renewalOfContractId,
    lines: lines.map((line) => ({
      productId: line.productId,
      productName: line.productName,
      quantity: line.quantity,
      unitPrice: centsToAmount(line.unitPriceCents),
    })),
    stale: stage.kind === 'open' && deal.lastActivityAt < staleBefore,
    lastActivityAt: deal.lastActivityAt.toISOString(),
    closedAt: deal.closedAt?.toISOString() ?? null,
    version: deal.version,
    createdAt: deal.createdAt.toISOString(),
    updatedAt: deal.updatedAt.toISOString(),
  };
}

/** The moment before which an open deal without activity is stale (rottenDays ago). */
async function staleBefore(db: Db): Promise<Date> {
  const { rottenDays } = await getSettings(db, 'pipeline');
  return new Date(Date.now() - rottenDays * 86_400_000);
}

/** The deals a caller sees: every deal with `deal:any`, else their own. */
function scopeOf(actor: Actor): Pick<DealFilter, 'ownerId'> {
  return can(actor, 'deal:any') ? {} : { ownerId: actor.id };
}

function filterOf(actor: Actor, query: Partial<DealListQuery>, before: Date): DealFilter {
  const scope = scopeOf(actor);
  return {
    q: query.q?.trim() || undefined,
    stageId: query.stage,
    kind: query.status,
    ownerId: scope.ownerId ?? query.ownerId,
    customerId: query.customerId,
    source: query.source,
    closeFrom: query.closeFrom,
    closeTo: query.closeTo,
    stale: query.stale === undefined ? undefined : { value: query.stale, before },
  };
}

async function linesByDeal(db: Db, ids: readonly string[]): Promise<Map<string, DealLineRow[]>> {
  const byDeal = new Map<string, DealLineRow[]>(ids.map((id) => [id, []]));
  for (const line of await selectDealLines(db, ids)) byDeal.get(line.dealId)?.push(line);
  return byDeal;
}

/** A page of the deals the caller sees, with their lines: four statements whatever the page size. */
export async function listDeals(
  db: Db,
  actor: Actor,
  query: DealListQuery,
): Promise<{ rows: Deal[]; total: number; totalIsLowerBound: boolean }> {
  const before = await staleBefore(db);
  const page = await selectDealPage(db, filterOf(actor, query, before), query);
  const lines = await linesByDeal(
    db,
    page.rows.map((row) => row.deal.id),
  );
  return {
    rows: page.rows.map((row) => toDeal(row, lines.get(row.deal.id) ?? [], before)),
    total: page.total,
    totalIsLowerBound: page.totalIsLowerBound,
  };
}

/** The deal, when the caller may see it (404 otherwise: a deal outside one's scope does not exist for one). */
async function readDeal(db: Db, actor: Actor, id: string): Promise<DealListRow> {
  const row = await selectDeal(db, id);
  if (!row) throw notFound('Deal');
  const scope = scopeOf(actor);
  if (scope.ownerId && row.deal.ownerId !== scope.ownerId) throw notFound('Deal');
  return row;
}

async function answer(db: Db, id: string): Promise<Deal> {
  const row = await selectDeal(db, id);
  if (!row) throw notFound('Deal');
  const lines = await linesByDeal(db, [id]);
  return toDeal(row, lines.get(id) ?? [], await staleBefore(db));
}

export async function getDeal(db: Db, actor: Actor, id: string): Promise<Deal> {
  await readDeal(db, actor, id);
  return answer(db, id);
}

/**
 * An activity was logged, changed or done on these deals (the activities module calls this in its transaction):
 * their last activity is now, so they are no longer stale.
 */
export async function touchDeals(tx: Db, dealIds: readonly (string | null)[]): Promise<void> {
  const ids = [...new Set(dealIds.filter((id): id is string => Boolean(id)))];
  await touchDealActivity(tx, ids, new Date());
}

/** The board's headers: each stage's count, total and weighted total over the deals the filters pick. */
export async function pipelineSummary(db: Db, actor: Actor, query: DealListQuery): Promise<PipelineSummary> {
  const totals = await selectStageTotals(db, filterOf(actor, { ...query, stage: undefined }, await staleBefore(db)));
  const stages = totals.map((row) => ({
    ...toStage(row.stage),
    count: row.count,
    total: centsToAmount(row.totalCents),
    weighted: centsToAmount(row.weightedCents),
  }));
  const sum = (pick: (row: (typeof totals)[number]) => number) => totals.reduce((a, row) => a + pick(row), 0);
  return {
    stages,
    totals: {
      count: sum((row) => row.count),
      total: centsToAmount(sum((row) => row.totalCents)),
      weighted: centsToAmount(sum((row) => row.weightedCents)),
    },
  };
}

// ---------------------------------------------------------------------------------------------------------
// Changes
// ---------------------------------------------------------------------------------------------------------

/** The owner a deal gets: the caller, or whom a manager names (an active rep or sales manager). */
async function resolveOwner(db: Db, actor: Actor, ownerId: string | null | undefined, current: string | null) {
  const wanted = ownerId ?? current ?? actor.id;
  if (wanted !== (current ?? actor.id) && !can(actor, 'deal:any')) throw forbidden(DEAL_MESSAGES.ownerOthers);
  const [owner] = await selectUsersWithRoles(db, [wanted], OWNER_ROLES);
  if (!owner) throw badRequest(DEAL_MESSAGES.ownerNotRep, { ownerId: [DEAL_MESSAGES.ownerNotRep] });
  return owner.id;
}

async function checkProducts(tx: Db, lines: readonly { productId: string }[]): Promise<void> {
  const ids = [...new Set(lines.map((line) => line.productId))];
  const found = await selectProductIds(tx, ids);
  const fieldErrors: Record<string, string[]> = {};
  lines.forEach((line, index) => {
    if (!found.has(line.productId)) fieldErrors[`lines.${index}.productId`] = [DEAL_MESSAGES.productNotFound];
  });
  if (Object.keys(fieldErrors).length) throw badRequest(DEAL_MESSAGES.productNotFound, fieldErrors);
}

function stageOf(stages: readonly StageRow[], id: string): StageRow {
  const stage = stages.find((s) => s.id === id);
  if (!stage) throw badRequest(DEAL_MESSAGES.stageNotFound, { stageId: [DEAL_MESSAGES.stageNotFound] });
  return stage;
}

export async function createDeal(db: Db, actor: Actor, input: DealCreateValues): Promise<Deal> {
  const stages = await selectStages(db);
  const stage = input.stageId ? stageOf(stages, input.stageId) : stages.find((s) => s.kind === 'open');
  if (stage?.kind !== 'open') {
    throw badRequest(DEAL_MESSAGES.newDealOpenStage, { stageId: [DEAL_MESSAGES.newDealOpenStage] });
  }
  const ownerId = await resolveOwner(db, actor, input.ownerId, null);
  if (input.customerId && !(await customerExists(db, input.customerId))) {
    throw badRequest('Customer not found', { customerId: ['Customer not found'] });
  }
  const id = await db.transaction(async (tx) => {
    const customerId =
      input.customerId ?? (await createCustomer(tx, actor, createCustomerSchema.parse(input.prospect))).id;
    await checkProducts(tx, input.lines);
    const row = await insertDeal(tx, {
      customerId,
      title: input.title,
      ownerId,
      stageId: stage.id,
      amountCents: input.amount,
      expectedCloseDate: input.expectedCloseDate,
      flightStart: input.flightStart,
      flightEnd: input.flightEnd,
      probability: input.probability,
      source: input.source,
      nextStep: input.nextStep,
      createdBy: actor.id,
    });
    await replaceDealLines(tx, row.id, input.lines);
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'deal.created',
      entity: 'deal',
      entityId: row.id,
      after: { title: row.title, stage: stage.name, amountCents: row.amountCents, customerId },
    });
    return row.id;
  });
  return answer(db, id);
}

type Move = { to: StageRow; reason?: string | null };

/**
 * The columns a move sets, by the rules of product.md section 19: among open stages freely; a won deal stays
 * won (its contract decides); Won needs a linked contract that is signed or active; Lost needs a reason from
 * the settings' list; a lost deal moved back to an open stage is reopened.
 */
async function moveColumns(db: Db, deal: DealRow, from: StageRow, move: Move): Promise<Partial<DealRow>> {
  const { to } = move;
  if (from.kind === 'won' && to.id !== from.id) throw conflict(DEAL_MESSAGES.wonStays);
  if (to.kind === 'won') {
    const standing = deal.contractId ? await selectContractStanding(db, deal.contractId) : undefined;
    const signed = standing && (standing.signed || ['active', 'paused', 'completed'].includes(standing.status));
    if (!signed) throw conflict(DEAL_MESSAGES.wonNeedsContract);
    return { stageId: to.id, closedAt: new Date(), lostReason: null };
  }
  if (to.kind === 'lost') {
    const reason = move.reason?.trim();
    if (!reason) throw badRequest(DEAL_MESSAGES.reasonRequired, { reason: [DEAL_MESSAGES.reasonRequired] });
    const { lostReasons } = await getSettings(db, 'pipeline');
    const known = lostReasons.find((r) => r.toLowerCase() === reason.toLowerCase());
    if (!known) throw badRequest(DEAL_MESSAGES.reasonUnknown, { reason: [DEAL_MESSAGES.reasonUnknown] });
    return { stageId: to.id, closedAt: new Date(), lostReason: known };
  }
  return { stageId: to.id, closedAt: null, lostReason: null };
}

async function saveChange(
  db: Db,
  actor: Actor,
  row: DealListRow,
  version: number | undefined,
  set: Partial<DealRow>,
  audit: { action: string; before: Record<string, unknown>; after: Record<string, unknown> },
  lines?: DealPatchValues['lines'],
): Promise<Deal> {
  await db.transaction(async (tx) => {
    if (lines) await checkProducts(tx, lines);
    const updated = await updateDealAtVersion(tx, row.deal.id, version ?? row.deal.version, set);
    if (!updated) throw conflict(DEAL_MESSAGES.changedMeanwhile);
    if (lines) await replaceDealLines(tx, row.deal.id, lines);
    await recordAudit(tx, { actorId: actor.id, entity: 'deal', entityId: row.deal.id, ...audit });
    if (audit.action === 'deal.won' || audit.action === 'deal.lost') {
      await emitWebhookEvent(tx, audit.action, { ids: [row.deal.id] });
    }
  });
  return answer(db, row.deal.id);
}

export async function moveDeal(db: Db, actor: Actor, id: string, input: DealMoveValues): Promise<Deal> {
  const row = await readDeal(db, actor, id);
  const stages = await selectStages(db);
  const to = stageOf(stages, input.stageId);
  if (to.id === row.stage.id && (to.kind !== 'lost' || !input.reason)) return answer(db, id);
  const set = await moveColumns(db, row.deal, row.stage, { to, reason: input.reason });
  // The audit action, and the webhook event of a deal closed.
  const action = to.kind === 'won' ? 'deal.won' : to.kind === 'lost' ? 'deal.lost' : 'deal.moved';
  return saveChange(db, actor, row, input.version, set, {
    action,
    before: { stage: row.stage.name },
    after: { stage: to.name, ...(set.lostReason ? { reason: set.lostReason } : {}) },
  });
}

export async function loseDeal(db: Db, actor: Actor, id: string, input: DealLoseValues): Promise<Deal> {
  const lost = await selectStageBy(db, { kind: 'lost' });
  if (!lost) throw new AppError('CONFLICT', 'The pipeline has no lost stage');
  return moveDeal(db, actor, id, { stageId: lost.id, reason: input.reason, version: input.version });
}

export async function updateDeal(db: Db, actor: Actor, id: string, input: DealPatchValues): Promise<Deal> {
  const row = await readDeal(db, actor, id);
  const { deal } = row;
  const set: Partial<DealRow> = {};
  if (input.title !== undefined) set.title = input.title;
  if (input.amount !== undefined) set.amountCents = input.amount;
  if (input.expectedCloseDate !== undefined) set.expectedCloseDate = input.expectedCloseDate;
  if (input.flightStart !== undefined) set.flightStart = input.flightStart;
  if (input.flightEnd !== undefined) set.flightEnd = input.flightEnd;
  if (input.probability !== undefined) set.probability = input.probability;
  if (input.source !== undefined) set.source = input.source;
  if (input.nextStep !== undefined) set.nextStep = input.nextStep;
  const flightStart = set.flightStart !== undefined ? set.flightStart : deal.flightStart;
  const flightEnd = set.flightEnd !== undefined ? set.flightEnd : deal.flightEnd;
  if (flightStart && flightEnd && flightEnd < flightStart) {
    throw badRequest(DEAL_MESSAGES.flightOrder, { flightEnd: [DEAL_MESSAGES.flightOrder] });
  }
  if (input.ownerId !== undefined && input.ownerId !== deal.ownerId) {
    set.ownerId = await resolveOwner(db, actor, input.ownerId, deal.ownerId);
  }
  if (input.customerId !== undefined && input.customerId !== deal.customerId) {
    if (deal.contractId) throw conflict('The customer of a deal with a contract is its contract’s');
    if (!(await customerExists(db, input.customerId))) {
      throw badRequest('Customer not found', { customerId: ['Customer not found'] });
    }
    set.customerId = input.customerId;
  }
  const to =
    input.stageId !== undefined && input.stageId !== row.stage.id
      ? stageOf(await selectStages(db), input.stageId)
      : null;
  if (to) Object.assign(set, await moveColumns(db, deal, row.stage, { to }));
  const action =
    to?.kind === 'won' ? 'deal.won' : to?.kind === 'lost' ? 'deal.lost' : to ? 'deal.moved' : 'deal.updated';
  const before = pick(deal as unknown as Record<string, unknown>, Object.keys(set));
  return saveChange(
    db,
    actor,
    row,
    input.version,
    set,
    { action, before, after: { ...set } as Record<string, unknown> },
    input.lines,
  );
}

function pick(record: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(keys.map((key) => [key, record[key]]));
}

/** DELETE: only an open deal without a contract, and only as the caller last saw it. */
export async function deleteDeal(db: Db, actor: Actor, id: string, version?: number): Promise<void> {
  const row = await readDeal(db, actor, id);
  if (row.stage.kind !== 'open' || row.deal.contractId) throw conflict(DEAL_MESSAGES.deleteClosed);
  await db.transaction(async (tx) => {
    if (!(await deleteOpenDeal(tx, id, version ?? row.deal.version))) throw conflict(DEAL_MESSAGES.changedMeanwhile);
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'deal.deleted',
      entity: 'deal',
      entityId: id,
      before: { title: row.deal.title, stage: row.stage.name, amountCents: row.deal.amountCents },
    });
  });
}

// ---------------------------------------------------------------------------------------------------------
// The contract of a deal
// ---------------------------------------------------------------------------------------------------------

/** Whole months a flight spans, counted as the contract's term (Jan 1 - Mar 31: 3; Jan 15 - Feb 14: 1). */
export function flightMonths(start: string, end: string): number {
  const [sy, sm, sd] = start.split('-').map(Number);
  const [ey, em, ed] = end.split('-').map(Number);
  return Math.max(1, (ey - sy) * 12 + (em - sm) + (ed >= sd ? 1 : 0));
}

/**
 * "Create contract": a draft for the deal's customer and rep, starting on its flight start (today when none
 * or past), its term the flight's months, with the deal's lines; the deal linked to it and moved to the stage
 * that follows a drafted contract (Proposal). One transaction; a second call finds the contract (409).
 */
export async function createDealContract(deps: ContractDeps, actor: Actor, id: string): Promise<Deal> {
  const row = await readDeal(deps.db, actor, id);
  const { deal } = row;
  if (deal.contractId) throw conflict(DEAL_MESSAGES.hasContract);
  if (row.stage.kind !== 'open') throw conflict(DEAL_MESSAGES.closedNoContract);
  const today = businessToday();
  const startDate = deal.flightStart && deal.flightStart > today ? deal.flightStart : today;
  const lines = await selectDealLines(deps.db, [id]);
  if (lines.length === 0) throw badRequest(DEAL_MESSAGES.noLines, { lines: [DEAL_MESSAGES.noLines] });
  const parsed = contractBodySchema.safeParse({
    customerId: deal.customerId,
    title: deal.title,
    startDate,
    termMonths: deal.flightEnd && deal.flightEnd >= startDate ? flightMonths(startDate, deal.flightEnd) : null,
    paymentMode: 'pay_link',
    salesRepId: deal.ownerId,
    lineItems: lines.map((line) => ({
      productId: line.productId,
      quantity: line.quantity,
      unitPrice: centsToAmount(line.unitPriceCents),
    })),
  });
  // The deal's lines passed the contract's line rules when they were saved; a rule tightened since is said.
  if (!parsed.success) throw badRequest(parsed.error.issues.map((issue) => issue.message).join('; '));
  const body = parsed.data;
  const proposal = await selectStageBy(deps.db, { milestone: 'contract_drafted' });
  await deps.db.transaction(async (tx) => {
    const contract = await createContract({ ...deps, db: tx }, actor, body);
    const set: Partial<DealRow> = { contractId: contract.id };
    if (proposal && proposal.id !== row.stage.id && proposal.position > row.stage.position) set.stageId = proposal.id;
    const updated = await updateDealAtVersion(tx, id, deal.version, set);
    if (!updated) throw conflict(DEAL_MESSAGES.changedMeanwhile);
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'deal.contract_created',
      entity: 'deal',
      entityId: id,
      before: { stage: row.stage.name },
      after: { stage: set.stageId ? proposal!.name : row.stage.name, contractId: contract.id },
    });
  });
  return answer(deps.db, id);
}

// ---------------------------------------------------------------------------------------------------------
// The pipeline's settings
// ---------------------------------------------------------------------------------------------------------

export async function getPipelineSettings(db: Db): Promise<PipelineSettings> {
  const [stages, rules] = await Promise.all([selectStages(db), getSettings(db, 'pipeline')]);
  return { stages: stages.map(toStage), ...rules };
}

/**
 * PUT /api/settings/pipeline: the stages in the order given (new ones inserted, those left out removed, which
 * is refused while they hold deals), the lost reasons and rottenDays; under a lock of the stages, audited.
 */
export async function savePipelineSettings(
  db: Db,
  actor: Actor,
  input: PipelineSettingsValues,
): Promise<PipelineSettings> {
  await db.transaction(async (tx) => {
    const current = await lockStages(tx);
    const known = new Set(current.map((stage) => stage.id));
    input.stages.forEach((stage, index) => {
      if (stage.id && !known.has(stage.id)) {
        throw badRequest(DEAL_MESSAGES.stageNotFound, { [`stages.${index}.id`]: [DEAL_MESSAGES.stageNotFound] });
      }
    });
    const kept = new Set(input.stages.flatMap((stage) => (stage.id ? [stage.id] : [])));
    const removed = current.filter((stage) => !kept.has(stage.id));
    const counts = await countDealsInStages(
      tx,
      removed.map((stage) => stage.id),
    );
    for (const stage of removed) {
      const n = counts.get(stage.id) ?? 0;
      if (n > 0) {
        throw conflict(`Move the ${n} deal${n === 1 ? '' : 's'} out of “${stage.name}” before removing it`);
      }
    }
    await saveStages(
      tx,
      input.stages.map((stage) => ({ ...stage, id: stage.id ?? null })),
    );
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'pipeline.stages_updated',
      entity: 'settings',
      entityId: 'pipeline',
      before: { stages: current.map((stage) => `${stage.name} ${stage.probability}%`) },
      after: { stages: input.stages.map((stage) => `${stage.name} ${stage.probability}%`) },
    });
    await saveSettings(tx, actor, 'pipeline', { lostReasons: input.lostReasons, rottenDays: input.rottenDays });
  });
  return getPipelineSettings(db);
}

/** The open deals whose money lands in a window, for the forecast (its pipeline rows). */
export const openDealsLanding = selectOpenDealsLanding;
