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
};

/**
 * Records delivery in one statement: new periods inserted, unsettled ones whose figures differ updated.
 * A settled period is never touched (the conflict's WHERE), nor one whose figures are the same: only rows
 * that changed come back, with the figures they had before.
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
    })),
  );
  return rowsOf<WrittenDelivery>(
    await tx.execute(sql`
      with input as (
        select * from jsonb_to_recordset(${json}::jsonb) as r(contract_id uuid, line_id uuid, invoice_id uuid,
          period_start date, period_end date, booked bigint, makegood bigint, delivered bigint, clicks bigint)
      ),
      before as (
        select d.line_id, d.period_start, d.delivered_impressions, d.clicks
        from line_deliveries d join input r on r.line_id = d.line_id and r.period_start = d.period_start
      )
      insert into line_deliveries as d (contract_id, line_id, invoice_id, period_start, period_end,
        booked_impressions, makegood_impressions, delivered_impressions, clicks, recorded_by)
      select r.contract_id, r.line_id, r.invoice_id, r.period_start, r.period_end, r.booked, r.makegood,
             r.delivered, r.clicks, ${recordedBy}::uuid
      from input r
      order by r.line_id, r.period_start
      on conflict (line_id, period_start) do update
        set delivered_impressions = excluded.delivered_impressions, clicks = excluded.clicks,
            booked_impressions = excluded.booked_impressions, makegood_impressions = excluded.makegood_impressions,
            invoice_id = excluded.invoice_id, period_end = excluded.period_end,
            recorded_by = excluded.recorded_by, updated_at = now()
        where d.settled_at is null
          and (d.delivered_impressions, d.clicks) is distinct from (excluded.delivered_impressions, excluded.clicks)
      returning d.id, d.line_id, d.period_start::text as period_start, d.booked_impressions,
                d.delivered_impressions, d.clicks,
                (select b.delivered_impressions from before b
                 where b.line_id = d.line_id and b.period_start = d.period_start) as before_delivered,
                (select b.clicks from before b
                 where b.line_id = d.line_id and b.period_start = d.period_start) as before_clicks`),
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

/**
 * Settles the under-delivered periods among these rows: ONE conditional UPDATE (settled_at is null) decides,
 * so a period settles once whatever runs at once. The remedy is the contract's; a makegood needs a later
 * period of the line to run in (a running contract whose term and the line's flight go past its last
 * invoiced period), otherwise it is a credit.
 */
export async function settleUnderDelivered(tx: Db, deliveryIds: readonly string[]): Promise<SettledDelivery[]> {
  if (deliveryIds.length === 0) return [];
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
        where d.id = any(string_to_array(${deliveryIds.join(',')}, ',')::uuid[])
      )
      update line_deliveries d
      set settled_at = now(), remedy = chosen.remedy,
          shortfall_impressions = d.booked_impressions - d.delivered_impressions, updated_at = now()
      from chosen
      where d.id = chosen.id and d.settled_at is null and d.delivered_impressions < d.booked_impressions
      returning d.id, d.contract_id, d.line_id, d.invoice_id, d.period_start::text as period_start,
                d.booked_impressions, d.makegood_impressions, d.delivered_impressions, d.shortfall_impressions,
                d.remedy, chosen.under_delivery_remedy as chosen_remedy`),
  );
}

/** A credit remedy's note, linked to the period it settled. */
export async function linkCreditNote(tx: Db, deliveryId: string, creditNoteId: string): Promise<void> {
  await tx.execute(sql`update line_deliveries set credit_note_id = ${creditNoteId} where id = ${deliveryId}`);
}
