import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rowsOf } from '../lib/db-rows';
import { AppError } from '../lib/errors';
import type { Mailer } from '../lib/mailer';
import { applyDelivery, type DeliveryEntry } from '../modules/delivery/delivery.service';
import type { SessionUser } from '../modules/sessions/sessions';

/**
 * The demo's delivery figures, as the sales manager records them from the ad server's reports: on each step
 * of the billing timeline (seed-billing.ts), every CPM line's billed period that has ended by then, through
 * the same service as the contract page and the CSV import. Most lines deliver in full (100% to 111%); two
 * fall short and are settled by the product's own rules: North Pole's first pre-roll month (94%: a credit
 * note) and Frost & Pine's second overlay month (88%: a makegood, carried free on its next invoice).
 */
export async function recordDemoDelivery(
  deps: { db: Db; mailer: Mailer; baseUrl: string },
  actor: SessionUser,
  asOf: string,
): Promise<void> {
  const due = rowsOf<{
    line_id: string;
    contract_id: string;
    month: string;
    period_index: number;
    booked: string | number;
    description: string | null;
  }>(
    await deps.db.execute(sql`
      select il.line_id, i.contract_id, to_char(i.period_start, 'YYYY-MM') as month, i.period_index,
             il.impressions + coalesce((select sum(m.impressions) from invoice_lines m
               where m.invoice_id = i.id and m.kind = 'makegood' and m.line_id = il.line_id), 0) as booked,
             c.description
      from invoice_lines il
      join invoices i on i.id = il.invoice_id
      join contracts c on c.id = i.contract_id
      left join line_deliveries d on d.line_id = il.line_id and d.period_start = i.period_start
      where il.kind = 'product' and il.price_metric = 'cpm' and il.line_id is not null and il.impressions is not null
        and i.status <> 'void' and i.period_end < ${asOf}::date and d.id is null
      order by i.period_start, il.line_id`),
  );
  if (due.length === 0) return;
  const entries: DeliveryEntry[] = due.map((row) => {
    const booked = Number(row.booked);
    const permille =
      SHORT.get(`${row.description}#${row.period_index}`) ?? 1000 + (hash(`${row.line_id}${row.month}`) % 112);
    const impressions = Math.floor((booked * permille) / 1000);
    return {
      contractId: row.contract_id,
      lineId: row.line_id,
      month: row.month,
      impressions,
      clicks: Math.floor((impressions * (8 + (hash(row.month) % 9))) / 1000),
    };
  });
  await applyDelivery(deps, actor, entries, (problems) => new AppError('CONFLICT', problems[0].message));
}

/** The periods that fall short, by contract description and period number: delivered per mille of booked. */
const SHORT = new Map<string, number>([
  ['CPM pre-roll all season, a mid-month banner flight and the CTN movie-night special#0', 940],
  ['Banner plus 120k overlay impressions a month#1', 880],
]);

/** A small stable hash (the same figures on every start). */
function hash(text: string): number {
  let h = 7;
  for (const ch of text) h = (h * 31 + ch.charCodeAt(0)) % 1_000_003;
  return h;
}
