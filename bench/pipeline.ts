/**
 * The sales pipeline on a large book (product.md section 19; issue goal: p95 < 50 ms each, in process like the
 * reports rows): on the reports benchmark's database (bench/reports.ts: 100,000 contracts, 50 reps), 100,000
 * deals over the six default stages and the reps, with flights over the next 18 months, then the board's
 * summary, the deal list (first page, one stage's column, a search), the forecast of 12 months for the whole
 * team (booked from the stored months of decision 059, the pipeline spread by days) as it is read and right
 * after a contract's line changed (one rep recomputed by the billing engine), and the timeline of a customer
 * with 10,000 events (the customer with the most invoices, its issued and paid invoices and payments, and
 * activities to make up the rest).
 *
 *   npx tsx bench/pipeline.ts         builds what is missing, then measures
 *
 * Entry points for `npm run bench` (bench/run.ts, bench/data.ts): `bench(context)` and `generate(options)`.
 */
import pg from 'pg';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db/client';
import { createSession } from '../server/modules/sessions/sessions';
import type { BenchContext, BenchRow } from './lib/table';
import { generate as generateReports, timeRequests } from './reports';

const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const GOAL_MS = 50;
const DEALS = 100_000;
const TIMELINE_EVENTS = 10_000;
const TIMELINE_SUBJECT = 'Bench timeline call';

/** The reports database with 100,000 deals added (once). */
export async function generate(options: { pgUrl?: string; seed?: number } = {}): Promise<string> {
  const url = await generateReports(options);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await addTimelineEvents(client);
    await addBookedLines(client);
    const { rows } = await client.query(`select count(*)::int as n from deals`);
    if (rows[0].n >= DEALS) return url;
    const started = performance.now();
    // Deal g: customer g % customers, rep g % reps, stage g % 6 (the default six by position), an amount of
    // $1,000 to $50,000, a flight of 1 to 6 months starting 0 to 17 months from now, last active 0 to 40 days ago.
    await client.query(`
      insert into deals (customer_id, title, owner_id, stage_id, amount_cents, expected_close_date, flight_start,
                         flight_end, source, lost_reason, closed_at, last_activity_at, created_at, updated_at)
      select c.id, 'Deal ' || g, u.id, s.id, 100000 + (g * 7919) % 4900000,
             current_date + (g % 540), current_date + (g % 540), current_date + (g % 540) + 30 * (1 + g % 6),
             (array['inbound', 'outbound', 'referral', 'renewal'])[1 + g % 4],
             case when s.kind = 'lost' then 'Budget' end, case when s.kind <> 'open' then now() end,
             now() - ((g % 40) || ' days')::interval, now() - ((g % 400) || ' days')::interval,
             now() - ((g % 40) || ' days')::interval
      from generate_series(1, ${DEALS}) g
      join lateral (select id from customers order by id offset (g % (select count(*) from customers)) limit 1) c on true
      join lateral (select id from users where role = 'sales' order by id offset (g % 50) limit 1) u on true
      join lateral (select id, kind from pipeline_stages order by position offset (g % 6) limit 1) s on true`);
    await client.query('vacuum (analyze) deals');
    console.error(
      `[pipeline] ${DEALS.toLocaleString('en-US')} deals added in ${((performance.now() - started) / 1000).toFixed(0)} s`,
    );
  } finally {
    await client.end();
  }
  return url;
}

/**
 * Lines for the book's sent, active and paused contracts (the reports data stores their figures only), so that
 * the forecast's booked months schedule real lines (once): contract g gets product g % 20 at its price from the
 * start, and every third one a second line at $150.00, $300.00 from October to December, for nine months.
 */
