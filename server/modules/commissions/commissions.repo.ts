import { aliasedTable, and, count, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { commissions, contracts, customers, invoices, payouts, users } from '../../db/schema';
import { rowsOf } from '../../lib/db-rows';

export type PayoutRow = typeof payouts.$inferSelect;

/** Whose rows a query may see: one rep (`repId`), or every rep (undefined). */
export type RepScope = { repId?: string };

// ---------------------------------------------------------------------------------------------------------
// Summary: one aggregate over the ledger (commissions_rep_status_idx / commissions_status_idx)
// ---------------------------------------------------------------------------------------------------------

export type SummaryCents = {
  available: number;
  requested: number;
  disbursed: number;
  thisMonth: number;
  total: number;
};

export async function selectSummary(db: Db, scope: RepScope): Promise<SummaryCents> {
  const where = scope.repId ? sql`where rep_id = ${scope.repId}` : sql``;
  const result = await db.execute(sql`
    select
      coalesce(sum(amount_cents) filter (where status in ('available', 'adjusted')), 0)::bigint as available,
      coalesce(sum(amount_cents) filter (where status = 'requested'), 0)::bigint as requested,
      coalesce(sum(amount_cents) filter (where status = 'disbursed'), 0)::bigint as disbursed,
      coalesce(sum(amount_cents) filter (where earned_at >= date_trunc('month', now())), 0)::bigint as this_month,
      coalesce(sum(amount_cents), 0)::bigint as total
    from commissions
    ${where}`);
  const row = rowsOf<Record<string, string | number>>(result)[0];
  return {
    available: Number(row.available),
    requested: Number(row.requested),
    disbursed: Number(row.disbursed),
    thisMonth: Number(row.this_month),
    total: Number(row.total),
  };
}

// ---------------------------------------------------------------------------------------------------------
// History
// ---------------------------------------------------------------------------------------------------------

export type CommissionFilter = RepScope & { status?: string };

const rep = aliasedTable(users, 'rep');

const historyColumns = {
  id: commissions.id,
  earnedAt: commissions.earnedAt,
  status: commissions.status,
  amountCents: commissions.amountCents,
  rateBp: commissions.rateBp,
  baseCents: commissions.baseCents,
  invoiceId: commissions.invoiceId,
  invoiceNumber: invoices.number,
  contractId: commissions.contractId,
  contractTitle: contracts.title,
  contractDescription: contracts.description,
  customerId: customers.id,
  customerName: customers.name,
  repId: commissions.repId,
  repFirstName: rep.firstName,
  repLastName: rep.lastName,
  payoutId: commissions.payoutId,
};

export type CommissionHistoryRow = {
  id: string;
  earnedAt: Date;
  status: string;
  amountCents: number;
  rateBp: number;
  baseCents: number;
  invoiceId: string;
  invoiceNumber: string | null;
  contractId: string;
  contractTitle: string | null;
  contractDescription: string | null;
  customerId: string | null;
  customerName: string | null;
  repId: string;
  repFirstName: string | null;
  repLastName: string | null;
  payoutId: string | null;
};

function commissionWhere(filter: CommissionFilter): SQL | undefined {
  const conditions: SQL[] = [];
  if (filter.repId) conditions.push(eq(commissions.repId, filter.repId));
  if (filter.status) conditions.push(eq(commissions.status, filter.status));
  return conditions.length ? and(...conditions) : undefined;
}

function historyQuery(db: Db, filter: CommissionFilter) {
  return db
    .select(historyColumns)
    .from(commissions)
    .leftJoin(invoices, eq(invoices.id, commissions.invoiceId))
    .leftJoin(contracts, eq(contracts.id, commissions.contractId))
    .leftJoin(customers, eq(customers.id, invoices.customerId))
    .leftJoin(rep, eq(rep.id, commissions.repId))
    .where(commissionWhere(filter))
    .orderBy(desc(commissions.earnedAt), desc(commissions.id))
    .$dynamic();
}

/** One statement for the page (names joined in) and one for the total. */
export async function selectCommissionPage(
  db: Db,
  filter: CommissionFilter & { limit: number; offset: number },
): Promise<{ rows: CommissionHistoryRow[]; total: number }> {
  const [rows, [{ total }]] = await Promise.all([
    historyQuery(db, filter).limit(filter.limit).offset(filter.offset),
    db.select({ total: count() }).from(commissions).where(commissionWhere(filter)),
  ]);
  return { rows: rows as CommissionHistoryRow[], total };
}

/** Every row of the filtered history (the CSV export), in the list's order. */
export async function selectCommissionHistory(db: Db, filter: CommissionFilter): Promise<CommissionHistoryRow[]> {
  return (await historyQuery(db, filter)) as CommissionHistoryRow[];
}

// ---------------------------------------------------------------------------------------------------------
// Payouts
// ---------------------------------------------------------------------------------------------------------

export type PayoutFilter = RepScope & { statuses?: string[] };

const reviewer = aliasedTable(users, 'reviewer');

const payoutColumns = {
  payout: payouts,
  repFirstName: rep.firstName,
  repLastName: rep.lastName,
  reviewerFirstName: reviewer.firstName,
  reviewerLastName: reviewer.lastName,
};

export type PayoutListRow = {
  payout: PayoutRow;
  repFirstName: string | null;
  repLastName: string | null;
  reviewerFirstName: string | null;
  reviewerLastName: string | null;
};

function payoutWhere(filter: PayoutFilter): SQL | undefined {
  const conditions: SQL[] = [];
  if (filter.repId) conditions.push(eq(payouts.repId, filter.repId));
  if (filter.statuses?.length) conditions.push(inArray(payouts.status, filter.statuses));
  return conditions.length ? and(...conditions) : undefined;
}

function payoutQuery(db: Db) {
  return db
    .select(payoutColumns)
    .from(payouts)
    .leftJoin(rep, eq(rep.id, payouts.repId))
    .leftJoin(reviewer, eq(reviewer.id, payouts.reviewedBy))
    .$dynamic();
}

export async function selectPayoutPage(
  db: Db,
  filter: PayoutFilter & { limit: number; offset: number },
): Promise<{ rows: PayoutListRow[]; total: number }> {
  const where = payoutWhere(filter);
  const [rows, [{ total }]] = await Promise.all([
    payoutQuery(db)
      .where(where)
      .orderBy(desc(payouts.requestedAt), desc(payouts.id))
      .limit(filter.limit)
      .offset(filter.offset),
    db.select({ total: count() }).from(payouts).where(where),
  ]);
  return { rows, total };
}

export async function selectPayout(db: Db, id: string): Promise<PayoutListRow | undefined> {
  const [row] = await payoutQuery(db).where(eq(payouts.id, id)).limit(1);
  return row;
}

/**
 * The rep's user row, locked until the transaction ends: payout requests of one rep run one at a time,
 * so the available amount read after the lock is the one the request is checked against.
 */
export async function lockRep(tx: Db, repId: string): Promise<{ id: string; firstName: string; lastName: string }> {
  const [row] = await tx
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(eq(users.id, repId))
    .for('update');
  return row;
}

/** What the rep may request: available commission net of adjustments. */
export async function selectAvailableCents(tx: Db, repId: string): Promise<number> {
  const result = await tx.execute(sql`
    select coalesce(sum(amount_cents), 0)::bigint as available
    from commissions
    where rep_id = ${repId} and status in ('available', 'adjusted')`);
  return Number(rowsOf<{ available: string | number }>(result)[0].available);
}

export async function insertPayout(tx: Db, repId: string, requestedCents: number, at: Date): Promise<PayoutRow> {
  const [row] = await tx.insert(payouts).values({ repId, requestedCents, requestedAt: at }).returning();
  return row;
}

/** pending -> approved at `approvedCents` (at most the requested amount), decided by the row count. */
export async function approvePayoutRow(
  tx: Db,
  id: string,
  approvedCents: number,
  reviewerId: string,
  at: Date,
): Promise<PayoutRow | undefined> {
  const [row] = await tx
    .update(payouts)
    .set({ status: 'approved', approvedCents, reviewedAt: at, reviewedBy: reviewerId })
    .where(and(eq(payouts.id, id), eq(payouts.status, 'pending'), sql`${payouts.requestedCents} >= ${approvedCents}`))
    .returning();
  return row;
}

/** pending -> rejected with the reason. */
export async function rejectPayoutRow(
  tx: Db,
  id: string,
  reason: string,
  reviewerId: string,
  at: Date,
): Promise<PayoutRow | undefined> {
  const [row] = await tx
    .update(payouts)
    .set({ status: 'rejected', rejectReason: reason, reviewedAt: at, reviewedBy: reviewerId })
    .where(and(eq(payouts.id, id), eq(payouts.status, 'pending')))
    .returning();
  return row;
}

/** approved -> disbursed. */
export async function disbursePayoutRow(tx: Db, id: string, actorId: string, at: Date): Promise<PayoutRow | undefined> {
  const [row] = await tx
    .update(payouts)
    .set({ status: 'disbursed', disbursedAt: at, disbursedBy: actorId })
    .where(and(eq(payouts.id, id), eq(payouts.status, 'approved')))
    .returning();
  return row;
}

// ---------------------------------------------------------------------------------------------------------
// Moving commission between statuses (inside the payout transitions' transactions)
// ---------------------------------------------------------------------------------------------------------

/**
 * Takes `amountCents` of the rep's available commission for the payout, oldest first, in one statement:
 * rows wholly inside the amount become `requested`; the row the amount ends in is split (it keeps the
 * rest; a new row with the taken part, `splitFrom` it, joins the payout). The caller holds the rep's
 * lock and has checked that the amount is at most what is available.
 */
export async function allocateToPayout(tx: Db, repId: string, payoutId: string, amountCents: number): Promise<void> {
  await tx.execute(sql`
    with avail as (
      select id, amount_cents, sum(amount_cents) over (order by earned_at, id) as upto
      from commissions
      where rep_id = ${repId} and status = 'available'
    ),
    take as (
      select id, amount_cents, least(amount_cents, ${amountCents}::bigint - (upto - amount_cents)) as take_cents
      from avail
      where upto - amount_cents < ${amountCents}::bigint
    ),
    whole as (
      update commissions c set status = 'requested', payout_id = ${payoutId}
      from take t
      where c.id = t.id and t.take_cents = t.amount_cents
      returning c.id
    ),
    part as (
      update commissions c set amount_cents = c.amount_cents - t.take_cents
      from take t
      where c.id = t.id and t.take_cents < t.amount_cents
      returning c.*, t.take_cents
    )
    insert into commissions
      (rep_id, invoice_id, contract_id, kind, status, amount_cents, rate_bp, base_cents, payout_id, split_from, earned_at)
    select rep_id, invoice_id, contract_id, kind, 'requested', take_cents, rate_bp, base_cents, ${payoutId}, id, earned_at
    from part`);
}

/**
 * Gives `amountCents` of a payout's commission back to available, newest first (the reverse of how it
 * was taken), splitting the row the amount ends in. Used when a payout is approved for less.
 */
export async function releaseFromPayout(tx: Db, payoutId: string, amountCents: number): Promise<void> {
  if (amountCents <= 0) return;
  await tx.execute(sql`
    with held as (
      select id, amount_cents, sum(amount_cents) over (order by earned_at desc, id desc) as upto
      from commissions
      where payout_id = ${payoutId}
    ),
    give as (
      select id, amount_cents, least(amount_cents, ${amountCents}::bigint - (upto - amount_cents)) as give_cents
      from held
      where upto - amount_cents < ${amountCents}::bigint
    ),
    whole as (
      update commissions c set status = 'available', payout_id = null
      from give g
      where c.id = g.id and g.give_cents = g.amount_cents
      returning c.id
    ),
    part as (
      update commissions c set amount_cents = c.amount_cents - g.give_cents
      from give g
      where c.id = g.id and g.give_cents < g.amount_cents
      returning c.*, g.give_cents
    )
    insert into commissions
      (rep_id, invoice_id, contract_id, kind, status, amount_cents, rate_bp, base_cents, payout_id, split_from, earned_at)
    select rep_id, invoice_id, contract_id, kind, 'available', give_cents, rate_bp, base_cents, null, id, earned_at
    from part`);
}

/** All of a payout's commission back to available (a rejected payout). */
export async function releaseAllFromPayout(tx: Db, payoutId: string): Promise<void> {
  await tx.update(commissions).set({ status: 'available', payoutId: null }).where(eq(commissions.payoutId, payoutId));
}

/** A payout's commission is paid out (a disbursed payout). */
export async function markPayoutCommissionDisbursed(tx: Db, payoutId: string): Promise<void> {
  await tx.update(commissions).set({ status: 'disbursed' }).where(eq(commissions.payoutId, payoutId));
}

// ---------------------------------------------------------------------------------------------------------
// Reps (the reviewers' rep filter)
// ---------------------------------------------------------------------------------------------------------

/** Sales users, and anyone else who has earned commission, by name. */
export async function selectReps(db: Db) {
  return db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email })
    .from(users)
    .where(sql`${users.role} = 'sales' or exists (select 1 from ${commissions} c where c.rep_id = ${users.id})`)
    .orderBy(users.firstName, users.lastName, users.id);
}
