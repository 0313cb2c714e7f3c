import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { rowsOf } from '../../lib/db-rows';

/**
 * Inventory's reads and writes (product.md section 13). Units are never stored as counters: a day's use is
 * read from the contract lines that take it, so a status change, an edit, an amendment or an expired hold
 * changes availability at once and cannot drift. A line takes its quantity on every day of its flight
 * (a flight with no end runs until the day before its contract's auto-stop date, or for good):
 * - booked while its contract is active or paused;
 * - held while its contract is sent and the contract's hold runs (inventory_holds.hold_until);
 * - nothing otherwise (draft, canceled, completed, an expired hold).
 * Beside the lines, a renewal hold (renewal_holds, right of first refusal: renewalHoldLines) takes its units on
 * its days for everyone but the renewal it is kept for.
 */

/** The lines' contracts that take units now, with `booked` telling active/paused from a running hold. */
const takesUnits = sql`(c.status in ('active','paused') or (c.status = 'sent' and h.hold_until > now()))`;

/**
 * The lines taking units of the products `products` selects (a condition on `l`) between two days, each
 * with its days clipped to them (first_day..last_day) and whether it books (else it holds). Read through
 * contract_line_items_flight_idx (product, flight end): flights over before `from` are never read; each
 * line's contract is looked up by its key (the LATERAL ... OFFSET 0 keeps the planner from scanning every
 * contract to hash them; only a contract that may take units, active, paused or sent, is looked up, from
 * contracts_taking_units_idx alone: migration 0035). `more` adds columns of `l` (", l.id as line_id").
 */
function takenLines(products: SQL, from: SQL, to: SQL, except: SQL = sql`false`, more: SQL = sql``): SQL {
  return sql`
    select l.contract_id, l.product_id, l.quantity, c.status, h.hold_until${more},
           coalesce(l.flight_end, c.auto_stop_date - 1) as flight_last_day,
           greatest(l.flight_start, ${from}) as first_day,
           least(coalesce(l.flight_end, c.auto_stop_date - 1, 'infinity'::date), ${to}) as last_day,
           c.status in ('active','paused') as booked
    from contract_line_items l
    cross join lateral (
      select id, status, auto_stop_date from contracts
      where id = l.contract_id and status in ('active','paused','sent') offset 0
    ) c
    left join inventory_holds h on h.contract_id = c.id
    where ${products}
      and coalesce(l.flight_end, 'infinity'::date) >= ${from}
      and l.flight_start <= ${to}
      and ${takesUnits}
      and not (${except})`;
}

/**
 * The renewal holds taking units of the products `products` selects (a condition on `rh`) between two days,
 * each with its days clipped to them (first_day..last_day), as `forContract` counts them (null: as everyone
 * but a renewal counts them). A hold takes its quantity on each day of held_from..held_to while it is not
 * released, its release day is after `today` and its contract is not canceled (a canceled contract has no
 * renewal to keep days for: its holds stop counting at once, and the job records their release). It never
 * counts for its own contract, nor for that contract's renewal (contracts.renewal_of_id): the renewal books
 * the days. Once the renewal takes units itself (sent within its hold, active, paused), the hold counts for
 * nobody: the renewal's own lines count instead, never both. Read through renewal_holds_product_idx.
 */
function renewalHoldLines(products: SQL, from: SQL, to: SQL, today: string, forContract: string | null): SQL {
  const counting = forContract ? sql`${forContract}::uuid` : sql`null::uuid`;
  return sql`
    select rh.line_id, rh.contract_id, rh.product_id, rh.quantity, rh.held_to,
           greatest(rh.held_from, ${from}) as first_day, least(rh.held_to, ${to}) as last_day
    from renewal_holds rh
    join contracts hc on hc.id = rh.contract_id
    where ${products}
      and rh.released_at is null
      and rh.held_to >= ${from}
      and rh.held_from <= ${to}
      and rh.release_on > ${today}::date
      and hc.status <> 'canceled'
      and rh.contract_id is distinct from ${counting}
      and not exists (
        select 1 from contracts c
        left join inventory_holds h on h.contract_id = c.id
        where c.renewal_of_id = rh.contract_id and (c.id = ${counting} or ${takesUnits}))`;
}

const anyOf = (ids: readonly string[]) => sql`l.product_id = any(string_to_array(${ids.join(',')}, ',')::uuid[])`;
const anyOfHeld = (ids: readonly string[]) => sql`rh.product_id = any(string_to_array(${ids.join(',')}, ',')::uuid[])`;

