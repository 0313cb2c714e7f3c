/**
 * The reports' latency on a large book: GET /api/reports for every range, as a manager (company-wide) and
 * as a sales rep (their own book), plus the dashboard figures and the health check, on PostgreSQL with
 * 100,000 contracts and 1,000,000 invoices (BENCH_REPORTS_CONTRACTS / BENCH_REPORTS_INVOICES). Goal: p95
 * under 50 ms each.
 *
 *   npx tsx bench/reports.ts          builds the data when missing or stale, then measures
 *   BENCH_REBUILD=1 npx tsx bench/reports.ts
 *
 * Entry points for `npm run bench` (bench/run.ts, bench/data.ts): `bench(context)` and `generate(options)`.
 * The data generator `seedReportData()` is exported for other benchmarks: every row is arithmetic on its
 * number and the seed, all statements set-based (INSERT ... SELECT over generate_series, in chunks).
 * Requests go through the real app in process (app.inject), so routing, validation, the queries and JSON
 * serialisation are all measured; the database is the one PostgreSQL server of BENCH_PG_URL.
 */
import pg from 'pg';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db/client';
import { hashPassword } from '../server/lib/password';
import { compactReportTotals } from '../server/modules/reports/reports.repo';
import { createSession } from '../server/modules/sessions/sessions';
import { benchDb } from './lib/databases';
import type { BenchContext, BenchRow } from './lib/table';

export const REPORTS_GENERATOR_VERSION = 1;
export const REPORTS_DB = benchDb('reports');
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const CONTRACTS = Number(process.env.BENCH_REPORTS_CONTRACTS ?? 100_000);
const INVOICES = Number(process.env.BENCH_REPORTS_INVOICES ?? 1_000_000);
export const REPORT_BENCH_REPS = 50;
const RANGES = ['current_month', 'last_month', 'last_3_months', 'last_6_months', 'current_year'] as const;
const GOAL_MS = 50;

export type Exec = (text: string) => Promise<void>;
export type ReportDataOptions = {
  contracts: number;
  invoices: number;
  seed: number;
  onProgress?: (text: string) => void;
};

/**
 * Fills an empty, migrated database: an admin, a manager and 50 reps (password bench1234), contracts/10
 * customers, 20 products, `contracts` contracts over every status, reps and four years of start dates,
 * `invoices` invoices (the same number per contract, monthly from its start, never in the future) with one
 * or two product lines each, a payment for each paid invoice, failed attempts, refunds and void invoices,
 * an audit event per contract and per invoice, and pending payouts. Dates are relative to today, so every range has data.
 */
