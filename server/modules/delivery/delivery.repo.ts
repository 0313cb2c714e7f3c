import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { contractLineItems, contracts, invoices } from '../../db/schema';
import { rowsOf } from '../../lib/db-rows';

/**
 * Delivery's statements (product.md section 12): the contracts and lines a recording names, the contracts'
 * locks, the upsert of recorded figures, the settlement of under-delivered periods. The billed periods
 * themselves are read from the invoices (invoices/billed-periods.repo.ts, through the invoices service).
 */

/** The contract whose delivery is read or recorded (for the access checks). */
export async function selectContract(db: Db, id: string): Promise<typeof contracts.$inferSelect | undefined> {
  const [row] = await db.select().from(contracts).where(eq(contracts.id, id)).limit(1);
  return row;
}

/** The contract line a period is recorded for. */
export async function selectLine(db: Db, id: string): Promise<typeof contractLineItems.$inferSelect | undefined> {
  const [row] = await db.select().from(contractLineItems).where(eq(contractLineItems.id, id)).limit(1);
  return row;
}

/** What a credit remedy needs of the period's invoice: its status, what it can still be credited, its tax. */
export async function selectInvoiceForCredit(tx: Db, id: string) {
  const [row] = await tx
    .select({
      status: invoices.status,
      totalCents: invoices.totalCents,
      creditedCents: invoices.creditedCents,
      taxRateBp: invoices.taxRateBp,
      taxIncluded: invoices.taxIncluded,
    })
    .from(invoices)
    .where(eq(invoices.id, id));
  return row;
}

/** A contract an import names, found by its id or its short id (the last 8 characters of the id). */
export type ImportContractRow = { id: string; sales_rep_id: string | null; customer_id: string; status: string };

/** The contracts named by these ids and short ids, in one query for the whole file. */
export async function selectContractsByRef(
  db: Db,
  ids: readonly string[],
  shortIds: readonly string[],
): Promise<ImportContractRow[]> {
  return rowsOf<ImportContractRow>(
    await db.execute(sql`
      select c.id, c.sales_rep_id, c.customer_id, c.status from contracts c
      where c.id = any(string_to_array(${ids.join(',')}, ',')::uuid[])
         or right(c.id::text, 8) = any(string_to_array(${shortIds.join(',')}, ','))`),
  );
}

/** A line of an imported contract with its product's name (a file names a line by it). */
export type ImportLineRow = { id: string; contract_id: string; product_name: string; price_metric: string };

/** The lines of these contracts, in their order on each contract, in one query. */
export async function selectContractLines(db: Db, contractIds: readonly string[]): Promise<ImportLineRow[]> {
  return rowsOf<ImportLineRow>(
    await db.execute(sql`
      select li.id, li.contract_id, p.name as product_name, li.price_metric
      from contract_line_items li join products p on p.id = li.product_id
      where li.contract_id = any(string_to_array(${contractIds.join(',')}, ',')::uuid[])
      order by li.position`),
  );
}

/** The chosen contracts, locked in id order: the first lock of every path that moves money on a contract. */
export async function lockContracts(tx: Db, contractIds: readonly string[]): Promise<void> {
  if (contractIds.length === 0) return;
  await tx.execute(sql`
    select id from contracts where id = any(string_to_array(${[...contractIds].join(',')}, ',')::uuid[])
    order by id for no key update`);
}

export type DeliveryWrite = {
  contractId: string;
  lineId: string;
  invoiceId: string;
  periodStart: string;
  periodEnd: string;
  booked: number;
  makegood: number;
  delivered: number;
  clicks: number | null;
  /** The figures are final (staff's, a push marked final, or past the grace days): final_at is set once. */
  final: boolean;
};

export type WrittenDelivery = {
  id: string;
  line_id: string;
  period_start: string;
  booked_impressions: string | number;
  delivered_impressions: string | number;
  clicks: string | number | null;
  before_delivered: string | number | null;
  before_clicks: string | number | null;
  /** Whether the row was final before (null: a new row). */
  before_final: boolean | null;
  final_at: string | Date | null;
};