export type DayFigures = {
  product_id: string;
  day: string;
  booked: number;
  held: number;
  held_for_renewal: number;
};

/**
 * Units booked, held and held for renewal per product and day over [from, to]: one statement for every
 * product named, the days generated in SQL and joined to the lines and renewal holds that overlap the range
 * (read through contract_line_items_flight_idx and renewal_holds_product_idx). `exceptContract` leaves one
 * contract's own units out, and counts renewal holds as that contract sees them (its own renewal's are free
 * to it).
 */
export async function selectDayFigures(
  db: Db,
  productIds: readonly string[],
  from: string,
  to: string,
  today: string,
  exceptContract: string | null = null,
): Promise<DayFigures[]> {
  if (productIds.length === 0) return [];
  const result = await db.execute(dayFigures(productIds, sql`${from}::date`, sql`${to}::date`, today, exceptContract));
  return rowsOf<DayFigures>(result);
}

/** The statement of selectDayFigures: product_id, day (text), booked, held, held_for_renewal per product and day. */
function dayFigures(
  productIds: readonly string[],
  from: SQL,
  to: SQL,
  today: string,
  exceptContract: string | null = null,
): SQL {
  const except = exceptContract ? sql`l.contract_id = ${exceptContract}::uuid` : sql`false`;
  return sql`
    with taken as (${takenLines(anyOf(productIds), from, to, except)}),
    reserved as (${renewalHoldLines(anyOfHeld(productIds), from, to, today, exceptContract)}),
    -- Each line adds its units on its first day and takes them back the day after its last: a running sum
    -- over the days gives each day's units, in work proportional to lines + days (not to their product).
    changes as (
      select x.product_id, x.day, sum(x.booked) as booked, sum(x.held) as held, sum(x.renewal) as renewal
      from (
        select t.product_id, c.day, c.booked, c.held, 0 as renewal
        from taken t
        cross join lateral (values
          (t.first_day, case when t.booked then t.quantity else 0 end, case when t.booked then 0 else t.quantity end),
          (t.last_day + 1, case when t.booked then -t.quantity else 0 end, case when t.booked then 0 else -t.quantity end)
        ) as c(day, booked, held)
        where t.last_day >= t.first_day
        union all
        select r.product_id, c.day, 0, 0, c.renewal
        from reserved r
        cross join lateral (values (r.first_day, r.quantity), (r.last_day + 1, -r.quantity)) as c(day, renewal)
        where r.last_day >= r.first_day
      ) x
      group by x.product_id, x.day
    )
    select p.id as product_id, d.day::date::text as day,
           (sum(coalesce(c.booked, 0)) over running)::int as booked,
           (sum(coalesce(c.held, 0)) over running)::int as held,
           (sum(coalesce(c.renewal, 0)) over running)::int as held_for_renewal
    from products p
    cross join generate_series(${from}, ${to}, interval '1 day') as d(day)
    left join changes c on c.product_id = p.id and c.day = d.day::date
    where p.id = any(string_to_array(${productIds.join(',')}, ',')::uuid[])
    window running as (partition by p.id order by d.day)
    order by p.id, d.day`;
}

/**
 * The first `count` days after `day` (up to `horizon` days after it) with at least `quantity` units of the
 * product free (capacity - booked - held - held for renewal): one statement over the day figures of the
 * calendar.
 */
export async function selectNextFreeDays(
  db: Db,
  productId: string,
  day: string,
  options: { quantity: number; count: number; horizon: number; today: string },
): Promise<string[]> {
  const from = sql`(${day}::date + 1)`;
  const to = sql`(${day}::date + ${options.horizon}::int)`;
  const result = await db.execute(sql`
    select f.day from (${dayFigures([productId], from, to, options.today)}) f
    join products p on p.id = f.product_id
    where p.capacity - f.booked - f.held - f.held_for_renewal >= ${options.quantity}::int
    order by f.day
    limit ${options.count}::int`);
  return rowsOf<{ day: string }>(result).map((row) => row.day);
}

export type BookedLineRow = {
  product_id: string;
  quantity: number;
  price_metric: 'monthly' | 'flat' | 'cpm';
  unit_price_cents: number | string;
  discount_cents: number | string;
  seasonal_price_cents: number | string | null;
  flight_start: string;
  /** The flight's last day (with no end: the day before the contract's auto-stop date; null: none). */
  flight_last_day: string | null;
  contract_start_date: string;
};