export async function seedReportData(exec: Exec, options: ReportDataOptions): Promise<void> {
  const { contracts, invoices, seed } = options;
  const say = options.onProgress ?? (() => {});
  const perContract = Math.max(1, Math.round(invoices / contracts));
  // Start days spread over the four years so that every invoice (monthly from the start) is in the past.
  const startDays = Math.max(1, 1460 - (perContract - 1) * 31 - 1);
  const customers = Math.max(10, Math.round(contracts / 10));
  const uid = (kind: string, n: string) =>
    `overlay(overlay(md5('reports-bench:${seed}:${kind}:' || ${n}) placing '4' from 13) placing '8' from 17)::uuid`;
  const hash = await hashPassword('bench1234');
  // Today, and the first day of the month 48 months ago: the book's four years.
  const epoch = `(date_trunc('month', now() at time zone 'UTC')::date - interval '48 months')::date`;

  await exec(`
    insert into users (id, email, password_hash, first_name, last_name, role)
    values (${uid('user', "'admin'")}, 'reports-admin@example.test', '${hash}', 'Bench', 'Admin', 'admin'),
           (${uid('user', "'manager'")}, 'reports-manager@example.test', '${hash}', 'Bench', 'Manager', 'sales_manager');
    insert into users (id, email, password_hash, first_name, last_name, role)
    select ${uid('user', 'g')}, 'reports-rep-' || g || '@example.test', '${hash}', 'Rep', 'Number ' || g, 'sales'
    from generate_series(1, ${REPORT_BENCH_REPS}) g;
    insert into customers (id, name, email)
    select ${uid('customer', 'g')}, 'Customer ' || g, 'customer' || g || '@example.test'
    from generate_series(1, ${customers}) g;
    insert into products (id, name, ad_type, default_price_cents, price_metric)
    select ${uid('product', 'g')}, 'Product ' || g, 'banner', 20000 + g * 5000, 'monthly'
    from generate_series(1, 20) g;`);

  const chunk = 10_000;
  for (let from = 1; from <= contracts; from += chunk) {
    const to = Math.min(contracts, from + chunk - 1);
    // Contract g starts on day (g * 37) % startDays of the four years; its invoices are monthly from there. Status: mostly active; the mix covers every status.
    await exec(`
      insert into contracts (id, customer_id, sales_rep_id, description, status, start_date, term_months,
                             auto_stop_date, payment_mode, monthly_amount_cents, line_items_total_cents,
                             total_cents, term_value_cents, created_at, updated_at)
      select ${uid('contract', 'g')}, ${uid('customer', `(1 + g % ${customers})`)},
             ${uid('user', `(1 + g % ${REPORT_BENCH_REPS})`)}, 'Campaign ' || g,
             (array['active','active','active','active','paused','completed','canceled','sent','draft','active'])[1 + g % 10],
             s.start, 12 + g % 25, (s.start + make_interval(months => 12 + g % 25))::date,
             case when g % 2 = 0 then 'portal' else 'pay_link' end,
             30000 + (g % 40) * 2500, 30000 + (g % 40) * 2500, (30000 + (g % 40) * 2500) * (12 + g % 25),
             (30000 + (g % 40) * 2500) * (12 + g % 25),
             s.start::timestamp at time zone 'UTC', s.start::timestamp at time zone 'UTC'
      from generate_series(${from}, ${to}) g,
           lateral (select least(${epoch} + (g * 37) % ${startDays}, current_date) as start) s;
      insert into invoices (id, number, contract_id, customer_id, period_index, period_start, period_end, due_date,
                            status, subtotal_cents, tax_cents, tax_label, tax_rate_bp, tax_included, total_cents,
                            amount_paid_cents, issued_at, paid_at)
      select ${uid('invoice', `g || ':' || k`)}, 'RB-' || g || '-' || k, c.id, c.customer_id, k,
             p.period_start, (p.period_start + interval '1 month' - interval '1 day')::date, p.period_start + 10,
             st.status, c.monthly_amount_cents, c.monthly_amount_cents / 10, 'Tax', 1000, false,
             c.monthly_amount_cents + c.monthly_amount_cents / 10,
             case when st.status = 'paid' then c.monthly_amount_cents + c.monthly_amount_cents / 10 else 0 end,
             p.period_start::timestamp at time zone 'UTC' + interval '6 hours',
             case when st.status = 'paid' then p.period_start::timestamp at time zone 'UTC' + interval '3 days' end
      from generate_series(${from}, ${to}) g
      join contracts c on c.id = ${uid('contract', 'g')}
      cross join lateral generate_series(0, ${perContract - 1}) k
      cross join lateral (select (c.start_date + make_interval(months => k))::date as period_start) p
      cross join lateral (select case when (g + k) % 50 = 0 then 'void'
                                      when (g + k) % 13 = 0 and p.period_start > current_date - 90 then 'failed'
                                      when p.period_start > current_date - 20 then 'pending' else 'paid' end as status) st
      where p.period_start <= current_date;
      insert into invoice_lines (invoice_id, position, kind, description, product_id, unit_price_cents, amount_cents)
      select i.id, l, 'product', 'Line', ${uid('product', `(1 + (i.period_index * 7 + l + length(i.number)) % 20)`)},
             i.subtotal_cents / (1 + l % 2), i.subtotal_cents / (1 + l % 2)
      from generate_series(${from}, ${to}) g
      join invoices i on i.contract_id = ${uid('contract', 'g')}
      cross join lateral generate_series(0, (i.period_index % 2)) l;
      insert into payments (invoice_id, contract_id, customer_id, kind, status, amount_cents, method, provider, paid_at)
      select i.id, i.contract_id, i.customer_id, 'payment', 'succeeded', i.total_cents, 'card', 'bench', i.paid_at
      from generate_series(${from}, ${to}) g
      join invoices i on i.contract_id = ${uid('contract', 'g')}
      where i.status = 'paid';
      insert into payments (invoice_id, contract_id, customer_id, kind, status, amount_cents, method, provider,
                            failure_message, paid_at)
      select i.id, i.contract_id, i.customer_id, 'payment', 'failed', i.total_cents, 'card', 'bench', 'Card declined',
             i.issued_at + interval '2 days'
      from generate_series(${from}, ${to}) g
      join invoices i on i.contract_id = ${uid('contract', 'g')}
      where i.status = 'failed';
      insert into payments (invoice_id, contract_id, customer_id, kind, status, amount_cents, method, provider, paid_at)
      select i.id, i.contract_id, i.customer_id, 'refund', 'succeeded', i.total_cents / 4, 'card', 'bench',
             i.paid_at + interval '5 days'
      from generate_series(${from}, ${to}) g
      join invoices i on i.contract_id = ${uid('contract', 'g')}
      where i.status = 'paid' and (g + i.period_index) % 97 = 3;`);
    // The audit trail as the product writes it: each contract created by its rep, each invoice issued.
    await exec(`
      insert into audit_events (actor_id, action, entity, entity_id, after, created_at)
      select c.sales_rep_id, 'contract.created', 'contract', c.id::text, jsonb_build_object('status', c.status),
             c.created_at
      from generate_series(${from}, ${to}) g
      join contracts c on c.id = ${uid('contract', 'g')};
      insert into audit_events (actor_id, action, entity, entity_id, after, created_at)
      select null, 'invoice.issued', 'invoice', i.id::text, jsonb_build_object('number', i.number), i.issued_at
      from generate_series(${from}, ${to}) g
      join invoices i on i.contract_id = ${uid('contract', 'g')};`);
    say(`contracts ${to.toLocaleString('en-US')} / ${contracts.toLocaleString('en-US')}`);
  }
  await exec(`
    insert into payouts (rep_id, status, requested_cents, requested_at)
    select ${uid('user', `(1 + g % ${REPORT_BENCH_REPS})`)}, case when g % 3 = 0 then 'pending' else 'rejected' end,
           10000 + g, now() - g * interval '1 hour'
    from generate_series(1, 300) g;`);
  // Index-only scans need the visibility map that autovacuum would set on a live database.
  await exec('vacuum analyze');
}