/**
 * Records delivery in one statement: new periods inserted, unsettled ones whose figures differ (or that become
 * final) updated. A settled period is never touched (the conflict's WHERE), nor one whose figures are the same
 * and whose finality does not change: only rows that changed come back, with the figures they had before.
 * Once final, a period stays final.
 */
export async function upsertDeliveries(
  tx: Db,
  rows: readonly DeliveryWrite[],
  recordedBy: string | null,
): Promise<WrittenDelivery[]> {
  if (rows.length === 0) return [];
  const json = JSON.stringify(
    rows.map((r) => ({
      contract_id: r.contractId,
      line_id: r.lineId,
      invoice_id: r.invoiceId,
      period_start: r.periodStart,
      period_end: r.periodEnd,
      booked: r.booked,
      makegood: r.makegood,
      delivered: r.delivered,
      clicks: r.clicks,
      final: r.final,
    })),
  );
  return rowsOf<WrittenDelivery>(
    await tx.execute(sql`
      with input as (
        select * from jsonb_to_recordset(${json}::jsonb) as r(contract_id uuid, line_id uuid, invoice_id uuid,
          period_start date, period_end date, booked bigint, makegood bigint, delivered bigint, clicks bigint,
          final boolean)
      ),
      before as (
        select d.line_id, d.period_start, d.delivered_impressions, d.clicks, d.final_at is not null as final
        from line_deliveries d join input r on r.line_id = d.line_id and r.period_start = d.period_start
      )
      insert into line_deliveries as d (contract_id, line_id, invoice_id, period_start, period_end,
        booked_impressions, makegood_impressions, delivered_impressions, clicks, final_at, recorded_by)
      select r.contract_id, r.line_id, r.invoice_id, r.period_start, r.period_end, r.booked, r.makegood,
             r.delivered, r.clicks, case when r.final then now() end, ${recordedBy}::uuid
      from input r
      order by r.line_id, r.period_start
      on conflict (line_id, period_start) do update
        set delivered_impressions = excluded.delivered_impressions, clicks = excluded.clicks,
            booked_impressions = excluded.booked_impressions, makegood_impressions = excluded.makegood_impressions,
            invoice_id = excluded.invoice_id, period_end = excluded.period_end,
            final_at = coalesce(d.final_at, excluded.final_at),
            recorded_by = excluded.recorded_by, updated_at = now()
        where d.settled_at is null
          and ((d.delivered_impressions, d.clicks) is distinct from (excluded.delivered_impressions, excluded.clicks)
               or (d.final_at is null and excluded.final_at is not null))
      returning d.id, d.line_id, d.period_start::text as period_start, d.booked_impressions,
                d.delivered_impressions, d.clicks, d.final_at,
                (select b.delivered_impressions from before b
                 where b.line_id = d.line_id and b.period_start = d.period_start) as before_delivered,
                (select b.clicks from before b
                 where b.line_id = d.line_id and b.period_start = d.period_start) as before_clicks,
                (select b.final from before b
                 where b.line_id = d.line_id and b.period_start = d.period_start) as before_final`),
  );
}

export type SettledDelivery = {
  id: string;
  contract_id: string;
  line_id: string;
  invoice_id: string;
  period_start: string;
  booked_impressions: string | number;
  makegood_impressions: string | number;
  delivered_impressions: string | number;
  shortfall_impressions: string | number;
  remedy: 'credit' | 'makegood';
  /** The contract's setting (a makegood with no later period to run in falls back to a credit). */
  chosen_remedy: string;
};

/** Which periods a settlement looks at: these rows, or every row of these (locked) contracts. */
export type SettleScope = { deliveryIds: readonly string[] } | { contractIds: readonly string[] };

const idList = (ids: readonly string[]) => sql`string_to_array(${ids.join(',')}, ',')::uuid[]`;

/**
 * Settles the under-delivered periods in scope that have ended (before `today`) and are final: ONE
 * conditional UPDATE (settled_at is null) decides, so a period settles once whatever runs at once. The remedy
 * is the contract's; a makegood needs a later period of the line to run in (a running contract whose term and
 * the line's flight go past its last invoiced period), otherwise it is a credit.
 */
