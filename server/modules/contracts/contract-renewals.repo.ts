import { and, asc, count, eq, inArray, isNotNull, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { contracts, customers, users } from '../../db/schema';
import { rowsOf } from '../../lib/db-rows';
import type { ContractListRow } from './contracts.repo';

/** The contract that renews another (contracts_renewal_of_key: at most one per contract). */
const renewal = alias(contracts, 'renewal');

export type RenewalDueRow = Omit<ContractListRow, 'billToName'> & {
  renewedBy: { id: string; status: string } | null;
  /** The most urgent notice step recorded for the contract's current end date. */
  lastNoticeDays: number | null;
};

/**
 * Running (active or paused) contracts whose auto-stop date falls from `today` to `today` + `withinDays`,
 * soonest first, with their customer, rep, renewal and last notice step: one statement for the page (the
 * total by a window count; contracts_auto_stop_idx serves the range), and a count only when the page is
 * past the end.
 */
export async function selectRenewalsDue(
  db: Db,
  filter: { today: string; withinDays: number; salesRepId?: string; limit: number; offset: number },
): Promise<{ rows: RenewalDueRow[]; total: number }> {
  const conditions: SQL[] = [
    inArray(contracts.status, ['active', 'paused']),
    isNotNull(contracts.autoStopDate),
    sql`${contracts.autoStopDate} between ${filter.today}::date and ${filter.today}::date + ${filter.withinDays}::int`,
  ];
  if (filter.salesRepId) conditions.push(eq(contracts.salesRepId, filter.salesRepId));
  const where = and(...conditions);
  const rows = await db
    .select({
      contract: contracts,
      customerName: customers.name,
      salesRepFirstName: users.firstName,
      salesRepLastName: users.lastName,
      renewedBy: { id: renewal.id, status: renewal.status },
      lastNoticeDays: sql<number | null>`(select min(n.days_before) from renewal_notices n
        where n.contract_id = ${contracts.id} and n.auto_stop_date = ${contracts.autoStopDate})`.mapWith((v) =>
        v === null ? null : Number(v),
      ),
      total: sql<number>`count(*) over ()`.mapWith(Number),
    })
    .from(contracts)
    .leftJoin(customers, eq(customers.id, contracts.customerId))
    .leftJoin(users, eq(users.id, contracts.salesRepId))
    .leftJoin(renewal, eq(renewal.renewalOfId, contracts.id))
    .where(where)
    .orderBy(asc(contracts.autoStopDate), asc(contracts.id))
    .limit(filter.limit)
    .offset(filter.offset);
  if (rows.length) return { rows: rows.map(({ total: _total, ...row }) => row), total: rows[0].total };
  if (filter.offset === 0) return { rows: [], total: 0 };
  const [counted] = await db.select({ n: count() }).from(contracts).where(where);
  return { rows: [], total: counted.n };
}

export type InsertedNotice = {
  contract_id: string;
  /** The most urgent step inserted now (the one the rep hears of). */
  days_before: number;
  auto_stop_date: string;
  sales_rep_id: string | null;
  title: string | null;
  description: string | null;
  customer_name: string;
};

/**
 * Records every renewal notice step whose day has come (today >= auto_stop_date - N and today <
 * auto_stop_date) for running contracts not yet renewed (a canceled renewal does not count), each once per
 * contract and end date: the primary key decides (ON CONFLICT DO NOTHING), so overlapping runs record a step
 * once. Answers one row per contract that got new steps, with the most urgent of them.
 */
export async function insertDueRenewalNotices(tx: Db, today: string): Promise<InsertedNotice[]> {
  const result = await tx.execute(sql`
    with due as (
      select c.id, c.auto_stop_date, s.days
      from contracts c
      cross join (values (60), (30), (7)) as s(days)
      where c.status in ('active', 'paused') and c.auto_stop_date is not null
        and c.auto_stop_date > ${today}::date and c.auto_stop_date <= ${today}::date + 60
        and ${today}::date >= c.auto_stop_date - s.days
        and not exists (select 1 from contracts r where r.renewal_of_id = c.id and r.status <> 'canceled')
    ), inserted as (
      insert into renewal_notices (contract_id, auto_stop_date, days_before)
      select id, auto_stop_date, days from due
      on conflict do nothing
      returning contract_id, auto_stop_date, days_before
    )
    select i.contract_id, min(i.days_before)::int as days_before, to_char(i.auto_stop_date, 'YYYY-MM-DD') as auto_stop_date,
           c.sales_rep_id, c.title, c.description, cu.name as customer_name
    from inserted i
    join contracts c on c.id = i.contract_id
    join customers cu on cu.id = c.customer_id
    group by i.contract_id, i.auto_stop_date, c.sales_rep_id, c.title, c.description, cu.name
    order by i.auto_stop_date, i.contract_id`);
  return rowsOf<InsertedNotice>(result);
}