function databaseUrl(base: string, name: string): string {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

const marker = (seed: number, contracts: number, invoices: number) =>
  `adcrm reports bench v${REPORTS_GENERATOR_VERSION} seed=${seed} contracts=${contracts} invoices=${invoices} day=${new Date()
    .toISOString()
    .slice(0, 7)}`;

/** Builds the reports database (when missing, stale, or BENCH_REBUILD is set); returns its URL. */
export async function generate(options: { pgUrl?: string; seed?: number } = {}): Promise<string> {
  const pgUrl = options.pgUrl ?? PG_URL;
  const seed = options.seed ?? Number(process.env.BENCH_SEED ?? 1);
  const want = marker(seed, CONTRACTS, INVOICES);
  const url = databaseUrl(pgUrl, REPORTS_DB);
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ comment: string | null }>(
      'select shobj_description(oid, $2) as comment from pg_database where datname = $1',
      [REPORTS_DB, 'pg_database'],
    );
    if (rows[0]?.comment === want && !process.env.BENCH_REBUILD) {
      console.error(`[reports] ${REPORTS_DB}: current, kept`);
      return url;
    }
    await admin.query(`drop database if exists ${REPORTS_DB} with (force)`);
    await admin.query(`create database ${REPORTS_DB}`);
  } finally {
    await admin.end();
  }
  const database = await openDatabase({ url });
  await database.migrate();
  await database.close();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const started = performance.now();
  try {
    await seedReportData(async (text) => void (await client.query(text)), {
      contracts: CONTRACTS,
      invoices: INVOICES,
      seed,
      onProgress: (text) => console.error(`[reports] ${text}`),
    });
    const counts = await client.query<{ c: string; i: string; p: string; l: string }>(
      `select (select count(*) from contracts) c, (select count(*) from invoices) i,
              (select count(*) from payments) p, (select count(*) from invoice_lines) l`,
    );
    const r = counts.rows[0];
    console.error(
      `[reports] ${REPORTS_DB}: ${r.c} contracts, ${r.i} invoices, ${r.l} lines, ${r.p} payments in ${((performance.now() - started) / 1000).toFixed(0)} s`,
    );
    await client.query(`comment on database ${REPORTS_DB} is '${want}'`);
  } finally {
    await client.end();
  }
  return url;
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/**
 * p50 and p95 of `runs` sequential calls (after 5 warm-up calls) of an in-process request; a status other
 * than 200 stops the benchmark.
 */