export async function settleUnderDelivered(tx: Db, scope: SettleScope, today: string): Promise<SettledDelivery[]> {
  const ids = 'deliveryIds' in scope ? scope.deliveryIds : scope.contractIds;
  if (ids.length === 0) return [];
  const inScope = 'deliveryIds' in scope ? sql`d.id = any(${idList(ids)})` : sql`d.contract_id = any(${idList(ids)})`;
  return rowsOf<SettledDelivery>(
    await tx.execute(sql`
      with chosen as (
        select d.id,
               case when c.under_delivery_remedy = 'makegood' and c.status in ('active','paused')
                         and (li.flight_end is null or li.flight_end > last.period_end)
                         and (c.auto_stop_date is null or c.auto_stop_date > last.period_end + 1)
                    then 'makegood' else 'credit' end as remedy,
               c.under_delivery_remedy
        from line_deliveries d
        join contracts c on c.id = d.contract_id
        join contract_line_items li on li.id = d.line_id
        cross join lateral (select max(i.period_end) as period_end from invoices i where i.contract_id = c.id) last
        where ${inScope} and ${settleable(today)}
      )
      update line_deliveries d
      set settled_at = now(), remedy = chosen.remedy,
          shortfall_impressions = d.booked_impressions - d.delivered_impressions, updated_at = now()
      from chosen
      where d.id = chosen.id and ${settleable(today)}
      returning d.id, d.contract_id, d.line_id, d.invoice_id, d.period_start::text as period_start,
                d.booked_impressions, d.makegood_impressions, d.delivered_impressions, d.shortfall_impressions,
                d.remedy, chosen.under_delivery_remedy as chosen_remedy`),
  );
}

/**
 * A period that settles now: not settled, short of booked, final and ended. (The first two are the open
 * index's predicate, written out so that the planner uses it.)
 */
const settleable = (today: string) => sql`d.settled_at is null
  and (d.final_at is null or d.delivered_impressions < d.booked_impressions)
  and d.final_at is not null and d.delivered_impressions < d.booked_impressions and d.period_end < ${today}::date`;

/** A period whose figures became final because its grace days ran out. */
export type FinalisedDelivery = {
  id: string;
  contract_id: string;
  line_id: string;
  period_start: string;
  booked_impressions: string | number;
  delivered_impressions: string | number;
  clicks: string | number | null;
};

/**
 * The contracts with delivery to reconcile on `today`: a period not final whose end + `graceDays` has passed,
 * or one final and short but not settled; locked in id order (the first lock of every money path). One
 * statement, on the open periods' partial index.
 */
export async function lockContractsToReconcile(tx: Db, today: string, graceDays: number): Promise<string[]> {
  const rows = rowsOf<{ id: string }>(
    await tx.execute(sql`
      select c.id from contracts c
      where c.id in (
        select d.contract_id from line_deliveries d
        where d.settled_at is null
          and (d.final_at is null or d.delivered_impressions < d.booked_impressions)
          and d.period_end < ${today}::date
          and (d.final_at is not null or d.period_end + ${graceDays}::int < ${today}::date))
      order by c.id for no key update`),
  );
  return rows.map((r) => r.id);
}

/**
 * Makes final the periods of these (locked) contracts whose grace days have run out (end + graceDays before
 * `today`): one conditional UPDATE; each period comes back once.
 */
export async function finaliseAfterGrace(
  tx: Db,
  contractIds: readonly string[],
  today: string,
  graceDays: number,
): Promise<FinalisedDelivery[]> {
  if (contractIds.length === 0) return [];
  return rowsOf<FinalisedDelivery>(
    await tx.execute(sql`
      update line_deliveries d set final_at = now()
      where d.contract_id = any(${idList(contractIds)})
        and d.settled_at is null and d.final_at is null
        and d.period_end + ${graceDays}::int < ${today}::date
      returning d.id, d.contract_id, d.line_id, d.period_start::text as period_start, d.booked_impressions,
                d.delivered_impressions, d.clicks`),
  );
}

