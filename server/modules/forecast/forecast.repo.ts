import { and, eq, gte, inArray, lte, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  contracts,
  forecastMarks,
  forecastMonths,
  forecastSources,
  forecastTargets,
  forecastWindow,
  users,
} from '../../db/schema';
import { rowsOf } from '../../lib/db-rows';

export type BookedContractRow = typeof contracts.$inferSelect;

/**
 * The contracts whose money is booked: active ones, and sent ones whose insertion order is signed, still
 * running at `from` (no auto-stop date, or one after it), that have a rep; only these with `ids`.
 */
export async function selectBookedContracts(
  db: Db,
  filter: { from: string; ids?: readonly string[] },
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
    sql`${contracts.salesRepId} is not null`,
    filter.ids ? sql`${contracts.id} = any(${sql.param([...filter.ids])}::uuid[])` : undefined,
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

/** These (rep, month) targets removed, in one statement. */
export async function deleteTargets(tx: Db, rows: readonly { ownerId: string; month: string }[]): Promise<void> {
  await tx.execute(sql`
    delete from ${forecastTargets} t
    using unnest(${sql.param(rows.map((r) => r.ownerId))}::uuid[], ${sql.param(rows.map((r) => r.month))}::date[])
      as gone(owner_id, month)
    where t.owner_id = gone.owner_id and t.month = gone.month`);
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

/**
 * Whether the stored forecast months must be refreshed before a forecast starting on `firstDay`: a change has
 * marked a contract or deal, or they start at another month. One statement, no lock: most forecasts find nothing
 * to do.
 */
export async function forecastRefreshDue(db: Db, firstDay: string): Promise<boolean> {
  const result = await db.execute(sql`
    select exists (select 1 from ${forecastMarks})
        or not exists (select 1 from ${forecastWindow} where ${forecastWindow.fromMonth} = ${firstDay}::date)
        as due`);
  return rowsOf<{ due: boolean }>(result)[0]?.due ?? true;
}

export type ForecastMarks = {
  everyone: boolean;
  contractIds: string[];
  dealIds: string[];
  /** The first day the stored months start at; null before the first refresh. */
  fromMonth: string | null;
};

/**
 * Takes the refresh's lock (one refresh at a time, across instances, until the transaction ends) and the marks
 * written so far: the contracts and deals they name, or everyone; and the first day the stored months start at.
 */
export async function takeForecastMarks(tx: Db): Promise<ForecastMarks> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended('forecast-months', 0))`);
  const marks = await tx.delete(forecastMarks).returning();
  const [window] = await tx.select({ fromMonth: forecastWindow.fromMonth }).from(forecastWindow);
  const ids = (pick: (mark: (typeof marks)[number]) => string | null) => [
    ...new Set(marks.flatMap((mark) => pick(mark) ?? [])),
  ];
  return {
    everyone: marks.some((mark) => mark.everyone),
    contractIds: ids((mark) => mark.contractId),
    dealIds: ids((mark) => mark.dealId),
    fromMonth: window?.fromMonth ?? null,
  };
}

/** What one booked contract or open deal adds, by month of the window (index 0: its first month). */
export type ForecastSource = {
  contractId: string | null;
  dealId: string | null;
  repId: string;
  booked: readonly number[] | null;
  weighted: readonly number[] | null;
  pipeline: readonly number[] | null;
};

/** The sums by rep and month of a set of sources, signed, added to forecast_months (`sources` names the set). */
const addToMonths = (sources: SQL, sign: 1 | -1, firstDay: string, months: number) => sql`
  insert into ${forecastMonths} (rep_id, month, booked_cents, weighted_cents, pipeline_cents)
  select s.rep_id, (${firstDay}::date + (i - 1) * interval '1 month')::date,
         ${sign} * coalesce(sum(s.booked[i]), 0), ${sign} * coalesce(sum(s.weighted[i]), 0),
         ${sign} * coalesce(sum(s.pipeline[i]), 0)
  from ${sources} s cross join generate_series(1, ${months}::int) i
  group by 1, 2
  on conflict (rep_id, month) do update set
    booked_cents = ${forecastMonths.bookedCents} + excluded.booked_cents,
    weighted_cents = ${forecastMonths.weightedCents} + excluded.weighted_cents,
    pipeline_cents = ${forecastMonths.pipelineCents} + excluded.pipeline_cents`;

/**
 * The stored sources of these contracts and deals removed, and what they added taken off the months: one
 * statement. With 'everything', every source and month is removed instead (the window starts again).
 */
export async function removeForecastSources(
  tx: Db,
  which: 'everything' | { contractIds: readonly string[]; dealIds: readonly string[] },
  window: { firstDay: string; months: number },
): Promise<void> {
  if (which === 'everything') {
    await tx.delete(forecastSources);
    await tx.delete(forecastMonths);
    return;
  }
  await tx.execute(sql`
    with gone as (
      delete from ${forecastSources}
      where ${forecastSources.contractId} = any(${sql.param([...which.contractIds])}::uuid[])
         or ${forecastSources.dealId} = any(${sql.param([...which.dealIds])}::uuid[])
      returning rep_id, booked, weighted, pipeline
    )
    ${addToMonths(sql`gone`, -1, window.firstDay, window.months)}`);
}

/** These sources stored, and what they add put on the months; the window's first day set: two statements. */
export async function addForecastSources(
  tx: Db,
  sources: readonly ForecastSource[],
  window: { firstDay: string; months: number },
): Promise<void> {
  if (sources.length) {
    const column = <T>(pick: (source: ForecastSource) => T) => sql.param(sources.map(pick));
    const cents = (pick: (source: ForecastSource) => readonly number[] | null) =>
      column((source) => {
        const values = pick(source);
        return values === null ? null : `{${values.join(',')}}`;
      });
    await tx.execute(sql`
      with added as (
        insert into ${forecastSources} (contract_id, deal_id, rep_id, booked, weighted, pipeline)
        select u.contract_id, u.deal_id, u.rep_id, u.booked::bigint[], u.weighted::bigint[], u.pipeline::bigint[]
        from unnest(${column((s) => s.contractId)}::uuid[], ${column((s) => s.dealId)}::uuid[],
                    ${column((s) => s.repId)}::uuid[], ${cents((s) => s.booked)}::text[],
                    ${cents((s) => s.weighted)}::text[], ${cents((s) => s.pipeline)}::text[])
          as u(contract_id, deal_id, rep_id, booked, weighted, pipeline)
        returning rep_id, booked, weighted, pipeline
      )
      ${addToMonths(sql`added`, 1, window.firstDay, window.months)}`);
  }
  await tx
    .insert(forecastWindow)
    .values({ id: true, fromMonth: window.firstDay })
    .onConflictDoUpdate({ target: forecastWindow.id, set: { fromMonth: window.firstDay } });
}

export type StoredForecastMonth = {
  repId: string;
  /** The first day of the month. */
  month: string;
  bookedCents: number;
  weightedCents: number;
  pipelineCents: number;
};

/** The stored months from `from` to `to` (first days), a rep's own with `ownerId`. */
export async function selectForecastMonths(
  db: Db,
  filter: { from: string; to: string; ownerId?: string },
): Promise<StoredForecastMonth[]> {
  return db
    .select({
      repId: forecastMonths.repId,
      month: forecastMonths.month,
      bookedCents: forecastMonths.bookedCents,
      weightedCents: forecastMonths.weightedCents,
      pipelineCents: forecastMonths.pipelineCents,
    })
    .from(forecastMonths)
    .where(
      and(
        gte(forecastMonths.month, filter.from),
        lte(forecastMonths.month, filter.to),
        filter.ownerId ? eq(forecastMonths.repId, filter.ownerId) : undefined,
      ),
    );
}
