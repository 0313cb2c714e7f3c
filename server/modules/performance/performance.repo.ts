import { and, count, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { contractPerformance, contracts, users } from '../../db/schema';

export type PerformanceRow = typeof contractPerformance.$inferSelect;
export type PerformanceListRow = {
  entry: PerformanceRow;
  contractTitle: string | null;
  updaterFirstName: string | null;
  updaterLastName: string | null;
};

/** A page of figures, newest month first (then by contract), with the contract's title and who entered them. */
export async function selectPerformancePage(
  db: Db,
  where: SQL,
  page: { limit: number; offset: number },
): Promise<{ rows: PerformanceListRow[]; total: number }> {
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({
        entry: contractPerformance,
        contractTitle: contracts.title,
        updaterFirstName: users.firstName,
        updaterLastName: users.lastName,
      })
      .from(contractPerformance)
      .innerJoin(contracts, eq(contracts.id, contractPerformance.contractId))
      .leftJoin(users, eq(users.id, contractPerformance.updatedBy))
      .where(where)
      .orderBy(desc(contractPerformance.month), desc(contracts.createdAt), desc(contractPerformance.id))
      .limit(page.limit)
      .offset(page.offset),
    db
      .select({ total: count() })
      .from(contractPerformance)
      .innerJoin(contracts, eq(contracts.id, contractPerformance.contractId))
      .where(where),
  ]);
  return { rows, total };
}

/** The month's row, locked until the transaction ends (the audit trail's "before"). */
export async function lockMonth(tx: Db, contractId: string, month: string): Promise<PerformanceRow | undefined> {
  const [row] = await tx
    .select()
    .from(contractPerformance)
    .where(and(eq(contractPerformance.contractId, contractId), eq(contractPerformance.month, month)))
    .for('update');
  return row;
}

/** One statement: the month's figures inserted, or replaced when the month already has some. */
export async function upsertMonth(
  tx: Db,
  values: { contractId: string; month: string; impressions: number; clicks: number; views: number; updatedBy: string },
): Promise<PerformanceRow> {
  const [row] = await tx
    .insert(contractPerformance)
    .values(values)
    .onConflictDoUpdate({
      target: [contractPerformance.contractId, contractPerformance.month],
      set: {
        impressions: values.impressions,
        clicks: values.clicks,
        views: values.views,
        updatedBy: values.updatedBy,
        updatedAt: sql`now()`,
      },
    })
    .returning();
  return row;
}

export async function deleteMonth(tx: Db, contractId: string, month: string): Promise<PerformanceRow | undefined> {
  const [row] = await tx
    .delete(contractPerformance)
    .where(and(eq(contractPerformance.contractId, contractId), eq(contractPerformance.month, month)))
    .returning();
  return row;
}
