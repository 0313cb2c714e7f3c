import {
  type ApprovePayoutBody,
  type Commission,
  type CommissionExportQuery,
  type CommissionListQuery,
  type CommissionRep,
  type CommissionSummary,
  PAYOUT_MESSAGES,
  PAYOUT_STATUS_LABELS,
  type Payout,
  type PayoutListQuery,
  type PayoutStatus,
  type RejectPayoutBody,
  type RequestPayoutBody,
} from '@shared/contracts/commissions';
import { shortContractId } from '@shared/contracts/contract-vocabulary';
import { centsToAmount, formatCents } from '@shared/money';
import { can } from '@shared/permissions';
import { basisPointsToFraction } from '@shared/rates';
import type { Db } from '../../db/client';
import { recordAudit } from '../../lib/audit';
import { badRequest, conflict, notFound } from '../../lib/errors';
import type { Mailer } from '../../lib/mailer';
import type { SessionUser } from '../sessions/sessions';
import { emitWebhookEvent } from '../webhooks/webhook-events';
import { commissionsCsv } from './commissions.csv';
import {
  allocateToPayout,
  approvePayoutRow,
  type CommissionHistoryRow,
  disbursePayoutRow,
  insertPayout,
  lockRep,
  markPayoutCommissionDisbursed,
  type PayoutListRow,
  type PayoutRow,
  type RepScope,
  rejectPayoutRow,
  releaseAllFromPayout,
  releaseFromPayout,
  selectAvailableCents,
  selectCommissionHistory,
  selectCommissionPage,
  selectPayout,
  selectPayoutPage,
  selectReps,
  selectSummary,
} from './commissions.repo';
import { notifyPayoutEvent } from './payouts.notify';

type Actor = SessionUser;

/**
 * What payout changes need beyond the database: the outbox (for notification e-mails), the public origin,
 * and the time of the change (now; the demo seed replays a history with earlier times).
 */
export type PayoutDeps = { db: Db; mailer: Mailer; baseUrl: string; now?: () => Date };

const clock = (deps: PayoutDeps) => deps.now?.() ?? new Date();

const PAYOUT = 'Payout';

/**
 * Whose commission the caller sees: holders of commission:read:any every rep's (or the one they name),
 * a sales rep only their own. A rep naming another rep sees nothing (the filter and the scope both apply).
 */
function scopeFor(actor: Actor, repId: string | undefined): RepScope & { none?: boolean } {
  if (can(actor, 'commission:read:any')) return { repId };
  if (repId && repId !== actor.id) return { repId: actor.id, none: true };
  return { repId: actor.id };
}

// ---------------------------------------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------------------------------------

export async function getSummary(db: Db, actor: Actor, repId: string | undefined): Promise<CommissionSummary> {
  const scope = scopeFor(actor, repId);
  const cents = scope.none
    ? { available: 0, requested: 0, disbursed: 0, thisMonth: 0, total: 0 }
    : await selectSummary(db, scope);
  return {
    available: centsToAmount(cents.available),
    pending: centsToAmount(cents.requested),
    requested: centsToAmount(cents.requested),
    disbursed: centsToAmount(cents.disbursed),
    thisMonth: centsToAmount(cents.thisMonth),
    total: centsToAmount(cents.total),
  };
}

export async function listCommissions(
  db: Db,
  actor: Actor,
  query: CommissionListQuery,
): Promise<{ rows: Commission[]; total: number }> {
  const scope = scopeFor(actor, query.repId);
  if (scope.none) return { rows: [], total: 0 };
  const page = await selectCommissionPage(db, {
    ...scope,
    status: query.status,
    limit: query.limit,
    offset: query.offset,
  });
  return { total: page.total, rows: page.rows.map(toCommission) };
}

/** The CSV of exactly the filtered history: one line per commission row, newest first. */
export async function exportCommissions(db: Db, actor: Actor, query: CommissionExportQuery): Promise<string> {
  const scope = scopeFor(actor, query.repId);
  const rows = scope.none ? [] : await selectCommissionHistory(db, { ...scope, status: query.status });
  return commissionsCsv(rows);
}

export async function listPayouts(
  db: Db,
  actor: Actor,
  query: PayoutListQuery,
): Promise<{ rows: Payout[]; total: number }> {
  const scope = scopeFor(actor, query.repId);
  if (scope.none) return { rows: [], total: 0 };
  const statuses = query.status === 'open' ? ['pending', 'approved'] : query.status ? [query.status] : undefined;
  const page = await selectPayoutPage(db, { ...scope, statuses, limit: query.limit, offset: query.offset });
  return { total: page.total, rows: page.rows.map(toPayout) };
}

