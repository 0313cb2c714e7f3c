import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { rowsOf } from '../../lib/db-rows';

/**
 * The statements of proof of performance (product.md section 12): a CPM line's billed periods are its invoice
 * lines (kind product, price metric cpm, the line's id and booked impressions), each with the delivery
 * recorded for it (the line_deliveries row of the same line and period start, written by the delivery
 * module). invoices.delivery.ts turns a row into what the API answers.
 */

/** One billed CPM period with what its invoice says and the delivery recorded for it (if any). */
export type PeriodRow = {
  line_id: string;
  contract_id: string;
  contract_title: string | null;
  contract_status: string;
  sales_rep_id: string | null;
  customer_id: string;
  customer_name: string;
  product_name: string;
  invoice_id: string;
  invoice_number: string;
  period_start: string;
  period_end: string;
  month: string;
  /** The impressions the period's invoice billed for the line. */
  paid_impressions: string | number;
  /** What the invoice charged for the line (the rate billed that period x the volume). */
  amount_cents: string | number;
  /** Free impressions the invoice carries for the line (makegoods of earlier periods). */
  makegood_impressions: string | number;
  delivery_id: string | null;
  booked_impressions: string | number | null;
  recorded_makegood_impressions: string | number | null;
  delivered_impressions: string | number | null;
  clicks: string | number | null;
  remedy: string | null;
  shortfall_impressions: string | number | null;
  credit_note_id: string | null;
  credit_note_number: string | null;
  credit_note_amount_cents: string | number | null;
  makegood_invoice_id: string | null;
  makegood_invoice_number: string | null;
  settled_at: string | Date | null;
  final_at: string | Date | null;
  recorded_at: string | Date | null;
  recorder_first_name: string | null;
  recorder_last_name: string | null;
};

/** The billed CPM periods and their delivery, from a filter on i (invoices), c (contracts) and d (deliveries). */
/**
 * The billed CPM periods from `source` (the invoices of a filter, or the lines of some keys), whose order
 * is the join order: with this many relations PostgreSQL keeps the written order past the first eight, so
 * the driving rows come first and reach the rest through their indexes.
 */
const byInvoices = sql`from invoices i join invoice_lines il on il.invoice_id = i.id`;
const periodsFrom = (source: SQL, where: SQL, details: SQL = sql``) => sql`
  ${source}
  join contracts c on c.id = i.contract_id
  join contract_line_items li on li.id = il.line_id
  -- The period's delivery by its unique key (line, period start), whatever the statistics say.
  left join lateral (
    select * from line_deliveries x where x.line_id = il.line_id and x.period_start = i.period_start offset 0
  ) d on true
  ${details}
  where il.kind = 'product' and il.price_metric = 'cpm' and il.line_id is not null and il.impressions is not null
    and i.status <> 'void' and ${where}`;

const periodColumns = sql`
  select il.line_id, i.contract_id, c.title as contract_title, c.status as contract_status, c.sales_rep_id,
         c.customer_id, cu.name as customer_name, il.description as product_name,
         i.id as invoice_id, i.number as invoice_number,
         i.period_start::text as period_start, i.period_end::text as period_end,
         to_char(i.period_start, 'YYYY-MM') as month,
         il.impressions as paid_impressions, il.amount_cents,
         coalesce((select sum(m.impressions) from invoice_lines m
                   where m.invoice_id = i.id and m.kind = 'makegood' and m.line_id = il.line_id), 0)
           as makegood_impressions,
         d.id as delivery_id, d.booked_impressions, d.makegood_impressions as recorded_makegood_impressions,
         d.delivered_impressions, d.clicks, d.remedy, d.shortfall_impressions,
         d.credit_note_id, cn.number as credit_note_number, cn.amount_cents as credit_note_amount_cents,
         d.makegood_invoice_id, mi.number as makegood_invoice_number, d.settled_at, d.final_at,
         d.updated_at as recorded_at,
         u.first_name as recorder_first_name, u.last_name as recorder_last_name`;

const periodDetails = sql`
  join customers cu on cu.id = c.customer_id
  left join credit_notes cn on cn.id = d.credit_note_id
  left join invoices mi on mi.id = d.makegood_invoice_id
  left join users u on u.id = d.recorded_by`;

/** A page of billed CPM periods, newest period first, then in line order. */
export async function selectPeriodPage(
  db: Db,
  where: SQL,
  page: { limit: number; offset: number },
): Promise<{ rows: PeriodRow[]; total: number }> {
  const [rows, counted] = await Promise.all([
    db.execute(sql`${periodColumns} ${periodsFrom(byInvoices, where, periodDetails)}
      order by i.period_start desc, li.position, li.id
      limit ${page.limit} offset ${page.offset}`),
    db.execute(sql`select count(*) as total ${periodsFrom(byInvoices, where)}`),
  ]);
  return { rows: rowsOf<PeriodRow>(rows), total: Number(rowsOf<{ total: string | number }>(counted)[0]?.total ?? 0) };
}

/** The billed CPM periods of one invoice (its proof of performance), in line order. */
export async function selectInvoicePeriods(db: Db, invoiceId: string): Promise<PeriodRow[]> {
  return rowsOf<PeriodRow>(
    await db.execute(sql`${periodColumns} ${periodsFrom(byInvoices, sql`i.id = ${invoiceId}`, periodDetails)}
      order by li.position, li.id`),
  );
}

/** The billed CPM periods of these (line, month) pairs, where they exist. */
export async function selectPeriodsByKey(
  db: Db,
  keys: readonly { lineId: string; month: string }[],
): Promise<PeriodRow[]> {
  if (keys.length === 0) return [];
  const json = JSON.stringify(keys.map((k) => ({ line_id: k.lineId, month: k.month })));
  // Each key reaches its line's invoice lines through their index (LATERAL, kept apart by OFFSET 0: the keys
  // drive, whatever the planner's statistics say; the embedded database never gathers any by itself).
  const source = sql`from jsonb_to_recordset(${json}::jsonb) as k(line_id uuid, month text)
    cross join lateral (
      select l.* from invoice_lines l
      where l.line_id = k.line_id and l.line_id is not null and l.kind = 'product'
      offset 0
    ) il
    join invoices i on i.id = il.invoice_id and to_char(i.period_start, 'YYYY-MM') = k.month`;
  return rowsOf<PeriodRow>(await db.execute(sql`${periodColumns} ${periodsFrom(source, sql`true`, periodDetails)}`));
}

/**
 * The billed CPM periods that hold these (line, day) pairs (a pushed day's period), each with its day; a day
 * no period of its line holds has no row.
 */
export async function selectPeriodsByDay(
  db: Db,
  keys: readonly { lineId: string; day: string }[],
): Promise<(PeriodRow & { day: string })[]> {
  if (keys.length === 0) return [];
  const json = JSON.stringify(keys.map((k) => ({ line_id: k.lineId, day: k.day })));
  // As selectPeriodsByKey: each key reaches its line's invoice lines through their index.
  const source = sql`from jsonb_to_recordset(${json}::jsonb) as k(line_id uuid, day date)
    cross join lateral (
      select l.* from invoice_lines l
      where l.line_id = k.line_id and l.line_id is not null and l.kind = 'product'
      offset 0
    ) il
    join invoices i on i.id = il.invoice_id and k.day between i.period_start and i.period_end`;
  return rowsOf<PeriodRow & { day: string }>(
    await db.execute(sql`${periodColumns}, k.day::text as day ${periodsFrom(source, sql`true`, periodDetails)}`),
  );
}