/**
 * The lines booking (active or paused contracts) the products named on some day of [from, to], with what
 * they bill (their prices and their contract's start): one statement, read like the day figures.
 */
export async function selectBookedLines(
  db: Db,
  productIds: readonly string[],
  from: string,
  to: string,
): Promise<BookedLineRow[]> {
  if (productIds.length === 0) return [];
  const result = await db.execute(sql`
    select t.product_id, t.quantity, l.price_metric, l.unit_price_cents, l.discount_cents, l.seasonal_price_cents,
           l.flight_start::text as flight_start, t.flight_last_day::text as flight_last_day,
           c.start_date::text as contract_start_date
    from (${takenLines(anyOf(productIds), sql`${from}::date`, sql`${to}::date`, sql`false`, sql`, l.id as line_id`)}) t
    join contract_line_items l on l.id = t.line_id
    join contracts c on c.id = t.contract_id
    where t.booked and t.last_day >= t.first_day`);
  return rowsOf<BookedLineRow>(result);
}

export type InventoryProductRow = {
  id: string;
  name: string;
  ad_type: string;
  capacity: number;
  is_active: boolean;
};

/** One inventory product; undefined when the product does not exist or does not track inventory. */
export async function selectInventoryProduct(db: Db, productId: string): Promise<InventoryProductRow | undefined> {
  const result = await db.execute(sql`
    select id, name, ad_type, capacity, is_active from products
    where id = ${productId} and inventory_required`);
  return rowsOf<InventoryProductRow>(result)[0];
}

export async function selectProductName(db: Db, productId: string): Promise<string | undefined> {
  const result = await db.execute(sql`select name from products where id = ${productId}`);
  return rowsOf<{ name: string }>(result)[0]?.name;
}

/** Every inventory product, by name. */
export async function selectInventoryProducts(db: Db): Promise<InventoryProductRow[]> {
  const result = await db.execute(sql`
    select id, name, ad_type, capacity, is_active from products
    where inventory_required order by name, id`);
  return rowsOf<InventoryProductRow>(result);
}

export type HolderRow = {
  kind: 'booked' | 'held' | 'held_for_renewal';
  contract_id: string;
  title: string | null;
  customer_name: string | null;
  status: 'sent' | 'active' | 'paused' | 'completed';
  hold_until: Date | string | null;
  quantity: number;
  /** The last day of the flight of these lines, or of the renewal hold (YYYY-MM-DD); null: lines that run for good. */
  end_day: string | null;
  sales_rep_id: string | null;
  sales_rep_name: string | null;
};

/**
 * The contracts taking units of a product on a day, one row per contract, kind and flight end: booked first,
 * then held, then held for renewal (the contract whose renewal the days are kept for), then by customer.
 */
export async function selectDayHolders(db: Db, productId: string, day: string, today: string): Promise<HolderRow[]> {
  const result = await db.execute(sql`
    with taken as (${takenLines(sql`l.product_id = ${productId}::uuid`, sql`${day}::date`, sql`${day}::date`)}),
    reserved as (${renewalHoldLines(sql`rh.product_id = ${productId}::uuid`, sql`${day}::date`, sql`${day}::date`, today, null)}),
    rows as (
      select case when t.booked then 'booked' else 'held' end as kind, t.contract_id,
             case when c.status = 'sent' then t.hold_until end as hold_until,
             sum(t.quantity)::int as quantity, t.flight_last_day::text as end_day
      from taken t
      join contracts c on c.id = t.contract_id
      where t.last_day >= t.first_day
      group by t.booked, t.contract_id, c.status, t.hold_until, t.flight_last_day
      union all
      select 'held_for_renewal', r.contract_id, null, sum(r.quantity)::int, r.held_to::text
      from reserved r
      group by r.contract_id, r.held_to
    )
    select x.kind, c.id as contract_id, c.title, coalesce(cu.company, cu.name) as customer_name, c.status,
           x.hold_until, x.quantity, x.end_day, c.sales_rep_id,
           nullif(trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')), '') as sales_rep_name
    from rows x
    join contracts c on c.id = x.contract_id
    left join customers cu on cu.id = c.customer_id
    left join users u on u.id = c.sales_rep_id
    order by case x.kind when 'booked' then 0 when 'held' then 1 else 2 end, customer_name, c.id, x.end_day`);
  return rowsOf<HolderRow>(result);
}