/** One payout; 404 for a payout the caller may not see (another rep's). */
export async function getPayout(db: Db, actor: Actor, id: string): Promise<Payout> {
  const row = await selectPayout(db, id);
  if (!row || !canSeePayout(actor, row.payout)) throw notFound(PAYOUT);
  return toPayout(row);
}

export async function listReps(db: Db): Promise<CommissionRep[]> {
  const rows = await selectReps(db);
  return rows.map((r) => ({ id: r.id, name: `${r.firstName} ${r.lastName}`.trim(), email: r.email }));
}

function canSeePayout(actor: Actor, payout: PayoutRow): boolean {
  return can(actor, 'commission:read:any') || can(actor, 'payout:review') || payout.repId === actor.id;
}

// ---------------------------------------------------------------------------------------------------------
// Payout request and review: each one transaction, decided by a lock or a conditional UPDATE
// ---------------------------------------------------------------------------------------------------------

/**
 * A sales rep asks to be paid `requestedAmount` of their available commission. Requests of one rep are
 * serialised by locking the rep's user row; under that lock the amount is checked against what is
 * available and the commission taken (oldest first) in the same transaction, so concurrent requests can
 * never take more than is available.
 */
export async function requestPayout(deps: PayoutDeps, actor: Actor, input: RequestPayoutBody): Promise<Payout> {
  const requestedCents = input.requestedAmount;
  const id = await deps.db.transaction(async (tx) => {
    const rep = await lockRep(tx, actor.id);
    const available = await selectAvailableCents(tx, actor.id);
    if (available <= 0) throw conflict(PAYOUT_MESSAGES.nothingAvailable);
    if (requestedCents > available) {
      throw conflict(`${PAYOUT_MESSAGES.amountExceedsAvailable} (${formatCents(available)} available)`);
    }
    const payout = await insertPayout(tx, actor.id, requestedCents, clock(deps));
    await allocateToPayout(tx, actor.id, payout.id, requestedCents);
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'payout.requested',
      entity: 'payout',
      entityId: payout.id,
      after: { status: payout.status, requestedCents, availableBeforeCents: available },
    });
    await notifyPayoutEvent(tx, deps.baseUrl, 'requested', { payout, repName: fullName(rep) });
    return payout.id;
  });
  deps.mailer.kick(deps.db);
  return getPayout(deps.db, actor, id);
}

/** pending -> approved for at most the requested amount; the rest of the request returns to available. */
export async function approvePayout(
  deps: PayoutDeps,
  actor: Actor,
  id: string,
  input: ApprovePayoutBody,
): Promise<Payout> {
  const approvedCents = input.approvedAmount;
  await deps.db.transaction(async (tx) => {
    const updated = await approvePayoutRow(tx, id, approvedCents, actor.id, clock(deps));
    if (!updated) throw await refusal(tx, id, 'approve', approvedCents);
    await releaseFromPayout(tx, id, updated.requestedCents - approvedCents);
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'payout.approved',
      entity: 'payout',
      entityId: id,
      before: { status: 'pending' },
      after: {
        status: updated.status,
        requestedCents: updated.requestedCents,
        approvedCents,
        returnedCents: updated.requestedCents - approvedCents,
      },
    });
    await notifyPayoutEvent(tx, deps.baseUrl, 'approved', { payout: updated });
  });
  deps.mailer.kick(deps.db);
  return getPayout(deps.db, actor, id);
}

/** pending -> rejected with a reason; all of the request returns to available. */
export async function rejectPayout(
  deps: PayoutDeps,
  actor: Actor,
  id: string,
  input: RejectPayoutBody,
): Promise<Payout> {
  await deps.db.transaction(async (tx) => {
    const updated = await rejectPayoutRow(tx, id, input.reason, actor.id, clock(deps));
    if (!updated) throw await refusal(tx, id, 'reject');
    await releaseAllFromPayout(tx, id);
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'payout.rejected',
      entity: 'payout',
      entityId: id,
      before: { status: 'pending' },
      after: { status: updated.status, requestedCents: updated.requestedCents, reason: updated.rejectReason },
    });
    await notifyPayoutEvent(tx, deps.baseUrl, 'rejected', { payout: updated });
  });
  deps.mailer.kick(deps.db);
  return getPayout(deps.db, actor, id);
}