/** A pushed day's figures. */
export type DayWrite = { lineId: string; day: string; impressions: number; clicks: number | null };

/**
 * Records pushed days in one statement: a day sent again replaces its figures (one row per line and day).
 * Answers the days that changed.
 */
export async function upsertDeliveryDays(
  tx: Db,
  days: readonly DayWrite[],
  recordedBy: string | null,
): Promise<{ line_id: string; day: string }[]> {
  if (days.length === 0) return [];
  const json = JSON.stringify(
    days.map((d) => ({ line_id: d.lineId, day: d.day, impressions: d.impressions, clicks: d.clicks })),
  );
  return rowsOf<{ line_id: string; day: string }>(
    await tx.execute(sql`
      insert into line_delivery_days as d (line_id, day, impressions, clicks, recorded_by)
      select r.line_id, r.day, r.impressions, r.clicks, ${recordedBy}::uuid
      from jsonb_to_recordset(${json}::jsonb) as r(line_id uuid, day date, impressions bigint, clicks bigint)
      order by r.line_id, r.day
      on conflict (line_id, day) do update
        set impressions = excluded.impressions, clicks = excluded.clicks, recorded_by = excluded.recorded_by,
            updated_at = now()
        where (d.impressions, d.clicks) is distinct from (excluded.impressions, excluded.clicks)
      returning d.line_id, d.day::text as day`),
  );
}

/** A billed period of a line, by its days. */
export type PeriodSpan = { lineId: string; periodStart: string; periodEnd: string };

const spansJson = (spans: readonly PeriodSpan[]) =>
  JSON.stringify(spans.map((p) => ({ line_id: p.lineId, period_start: p.periodStart, period_end: p.periodEnd })));

/** Removes the pushed days of these periods (their total is given for the month now), in one statement. */
export async function deleteDeliveryDays(tx: Db, spans: readonly PeriodSpan[]): Promise<void> {
  if (spans.length === 0) return;
  await tx.execute(sql`
    delete from line_delivery_days d
    using jsonb_to_recordset(${spansJson(spans)}::jsonb) as p(line_id uuid, period_start date, period_end date)
    where d.line_id = p.line_id and d.day between p.period_start and p.period_end`);
}

/** The sum of each period's pushed days (clicks: null when no day reported any), in one statement. */
export async function selectDayTotals(
  tx: Db,
  spans: readonly PeriodSpan[],
): Promise<{ line_id: string; period_start: string; impressions: string | number; clicks: string | number | null }[]> {
  if (spans.length === 0) return [];
  return rowsOf(
    await tx.execute(sql`
      select p.line_id, p.period_start::text as period_start, coalesce(sum(d.impressions), 0) as impressions,
             sum(d.clicks) as clicks
      from jsonb_to_recordset(${spansJson(spans)}::jsonb) as p(line_id uuid, period_start date, period_end date)
      left join line_delivery_days d on d.line_id = p.line_id and d.day between p.period_start and p.period_end
      group by p.line_id, p.period_start`),
  );
}

/** The stored figures of these (line, day) pairs, where there are any. */
export async function selectDeliveryDays(
  db: Db,
  keys: readonly { lineId: string; day: string }[],
): Promise<{ line_id: string; day: string; impressions: string | number; clicks: string | number | null }[]> {
  if (keys.length === 0) return [];
  const json = JSON.stringify(keys.map((k) => ({ line_id: k.lineId, day: k.day })));
  return rowsOf(
    await db.execute(sql`
      select d.line_id, d.day::text as day, d.impressions, d.clicks
      from jsonb_to_recordset(${json}::jsonb) as k(line_id uuid, day date)
      join line_delivery_days d on d.line_id = k.line_id and d.day = k.day`),
  );
}

/** A credit remedy's note, linked to the period it settled. */
export async function linkCreditNote(tx: Db, deliveryId: string, creditNoteId: string): Promise<void> {
  await tx.execute(sql`update line_deliveries set credit_note_id = ${creditNoteId} where id = ${deliveryId}`);
}