/**
 * Locks the inventory products a contract's lines use, in id order, until the transaction ends: every sale
 * of a product's units (a send, an activation, an edit, an amendment, a checkout's renewed hold) takes
 * this lock before it counts, so two sales of the last unit run one after the other on any number of app
 * instances and the second counts the first. FOR NO KEY UPDATE does not block contract lines being
 * inserted (their foreign key takes KEY SHARE). Answers whether the contract has inventory lines.
 */
export async function lockInventoryOfContract(tx: Db, contractId: string): Promise<boolean> {
  const result = await tx.execute(sql`
    select p.id from products p
    where p.inventory_required
      and p.id in (select product_id from contract_line_items where contract_id = ${contractId})
    order by p.id
    for no key update of p`);
  return rowsOf(result).length > 0;
}

export type ShortfallRow = {
  product_id: string;
  product_name: string;
  capacity: number;
  day: string;
  mine: number;
  /** What everything else takes that day, renewal holds included. */
  others: number;
  /** Of `others`, the units renewal holds keep for other contracts' renewals. */
  renewal: number;
};

/**
 * The first day from `fromDay` on (then the first product by name) on which the contract's inventory lines
 * (or only `lineId`, an amendment's new line) and everything else taking units (other lines, renewal holds
 * as this contract counts them) together exceed capacity; undefined when every day fits. `others` is what
 * the rest takes. Reads after the caller's own writes and locks (lockInventoryOfContract), so what it counts
 * is settled.
 */
export async function selectFirstShortfall(
  tx: Db,
  contractId: string,
  fromDay: string,
  lineId: string | null = null,
): Promise<ShortfallRow | undefined> {
  const own = lineId ? sql`l.id = ${lineId}::uuid` : sql`l.contract_id = ${contractId}::uuid`;
  const first = sql`(select min(day) from mine)`;
  const last = sql`(select max(day) from mine)`;
  const result = await tx.execute(sql`
    with mine as (
      select l.product_id, d.day::date as day, sum(l.quantity)::int as qty
      from contract_line_items l
      join contracts c on c.id = l.contract_id
      join products p on p.id = l.product_id and p.inventory_required
      cross join generate_series(
        greatest(l.flight_start, ${fromDay}::date),
        coalesce(l.flight_end, c.auto_stop_date - 1, greatest(l.flight_start, ${fromDay}::date) + 365),
        interval '1 day') as d(day)
      where l.contract_id = ${contractId} and ${own}
      group by l.product_id, d.day
    ),
    others as (
      select x.product_id, d.day::date as day, sum(x.quantity)::int as units,
             sum(x.quantity) filter (where x.renewal)::int as renewal
      from (
        select t.product_id, t.quantity, t.first_day, t.last_day, false as renewal
        from (${takenLines(sql`l.product_id in (select product_id from mine)`, first, last, own)}) t
        union all
        select r.product_id, r.quantity, r.first_day, r.last_day, true
        from (${renewalHoldLines(sql`rh.product_id in (select product_id from mine)`, first, last, fromDay, contractId)}) r
      ) x
      cross join generate_series(x.first_day, x.last_day, interval '1 day') as d(day)
      group by x.product_id, d.day
    )
    select p.id as product_id, p.name as product_name, p.capacity, m.day::text as day, m.qty as mine,
           coalesce(o.units, 0) as others, coalesce(o.renewal, 0) as renewal
    from mine m
    join products p on p.id = m.product_id
    left join others o on o.product_id = m.product_id and o.day = m.day
    where m.qty + coalesce(o.units, 0) > p.capacity
    order by m.day, p.name
    limit 1`);
  return rowsOf<ShortfallRow>(result)[0];
}

export type RenewalHolderRow = { contract_id: string; customer_name: string | null; sales_rep_id: string | null };

/** The contracts whose renewal holds take units of a product on a day, as `forContract` counts them. */
export async function selectRenewalHoldersOn(
  tx: Db,
  productId: string,
  day: string,
  today: string,
  forContract: string,
): Promise<RenewalHolderRow[]> {
  const result = await tx.execute(sql`
    select distinct c.id as contract_id, coalesce(cu.company, cu.name) as customer_name, c.sales_rep_id
    from (${renewalHoldLines(sql`rh.product_id = ${productId}::uuid`, sql`${day}::date`, sql`${day}::date`, today, forContract)}) r
    join contracts c on c.id = r.contract_id
    left join customers cu on cu.id = c.customer_id
    order by c.id`);
  return rowsOf<RenewalHolderRow>(result);
}

/**
 * The day from `fromDay` on with the most units of a product taken, renewal holds included (the first such
 * day); undefined: none.
 */