export async function timeRequests(
  path: string,
  call: () => Promise<{ statusCode: number; body: string }>,
  runs: number,
): Promise<{ p50: number; p95: number }> {
  for (let i = 0; i < 5; i++) await call();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const response = await call();
    times.push(performance.now() - t0);
    if (response.statusCode !== 200) throw new Error(`${path}: ${response.statusCode} ${response.body}`);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
}

/** `npm run bench`'s reports rows: p50 and p95 of each request, the goal p95 < 50 ms. */
export async function bench(context: BenchContext): Promise<BenchRow[]> {
  const url = await generate({ pgUrl: context.pgUrl, seed: context.seed });
  // Folding the whole generated backlog at once (below) may take longer than a request's 30 s: a server folds
  // every five minutes, a few minutes of changes each time.
  const database = await openDatabase({ url, queryTimeoutMs: 600_000 });
  await database.migrate();
  const db = database.db;
  // The totals as the running server keeps them: folded every few minutes.
  await compactReportTotals(db);
  const config = loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'silent', CLIENT_DIST: '/nonexistent' });
  const app = await buildApp({ config, db, logger: false });
  await app.ready();
  const userId = async (email: string) =>
    ((await db.execute(`select id from users where email = '${email}'`)) as unknown as { rows: { id: string }[] })
      .rows[0].id;
  const tokens = {
    manager: (await createSession(db, await userId('reports-manager@example.test'), app.sessionPolicy, {})).token,
    rep: (await createSession(db, await userId('reports-rep-7@example.test'), app.sessionPolicy, {})).token,
  };
  const runs = context.quick ? 20 : Math.max(60, context.rounds * 20);
  const rows: BenchRow[] = [];
  const measure = async (name: string, path: string, token?: string) => {
    const call = () =>
      app.inject({ method: 'GET', url: path, headers: token ? { authorization: `Bearer ${token}` } : {} });
    const { p50, p95 } = await timeRequests(path, call, runs);
    rows.push({
      name,
      ours: `p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms`,
      baseline: '—',
      ratio: '—',
      goal: `p95 < ${GOAL_MS} ms`,
      met: p95 < GOAL_MS,
      note: `${runs} sequential requests in process (app.inject) on ${CONTRACTS.toLocaleString('en-US')} contracts / ${INVOICES.toLocaleString('en-US')} invoices, PostgreSQL`,
    });
    console.error(`[reports] ${name}: p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms`);
  };
  try {
    for (const range of RANGES) {
      await measure(`Reports ${range}, manager (all contracts)`, `/api/reports?range=${range}`, tokens.manager);
    }
    for (const range of RANGES) {
      await measure(`Reports ${range}, sales rep (own ~2,000 contracts)`, `/api/reports?range=${range}`, tokens.rep);
    }
    await measure('Reports CSV export current_year, manager', '/api/reports/export?range=current_year', tokens.manager);
    await measure('Dashboard stats, manager', '/api/dashboard/stats', tokens.manager);
    await measure('Dashboard stats, sales rep', '/api/dashboard/stats', tokens.rep);
    await measure('Health', '/api/health');
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
