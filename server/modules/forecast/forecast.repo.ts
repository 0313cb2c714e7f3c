import { and, eq, gte, inArray, lte, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { contracts, forecastTargets, users } from '../../db/schema';

export type BookedContractRow = typeof contracts.$inferSelect;

/**
 * The contracts whose money is booked: active ones, and sent ones whose insertion order is signed, still
 * running at `from` (no auto-stop date, or one after it); a rep's own with `ownerId`.
 */
export async function selectBookedContracts(
  db: Db,
  filter: { from: string; ownerId?: string },
): Promise<BookedContractRow[]> {
  const conditions: (SQL | undefined)[] = [
    or(
      eq(contracts.status, 'active'),
      and(
        eq(contracts.status, 'sent'),
        sql`exists (select 1 from insertion_orders io where io.contract_id = ${contracts.id} and io.status = 'accepted')`,
      ),
    ),
    sql`(${contracts.autoStopDate} is null or ${contracts.autoStopDate} > ${filter.from}::date)`,
    filter.ownerId ? eq(contracts.salesRepId, filter.ownerId) : undefined,
  ];
  return db
    .select()
    .from(contracts)
    .where(and(...conditions));
}

/** The targets of the months from `from` to `to` (first days), a rep's own with `ownerId`. */
export async function selectTargets(
  db: Db,
  filter: { from: string; to: string; ownerId?: string },
): Promise<{ ownerId: string; month: string; amountCents: number }[]> {
  return db
    .select({
      ownerId: forecastTargets.ownerId,
      month: forecastTargets.month,
      amountCents: forecastTargets.amountCents,
    })
    .from(forecastTargets)
    .where(
      and(
        gte(forecastTargets.month, filter.from),
        lte(forecastTargets.month, filter.to),
        filter.ownerId ? eq(forecastTargets.ownerId, filter.ownerId) : undefined,
      ),
    );
}

/** The active people who sell (reps and sales managers), and any other user named, with their names. */
export async function selectSellers(
  db: Db,
  also: readonly string[],
): Promise<{ id: string; firstName: string; lastName: string; role: string }[]> {
  const who = [sql`(${users.isActive} and ${users.role} in ('sales', 'sales_manager'))`];
  if (also.length) who.push(inArray(users.id, [...also]));
  return db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, role: users.role })
    .from(users)
    .where(or(...who));
}

/** The given targets set, in one upsert. */
export async function upsertTargets(
  tx: Db,
  rows: readonly { ownerId: string; month: string; amountCents: number }[],
  updatedBy: string,
): Promise<void> {
  await tx
    .insert(forecastTargets)
    .values(rows.map((row) => ({ ...row, updatedBy })))
    .onConflictDoUpdate({
      target: [forecastTargets.ownerId, forecastTargets.month],
      set: { amountCents: sql`excluded.amount_cents`, updatedBy, updatedAt: new Date() },
    });
}