export async function selectBusiestDay(
  tx: Db,
  productId: string,
  fromDay: string,
): Promise<{ day: string; units: number } | undefined> {
  const result = await tx.execute(sql`
    with taken as (
      select t.quantity, t.first_day, t.last_day
      from (${takenLines(sql`l.product_id = ${productId}::uuid`, sql`${fromDay}::date`, sql`${fromDay}::date + 3650`)}) t
      union all
      select r.quantity, r.first_day, r.last_day
      from (${renewalHoldLines(sql`rh.product_id = ${productId}::uuid`, sql`${fromDay}::date`, sql`${fromDay}::date + 3650`, fromDay, null)}) r
    )
    select d.day::date::text as day, sum(t.quantity)::int as units
    from taken t
    cross join generate_series(t.first_day, t.last_day, interval '1 day') as d(day)
    group by d.day
    order by units desc, d.day
    limit 1`);
  return rowsOf<{ day: string; units: number }>(result)[0];
}

/** Whether the contract counts against capacity now (active, paused, or sent within its hold). */
export async function contractTakesUnits(tx: Db, contractId: string): Promise<boolean> {
  const result = await tx.execute(sql`
    select 1 from contracts c left join inventory_holds h on h.contract_id = c.id
    where c.id = ${contractId} and ${takesUnits}`);
  return rowsOf(result).length > 0;
}

export async function selectContractStatus(tx: Db, contractId: string): Promise<string | undefined> {
  const result = await tx.execute(sql`select status from contracts where id = ${contractId}`);
  return rowsOf<{ status: string }>(result)[0]?.status;
}

/** Starts (or renews) a sent contract's hold: `days` days from now. */
export async function upsertHold(tx: Db, contractId: string, days: number): Promise<Date> {
  const result = await tx.execute(sql`
    insert into inventory_holds (contract_id, hold_until)
    values (${contractId}, now() + make_interval(days => ${days}::int))
    on conflict (contract_id) do update set hold_until = excluded.hold_until, expired_notice_at = null
    returning hold_until`);
  return new Date(rowsOf<{ hold_until: Date | string }>(result)[0].hold_until);
}

export async function selectHold(db: Db, contractId: string): Promise<Date | null> {
  const result = await db.execute(sql`select hold_until from inventory_holds where contract_id = ${contractId}`);
  const row = rowsOf<{ hold_until: Date | string }>(result)[0];
  return row ? new Date(row.hold_until) : null;
}

export type ExpiredHold = {
  contract_id: string;
  title: string | null;
  customer_name: string | null;
  sales_rep_id: string | null;
  hold_until: Date | string;
};

/**
 * Marks the holds of sent contracts with inventory lines that ran out and were not yet reported, in one
 * statement (so two instances running the job report each hold once), and answers them.
 */
export async function markExpiredHolds(db: Db, where: SQL = sql`true`): Promise<ExpiredHold[]> {
  const result = await db.execute(sql`
    update inventory_holds h set expired_notice_at = now()
    from contracts c
    left join customers cu on cu.id = c.customer_id
    where c.id = h.contract_id
      and h.expired_notice_at is null and h.hold_until <= now()
      and c.status = 'sent'
      and exists (
        select 1 from contract_line_items l join products p on p.id = l.product_id
        where l.contract_id = c.id and p.inventory_required)
      and ${where}
    returning c.id as contract_id, c.title, coalesce(cu.company, cu.name) as customer_name, c.sales_rep_id,
              h.hold_until`);
  return rowsOf<ExpiredHold>(result);
}

export type SellThroughFigures = { product_id: string; booked_units: number; held_units: number };

/** Unit-days booked and held per inventory product over [from, to] (reports' sell-through). */
export async function selectSellThrough(db: Db, from: string, to: string): Promise<SellThroughFigures[]> {
  const result = await db.execute(sql`
    with taken as (${takenLines(
      sql`l.product_id in (select id from products where inventory_required)`,
      sql`${from}::date`,
      sql`${to}::date`,
    )})
    select t.product_id,
      coalesce(sum(t.quantity * (t.last_day - t.first_day + 1)) filter (where t.booked), 0)::bigint as booked_units,
      coalesce(sum(t.quantity * (t.last_day - t.first_day + 1)) filter (where not t.booked), 0)::bigint as held_units
    from taken t
    where t.last_day >= t.first_day
    group by t.product_id`);
  return rowsOf<SellThroughFigures>(result).map((r) => ({
    product_id: r.product_id,
    booked_units: Number(r.booked_units),
    held_units: Number(r.held_units),
  }));
}

