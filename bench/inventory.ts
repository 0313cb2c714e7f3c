/**
 * Inventory availability on a large book (product.md section 13; issue goal: one product over 92 days in
 * p95 < 50 ms with 100,000 contracts): on the reports benchmark's database (bench/reports.ts, 100,000
 * contracts), five inventory products and a line on every contract (one in four on an inventory product,
 * flights of 7 to 35 days starting from 400 days ago to 400 days ahead, whatever the contract's status), then
 * GET /api/products/{id}/availability over the season, the Inventory screen's calendar and a day's holders.
 *
 *   npx tsx bench/inventory.ts         builds what is missing, then measures
 *
 * Entry points for `npm run bench` (bench/run.ts, bench/data.ts): `bench(context)` and `generate(options)`.
 */
import pg from 'pg';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db/client';
import { createSession } from '../server/modules/sessions/sessions';
import { holidaySeason } from '../shared/contracts/inventory';
import type { BenchContext, BenchRow } from './lib/table';
import { generate as generateReports, timeRequests } from './reports';

const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const GOAL_MS = 50;
const PRODUCTS = 5;

/** The reports database with the inventory products and contract lines added (once). */
export async function generate(options: { pgUrl?: string; seed?: number } = {}): Promise<string> {
  const url = await generateReports(options);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(`select 1 from products where name = 'Inventory 1'`);
    if (rows.length) return url;
    const started = performance.now();
    const uid = (kind: string, n: string) =>
      `overlay(overlay(md5('inventory-bench:${kind}:' || ${n}) placing '4' from 13) placing '8' from 17)::uuid`;
    await client.query(`
      insert into products (id, name, ad_type, default_price_cents, price_metric, default_duration,
                            inventory_required, capacity)
      select ${uid('product', 'g')}, 'Inventory ' || g, 'banner', 250000, 'flat', 14, true, 20
      from generate_series(1, ${PRODUCTS}) g;
      insert into contract_line_items (contract_id, product_id, quantity, unit_price_cents, line_total_cents,
                                       position, price_metric, flight_start, flight_end)
      select c.id,
             case when n % 4 = 0 then ${uid('product', `(1 + (n / 4) % ${PRODUCTS})`)}
                  else (select id from products where not inventory_required order by id limit 1) end,
             1, 250000, 250000, 0, 'flat', s.start, s.start + (7 + n % 29)::int
      from (select id, row_number() over (order by id) as n from contracts) c
      cross join lateral (select current_date - 400 + (c.n * 7 % 800)::int as start) s;`);
    // Vacuumed as well as analyzed, as autovacuum would soon after on a server: without the visibility map the
    // planner reads the product's lines through the heap instead of the covering flight index.
    await client.query('vacuum (analyze) contract_line_items, products');
    console.error(`[inventory] lines added in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  } finally {
    await client.end();
  }
  return url;
}

/** `npm run bench`'s inventory rows: p50 and p95 of each request, the goal p95 < 50 ms. */
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
  const product = (await first(`select id from products where name = 'Inventory 1'`)).id;
  const stats = await first(
    `select (select count(*) from contracts) as contracts,
            (select count(*) from contract_line_items where product_id = '${product}') as lines`,
  );
  const token = (await createSession(db, manager, app.sessionPolicy, {})).token;
  const season = holidaySeason(new Date().toISOString().slice(0, 10));
  const runs = context.quick ? 20 : Math.max(60, context.rounds * 20);
  const rows: BenchRow[] = [];
  const measure = async (name: string, path: string) => {
    const call = () => app.inject({ method: 'GET', url: path, headers: { authorization: `Bearer ${token}` } });
    const { p50, p95 } = await timeRequests(path, call, runs);
    rows.push({
      name,
      ours: `p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms`,
      baseline: '—',
      ratio: '—',
      goal: `p95 < ${GOAL_MS} ms`,
      met: p95 < GOAL_MS,
      note: `${runs} sequential requests in process (app.inject) on ${Number(stats.contracts).toLocaleString('en-US')} contracts (${Number(stats.lines).toLocaleString('en-US')} lines of the product), PostgreSQL`,
    });
    console.error(`[inventory] ${name}: p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms`);
  };
  try {
    await measure(
      'Inventory availability, one product over 92 days',
      `/api/products/${product}/availability?from=${season.from}&to=${season.to}`,
    );
    await measure(`Inventory calendar, ${PRODUCTS} products over the season`, '/api/inventory');
    await measure(
      'Inventory day, the contracts holding it',
      `/api/inventory/${product}/${season.from.slice(0, 4)}-12-01`,
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
