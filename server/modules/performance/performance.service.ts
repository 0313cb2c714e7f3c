import { utcToday } from '@shared/billing';
import type { ListQuery } from '@shared/contracts/common';
import { canWriteContract } from '@shared/contracts/contract-access';
import { PERFORMANCE_MESSAGES, type PerformanceBody, type PerformanceEntry } from '@shared/contracts/performance';
import { and, eq, ne } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { contractPerformance, contracts } from '../../db/schema';
import { recordAudit } from '../../lib/audit';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors';
import { canSeeContract } from '../client-portal/client-scope';
import type { SessionUser } from '../sessions/sessions';
import {
  deleteMonth,
  lockMonth,
  type PerformanceListRow,
  selectPerformancePage,
  upsertMonth,
} from './performance.repo';

type ContractRow = typeof contracts.$inferSelect;

async function findVisible(db: Db, actor: SessionUser, contractId: string): Promise<ContractRow> {
  const [contract] = await db.select().from(contracts).where(eq(contracts.id, contractId)).limit(1);
  if (!contract || !canSeeContract(actor, contract)) throw notFound('Contract');
  return contract;
}

/** GET /api/contracts/{id}/performance: staff who may read the contract, and its client. */
export async function listContractPerformance(
  db: Db,
  actor: SessionUser,
  contractId: string,
  page: ListQuery,
): Promise<{ rows: PerformanceEntry[]; total: number }> {
  await findVisible(db, actor, contractId);
  const result = await selectPerformancePage(db, eq(contractPerformance.contractId, contractId), page);
  return { total: result.total, rows: result.rows.map(toEntry) };
}

/** GET /api/client/performance: the figures of the client's own (sent) contracts, newest month first. */
export async function listClientPerformance(
  db: Db,
  actor: SessionUser,
  page: ListQuery,
): Promise<{ rows: PerformanceEntry[]; total: number }> {
  if (!actor.customerId) return { rows: [], total: 0 };
  const where = and(eq(contracts.customerId, actor.customerId), ne(contracts.status, 'draft'))!;
  const result = await selectPerformancePage(db, where, page);
  return { total: result.total, rows: result.rows.map(toEntry) };
}

/**
 * PUT /api/contracts/{id}/performance/{month}: staff who may change the contract enter (or correct) a
 * month's figures. Months after the current one, and months before the contract's start, are refused.
 */
export async function recordPerformance(
  db: Db,
  actor: SessionUser,
  contractId: string,
  month: string,
  body: PerformanceBody,
): Promise<PerformanceEntry> {
  const contract = await assertWritable(db, actor, contractId);
  if (contract.status === 'draft') throw conflict(PERFORMANCE_MESSAGES.draft);
  if (month > utcToday().slice(0, 7))
    throw badRequest(PERFORMANCE_MESSAGES.future, { month: [PERFORMANCE_MESSAGES.future] });
  const startMonth = contract.startDate.slice(0, 7);
  if (month < startMonth) {
    const message = `The contract starts in ${startMonth}: figures can only be entered from that month on`;
    throw badRequest(message, { month: [message] });
  }
  const row = await db.transaction(async (tx) => {
    const before = await lockMonth(tx, contractId, month);
    const saved = await upsertMonth(tx, { contractId, month, ...body, updatedBy: actor.id });
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'performance.recorded',
      entity: 'contract',
      entityId: contractId,
      before: before ? figuresOf(before) : null,
      after: figuresOf(saved),
    });
    return saved;
  });
  return toEntry({
    entry: row,
    contractTitle: contract.title,
    updaterFirstName: actor.firstName,
    updaterLastName: actor.lastName,
  });
}

/** DELETE /api/contracts/{id}/performance/{month} */
export async function deletePerformance(db: Db, actor: SessionUser, contractId: string, month: string): Promise<void> {
  await assertWritable(db, actor, contractId);
  await db.transaction(async (tx) => {
    const deleted = await deleteMonth(tx, contractId, month);
    if (!deleted) throw notFound('Performance figures for this month');
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'performance.deleted',
      entity: 'contract',
      entityId: contractId,
      before: figuresOf(deleted),
    });
  });
}

async function assertWritable(db: Db, actor: SessionUser, contractId: string): Promise<ContractRow> {
  const contract = await findVisible(db, actor, contractId);
  if (!canWriteContract(actor, contract)) {
    throw forbidden("You don't have permission to enter figures for this contract");
  }
  return contract;
}

function figuresOf(row: { month: string; impressions: number; clicks: number; views: number }) {
  return { month: row.month, impressions: row.impressions, clicks: row.clicks, views: row.views };
}

function toEntry(row: PerformanceListRow): PerformanceEntry {
  return {
    contractId: row.entry.contractId,
    contractTitle: row.contractTitle,
    month: row.entry.month,
    impressions: row.entry.impressions,
    clicks: row.entry.clicks,
    views: row.entry.views,
    updatedAt: row.entry.updatedAt.toISOString(),
    updatedByName: row.updaterFirstName === null ? null : `${row.updaterFirstName} ${row.updaterLastName ?? ''}`.trim(),
  };
}