// ---------------------------------------------------------------------------------------------------------
// Renewal holds (right of first refusal, product.md section 15)
// ---------------------------------------------------------------------------------------------------------

export type RenewalHoldRow = {
  line_id: string;
  contract_id: string;
  title: string | null;
  customer_name: string | null;
  sales_rep_id: string | null;
  product_name: string;
  quantity: number;
  held_from: string;
  held_to: string;
  release_on: string;
  release_reason: string | null;
};

/**
 * Starts the renewal holds that are due, in one INSERT ... ON CONFLICT (line_id) DO NOTHING (so two instances
 * running the job start each hold once), and answers the new ones. A hold is due for each inventory line of
 * an active or paused contract with an auto-stop date at most `noticeDays` days after `today`: it keeps the
 * line's flight a year later (flight_start + 1 year .. flight_end + 1 year; a flight with no end runs to the
 * day before the auto-stop date; February 29 becomes February 28, as PostgreSQL adds a year), released on
 * `releaseDays` days before that flight starts, which must still be after `today`. `contractIds` limits it to
 * those contracts.
 */
export async function insertDueRenewalHolds(
  db: Db,
  today: string,
  options: { noticeDays: number; releaseDays: number; contractIds?: readonly string[] },
): Promise<RenewalHoldRow[]> {
  const only = options.contractIds
    ? sql`c.id = any(string_to_array(${options.contractIds.join(',')}, ',')::uuid[])`
    : sql`true`;
  const result = await db.execute(sql`
    with due as (
      insert into renewal_holds (line_id, contract_id, customer_id, product_id, quantity, held_from, held_to, release_on)
      select l.id, c.id, c.customer_id, l.product_id, l.quantity, s.held_from, s.held_to,
             s.held_from - ${options.releaseDays}::int
      from contracts c
      join contract_line_items l on l.contract_id = c.id
      join products p on p.id = l.product_id and p.inventory_required
      cross join lateral (
        select (l.flight_start + interval '1 year')::date as held_from,
               (coalesce(l.flight_end, c.auto_stop_date - 1) + interval '1 year')::date as held_to
      ) s
      where c.status in ('active', 'paused')
        and c.auto_stop_date is not null
        and c.auto_stop_date - ${options.noticeDays}::int <= ${today}::date
        and s.held_from - ${options.releaseDays}::int > ${today}::date
        and s.held_to >= s.held_from
        and ${only}
      on conflict (line_id) do nothing
      returning *
    )
    ${holdDetails(sql`due`)}`);
  return rowsOf<RenewalHoldRow>(result);
}

/**
 * Ends the renewal holds that are over, in one UPDATE ... RETURNING (so several instances report each once),
 * and answers them with their reason: `canceled` (the contract was canceled: there is no renewal to keep
 * the days for), `renewed` (the renewal is active or paused: it booked the days itself), `expired` (the
 * release day came, 30 days before the flight, and the renewal did not take the days).
 */
export async function releaseEndedRenewalHolds(db: Db, today: string): Promise<RenewalHoldRow[]> {
  const result = await db.execute(sql`
    with ended as (
      update renewal_holds rh
      set released_at = now(),
          release_reason = case
            when c.status = 'canceled' then 'canceled'
            when r.status in ('active', 'paused') then 'renewed'
            else 'expired' end
      from contracts c
      left join contracts r on r.renewal_of_id = c.id
      where c.id = rh.contract_id
        and rh.released_at is null
        and (rh.release_on <= ${today}::date or c.status = 'canceled' or r.status in ('active', 'paused'))
      returning rh.*
    )
    ${holdDetails(sql`ended`)}`);
  return rowsOf<RenewalHoldRow>(result);
}

/** The holds of a CTE with what a notice names: the contract, its customer and rep, the product. */
function holdDetails(from: SQL): SQL {
  return sql`
    select x.line_id, x.contract_id, c.title, coalesce(cu.company, cu.name) as customer_name, c.sales_rep_id,
           p.name as product_name, x.quantity, x.held_from::text as held_from, x.held_to::text as held_to,
           x.release_on::text as release_on, x.release_reason
    from ${from} x
    join contracts c on c.id = x.contract_id
    join products p on p.id = x.product_id
    left join customers cu on cu.id = c.customer_id
    order by c.id, x.held_from, p.name, x.line_id`;
}