async function addBookedLines(client: pg.Client): Promise<void> {
  const done = await client.query(`select 1 from contract_line_items limit 1`);
  if (done.rowCount) return;
  const started = performance.now();
  const { rowCount } = await client.query(`
    with book as (
      select c.id, c.start_date, row_number() over (order by c.id) as g
      from contracts c where c.status in ('sent', 'active', 'paused')
    ),
    catalog as (
      select id, default_price_cents, row_number() over (order by name, id) - 1 as k
      from products where not inventory_required and price_metric = 'monthly'
    )
    insert into contract_line_items (contract_id, product_id, quantity, unit_price_cents, line_total_cents, position,
                                     seasonal_price_cents, flight_start, flight_end)
    select b.id, p.id, 1, p.default_price_cents, p.default_price_cents, 0, null, b.start_date, null
    from book b join catalog p on p.k = b.g % (select count(*) from catalog)
    union all
    select b.id, p.id, 1, 15000, 15000, 1, 30000, b.start_date, b.start_date + interval '9 months' - interval '1 day'
    from book b join catalog p on p.k = (b.g + 1) % (select count(*) from catalog)
    where b.g % 3 = 0`);
  await client.query('vacuum (analyze) contract_line_items');
  console.error(
    `[pipeline] ${rowCount} contract lines added in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
}

/** The customer with the most invoices, and its events made up to TIMELINE_EVENTS with activities (once). */
async function addTimelineEvents(client: pg.Client): Promise<void> {
  const done = await client.query(`select 1 from activities where subject = $1 limit 1`, [TIMELINE_SUBJECT]);
  if (done.rowCount) return;
  const started = performance.now();
  const {
    rows: [heavy],
  } = await client.query(`
    select i.customer_id as id,
           count(*)::int + count(*) filter (where i.status = 'paid')::int
             + (select count(*) from payments p where p.customer_id = i.customer_id)::int as events
    from invoices i
    group by i.customer_id order by count(*) desc limit 1`);
  const missing = Math.max(0, TIMELINE_EVENTS - heavy.events);
  // Calls, one every 3 hours back from now, owned by the first rep.
  await client.query(
    `insert into activities (type, subject, body, done, done_at, customer_id, owner_id, created_at, updated_at)
     select 'call', $1, 'Talked about the next flight', true, now() - (g * 3 || ' hours')::interval, $2,
            (select id from users where role = 'sales' order by id limit 1),
            now() - (g * 3 || ' hours')::interval, now() - (g * 3 || ' hours')::interval
     from generate_series(1, $3::int) g`,
    [TIMELINE_SUBJECT, heavy.id, missing],
  );
  await client.query('vacuum (analyze) activities');
  console.error(
    `[pipeline] timeline customer: ${heavy.events} invoice and payment events, ${missing} activities added in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
}

/** `npm run bench`'s pipeline rows: p50 and p95 of each request, the goal p95 < 50 ms. */
export async function bench(context: BenchContext): Promise<BenchRow[]> {
  const url = await generate({ pgUrl: context.pgUrl, seed: context.seed });
  const database = await openDatabase({ url });
  await database.migrate();
  const db = database.db;
  const config = loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'silent', CLIENT_DIST: '/nonexistent' });
  const app = await buildApp({ config, db, logger: false });
  await app.ready();
  const first = async (text: string) =>
    ((await db.execute(text)) as unknown as { rows: Record<string, string>[] }).rows[0];
  const manager = (await first(`select id from users where email = 'reports-manager@example.test'`)).id;
  const rep = (await first(`select id from users where email = 'reports-rep-7@example.test'`)).id;
  const stage = (await first(`select id from pipeline_stages where name = 'Qualified'`)).id;
  const stats = await first(
    `select (select count(*) from deals) as deals, (select count(*) from contracts) as contracts`,
  );
  const timelineCustomer = (
    await first(`select customer_id from activities where subject = '${TIMELINE_SUBJECT}' limit 1`)
  ).customer_id;
  // Lines of active contracts, a different one before each request of the "after a change" row.
  const changing = (
    (await db.execute(
      `select l.id from contract_line_items l join contracts c on c.id = l.contract_id
     where c.status = 'active' and c.sales_rep_id is not null order by l.id limit 500`,
    )) as unknown as { rows: { id: string }[] }
  ).rows.map((row) => row.id);
  let changed = 0;
  const tokens = {
    manager: (await createSession(db, manager, app.sessionPolicy, {})).token,
    rep: (await createSession(db, rep, app.sessionPolicy, {})).token,
  };
  const runs = context.quick ? 20 : Math.max(60, context.rounds * 20);
  const rows: BenchRow[] = [];
  const measure = async (
    name: string,
    path: string,
    who: keyof typeof tokens = 'manager',
    before?: () => Promise<unknown>,
  ) => {
    const get = () => app.inject({ method: 'GET', url: path, headers: { authorization: `Bearer ${tokens[who]}` } });
    const call = before
      ? async () => {
          await before();
          return get();
        }
      : get;
    const { p50, p95 } = await timeRequests(path, call, runs);
    rows.push({
      name,
      ours: `p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms`,
      baseline: '—',
      ratio: '—',
      goal: `p95 < ${GOAL_MS} ms`,
      met: p95 < GOAL_MS,
      note: `${runs} sequential requests in process (app.inject) on ${Number(stats.deals).toLocaleString('en-US')} deals and ${Number(stats.contracts).toLocaleString('en-US')} contracts, PostgreSQL`,
    });
    console.error(`[pipeline] ${name}: p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms`);
  };
  try {
    await measure('Pipeline board summary, every deal', '/api/pipeline/summary');
    await measure('Pipeline board summary, a rep’s own', '/api/pipeline/summary', 'rep');
    await measure('Deal list, first page of 50', '/api/deals?limit=50');
    await measure("Deal list, one stage's column", `/api/deals?stage=${stage}&limit=50&sort=-updatedAt`);
    await measure('Deal list, a search', '/api/deals?q=deal%20777&limit=50');
    await measure('Forecast, 12 months by rep, the whole team', '/api/forecast?months=12');
    await measure('Forecast, 12 months, a rep’s own', '/api/forecast?months=12', 'rep');
    // Timed with the change: a line's quantity written (its rep marked), then the forecast that recomputes it.
    await measure(
      'Forecast, the whole team, right after a contract line changed',
      '/api/forecast?months=12',
      'manager',
      () =>
        db.execute(
          `update contract_line_items set quantity = case when quantity = 1 then 2 else 1 end where id = '${changing[changed++ % changing.length]}'`,
        ),
    );
    await measure(
      `Customer timeline, first page of 50 of ${TIMELINE_EVENTS.toLocaleString('en-US')} events`,
      `/api/customers/${timelineCustomer}/timeline?limit=50`,
    );
  } finally {
    await app.close();
    await database.close();
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await bench({ pgUrl: PG_URL, rounds: 3, quick: Boolean(process.env.BENCH_QUICK), seed: 1 });
  for (const row of rows) console.log(`${row.met ? 'ok  ' : 'SLOW'} ${row.name}: ${row.ours} (${row.goal})`);
}