/** approved -> disbursed: the approved commission has been paid to the rep. */
export async function disbursePayout(deps: PayoutDeps, actor: Actor, id: string): Promise<Payout> {
  await deps.db.transaction(async (tx) => {
    const updated = await disbursePayoutRow(tx, id, actor.id, clock(deps));
    if (!updated) throw await refusal(tx, id, 'disburse');
    await markPayoutCommissionDisbursed(tx, id);
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'payout.disbursed',
      entity: 'payout',
      entityId: id,
      before: { status: 'approved' },
      after: { status: updated.status, approvedCents: updated.approvedCents },
    });
    await notifyPayoutEvent(tx, deps.baseUrl, 'disbursed', { payout: updated });
    await emitWebhookEvent(tx, 'payout.disbursed', { ids: [id] });
  });
  deps.mailer.kick(deps.db);
  return getPayout(deps.db, actor, id);
}

type ReviewAction = 'approve' | 'reject' | 'disburse';

const ALLOWED_FROM: Record<ReviewAction, PayoutStatus> = {
  approve: 'pending',
  reject: 'pending',
  disburse: 'approved',
};

/**
 * Why a conditional UPDATE changed nothing: the payout does not exist (404), its status does not allow
 * the action (409 naming the status), or the approved amount is above the requested one (400).
 * Only explains the refusal; the UPDATE's row count decided it.
 */
async function refusal(tx: Db, id: string, action: ReviewAction, approvedCents?: number) {
  const row = await selectPayout(tx, id);
  if (!row) return notFound(PAYOUT);
  const { status, requestedCents } = row.payout;
  if (status !== ALLOWED_FROM[action]) {
    const label = PAYOUT_STATUS_LABELS[status as PayoutStatus]?.toLowerCase() ?? status;
    const hint =
      action === 'disburse'
        ? 'Only approved payouts can be marked disbursed.'
        : 'Only pending payouts can be reviewed.';
    return conflict(`This payout is already ${label}, so it cannot be ${ACTION_DONE[action]}. ${hint}`);
  }
  if (approvedCents !== undefined && approvedCents > requestedCents) {
    const message = `${PAYOUT_MESSAGES.approvedExceedsRequested} (${formatCents(requestedCents)})`;
    return badRequest(message, { approvedAmount: [message] });
  }
  return conflict('The payout changed while it was being reviewed. Reload and try again.');
}

const ACTION_DONE: Record<ReviewAction, string> = {
  approve: 'approved',
  reject: 'rejected',
  disburse: 'marked disbursed',
};

// ---------------------------------------------------------------------------------------------------------
// Views
// ---------------------------------------------------------------------------------------------------------

function fullName(person: { firstName: string | null; lastName: string | null }): string | null {
  const name = `${person.firstName ?? ''} ${person.lastName ?? ''}`.trim();
  return name || null;
}

function toCommission(row: CommissionHistoryRow): Commission {
  return {
    id: row.id,
    createdAt: row.earnedAt.toISOString(),
    status: row.status as Commission['status'],
    amount: centsToAmount(Number(row.amountCents)),
    rate: basisPointsToFraction(row.rateBp),
    baseAmount: centsToAmount(Number(row.baseCents)),
    invoiceId: row.invoiceId,
    invoiceNumber: row.invoiceNumber,
    contractId: row.contractId,
    contractShortId: shortContractId(row.contractId),
    contractTitle: row.contractTitle ?? row.contractDescription,
    customerId: row.customerId,
    customerName: row.customerName,
    repId: row.repId,
    repName: fullName({ firstName: row.repFirstName, lastName: row.repLastName }),
    payoutId: row.payoutId,
  };
}

function toPayout(row: PayoutListRow): Payout {
  const p = row.payout;
  return {
    id: p.id,
    repId: p.repId,
    repName: fullName({ firstName: row.repFirstName, lastName: row.repLastName }),
    status: p.status as PayoutStatus,
    requestedAt: p.requestedAt.toISOString(),
    requestedAmount: centsToAmount(Number(p.requestedCents)),
    approvedAmount: p.approvedCents === null ? null : centsToAmount(Number(p.approvedCents)),
    rejectReason: p.rejectReason,
    reviewedAt: p.reviewedAt?.toISOString() ?? null,
    reviewedByName: fullName({ firstName: row.reviewerFirstName, lastName: row.reviewerLastName }),
    disbursedAt: p.disbursedAt?.toISOString() ?? null,
  };
}
