/**
 * The delivery CSV import on a large file (issue item 5: 50,000 rows in < 10 s): POST /api/delivery/import
 * (server/modules/delivery/delivery.import.ts) with a file of 50,000 distinct (CPM line, month) rows, the
 * whole request timed: the route's text/csv body parser, csv-parse, the set-based checks, then the ONE
 * transaction of applyDelivery (contract locks, the billed periods, the upsert, the settlement of the
 * under-delivered periods with their credit notes, makegoods, notices and audit events).
 *
 * Data, on a database of its own (adcrm_bench_delivery on BENCH_PG_URL, migrated with openDatabase().migrate(),
 * dropped at the end; BENCH_DELIVERY_KEEP=1 keeps it and reuses it on the next run):
 * - through the product's and the tests' own code paths, no SQL of our own: users (server/test/factories.ts),
 *   four CPM products and the customers (server/test/catalog-factories.ts), rows/40 active contracts with four
 *   CPM lines each, 100 to 590 thousand impressions a month at $6.50 to $32.00 per 1,000
 *   (server/test/billing-factories.ts createBillableContract; one contract in four with the makegood remedy),
 *   started on the first of the month 11 months ago, then the real billing run (runBilling) issues their
 *   invoices up to today: 12 periods per contract, so the lines have 10 ended months for the file and an 11th
 *   (last month) for the warm-up. 5,000 lines (1,250 contracts) x 10 months = 50,000 rows, about 10 s to build.
 * - the file, as a user uploads it: `contract,line,month,impressions,clicks`, the contract's 8-character short
 *   id (its full id where two contracts share one), the line by its product's name (quoted where it has a
 *   comma or a double quote), one row per line and month. BENCH_DELIVERY_UNDER_PERCENT (default 10) of the
 *   rows under-deliver (two in three of them below 90% of booked: a pace notice too), the others deliver 100-108%;
 *   one in 20 leaves clicks blank. Every under-delivered row is settled by the import: a credit note (three
 *   contracts in four) or a makegood.
 *
 * Rounds: every round imports the file into a fresh copy of that database (CREATE DATABASE ... TEMPLATE), so
 * each round does the same work on the same state: the whole file in one request (the row "Delivery CSV
 * import, 50,000 rows"), then, on another copy, the same rows as files of 5,000 posted one after the other
 * (a second row): a file of more than about 10,900 rows answers 500 today (its audit events exceed what one
 * INSERT can take; docs/performance.md), and the first row then says so, with the time to the failure and
 * the cause the app logged. Before the timed request, a 500-row file of last month
 * warms the app up (not timed). Ours goes through a built app in process (buildApp + app.inject, signed in as
 * an admin by a session token), so the HTTP path (body parser, auth, serialisation) is measured too.
 *
 * Baseline (the floor), on another copy of the same database, alternating with ours: the same CSV text parsed
 * with csv-parse and ONE INSERT ... SELECT FROM unnest of its columns that resolves every row (contract by
 * short id, line by product name, the month's invoice line for its booked impressions) and writes it into
 * line_deliveries: what the import's writes cost without validation, settlement, notices or audit.
 *
 * Each timed request's SQL statements are timed (pg.Client.prototype.query wrapped for the duration of the
 * request): the heaviest go to stderr and into the row's note, with the time spent outside PostgreSQL.
 *
 *   npx tsx bench/delivery.ts            3 rounds (BENCH_ROUNDS) of 50,000 rows (BENCH_DELIVERY_ROWS)
 *   BENCH_QUICK=1 npx tsx bench/delivery.ts      1 round of 5,000 rows
 *
 * Entry point for `npm run bench` (bench/run.ts, group `delivery`): `bench(context)`.
 */
import { parse } from 'csv-parse/sync';
import pg from 'pg';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { type Db, openDatabase } from '../server/db/client';
import { businessToday } from '../server/lib/business-day';
import { runBilling } from '../server/modules/billing/billing-run';
import { createSession } from '../server/modules/sessions/sessions';
import { createBillableContract, setContractSettings, setTaxSettings } from '../server/test/billing-factories';
import { createTestCustomer, createTestProduct } from '../server/test/catalog-factories';
import { createTestUser } from '../server/test/factories';
import { benchDb } from './lib/databases';
import { median, spread } from './lib/stats';
import type { BenchContext, BenchRow } from './lib/table';

const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const TEMPLATE_DB = benchDb('delivery');
const OURS_DB = benchDb('delivery_ours');
const FLOOR_DB = benchDb('delivery_floor');
const GENERATOR_VERSION = 1;
const MONTHS = 10;
const LINES_PER_CONTRACT = 4;
const REPS = 20;
const WARM_UP_ROWS = 500;
/** The largest file of the split measurement (files the import can take: see docs/performance.md). */
const SPLIT_ROWS = 5_000;
const GOAL_SECONDS = 10;
const UNDER_PERCENT = Number(process.env.BENCH_DELIVERY_UNDER_PERCENT ?? 10);
const KEEP = process.env.BENCH_DELIVERY_KEEP === '1';
/** The CPM products every contract books, one line each (two names a CSV must quote). */
const PRODUCTS = [
  { name: 'Pre-roll Impressions (15s, CPM)', cpmCents: 32_00 },
  { name: 'Display 300x250, run of site', cpmCents: 8_00 },
  { name: 'Mobile Banner 320x50 (CPM)', cpmCents: 6_50 },
  { name: 'Homepage "Spotlight" Impressions', cpmCents: 18_00 },
] as const;

const say = (text: string) => console.error(`[delivery] ${text}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const count = (n: number) => n.toLocaleString('en-US');

// ---------------------------------------------------------------------------------------------------------
// Statement timings: pg.Client.prototype.query wrapped once (the pool binds it when a connection opens),
// recording only while a timed request runs.
// ---------------------------------------------------------------------------------------------------------

type StatementTiming = { count: number; ms: number };
type Recording = { statements: Map<string, StatementTiming>; dbMs: number; begin?: number; transactionMs: number };
let recording: Recording | null = null;

function installStatementTimer(): void {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown; __benchTimed?: true };
  if (proto.__benchTimed) return;
  const original = proto.query;
  proto.__benchTimed = true;
  proto.query = function timedQuery(this: unknown, ...args: unknown[]) {
    const current = recording;
    if (!current) return original.apply(this, args);
    const first = args[0] as string | { text?: string } | undefined;
    const text = (typeof first === 'string' ? first : (first?.text ?? '')).replace(/\s+/g, ' ').trim();
    const started = performance.now();
    const done = () => {
      const ms = performance.now() - started;
      const key = statementKey(text);
      const timing = current.statements.get(key) ?? { count: 0, ms: 0 };
      timing.count += 1;
      timing.ms += ms;
      current.statements.set(key, timing);
      current.dbMs += ms;
      if (key === 'begin') current.begin = started;
      if ((key === 'commit' || key === 'rollback') && current.begin !== undefined) {
        current.transactionMs += performance.now() - current.begin;
        current.begin = undefined;
      }
    };
    const last = args.at(-1);
    if (typeof last === 'function') {
      args[args.length - 1] = (...results: unknown[]) => {
        done();
        return (last as (...r: unknown[]) => unknown)(...results);
      };
      return original.apply(this, args);
    }
    const result = original.apply(this, args);
    if (result instanceof Promise) result.then(done, done);
    return result;
  };
}

/** A statement's first words, enough to tell the import's statements apart. */
function statementKey(text: string): string {
  const lower = text.toLowerCase();
  if (lower === 'begin' || lower === 'commit' || lower === 'rollback') return lower;
  return text.length > 110 ? `${text.slice(0, 110)}...` : text;
}

type Profile = {
  /** The request, end to end. */
  ms: number;
  /** Time inside PostgreSQL calls (wall clock of each statement, sequential inside the transaction). */
  dbMs: number;
  statements: number;
  /** Inside the import's transaction (BEGIN to COMMIT or ROLLBACK); the rest is parse, resolve and check. */
  transactionMs: number;
  top: { key: string; count: number; ms: number }[];
};

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; profile: Profile }> {
  const current: Recording = { statements: new Map(), dbMs: 0, transactionMs: 0 };
  recording = current;
  const started = performance.now();
  try {
    const value = await work();
    const ended = performance.now();
    const top = [...current.statements.entries()]
      .map(([key, t]) => ({ key, ...t }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 25);
    return {
      value,
      profile: {
        ms: ended - started,
        dbMs: current.dbMs,
        statements: [...current.statements.values()].reduce((n, t) => n + t.count, 0),
        transactionMs: current.transactionMs,
        top,
      },
    };
  } finally {
    recording = null;
  }
}

// ---------------------------------------------------------------------------------------------------------
// The database: seeded once through the product's code paths, copied for every round
// ---------------------------------------------------------------------------------------------------------

function databaseUrl(base: string, name: string): string {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

async function admin<T extends pg.QueryResultRow = pg.QueryResultRow>(
  pgUrl: string,
  text: string,
  values: unknown[] = [],
): Promise<T[]> {
  const client = new pg.Client({ connectionString: pgUrl });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** A copy of the seeded database (retried while autovacuum or a closing connection still holds the template). */
async function copyTemplate(pgUrl: string, name: string): Promise<string> {
  await admin(pgUrl, `drop database if exists ${name} with (force)`);
  for (let attempt = 1; ; attempt++) {
    try {
      await admin(pgUrl, `create database ${name} template ${TEMPLATE_DB}`);
      return databaseUrl(pgUrl, name);
    } catch (error) {
      if (attempt >= 20 || !/being accessed by other users/.test(String(error))) throw error;
      await sleep(500);
    }
  }
}

/** The first day of the month `offset` months from this day's month (YYYY-MM-DD). */
function monthStart(today: string, offset: number): string {
  const date = new Date(`${today.slice(0, 7)}-01T00:00:00Z`);
  date.setUTCMonth(date.getUTCMonth() + offset);
  return date.toISOString().slice(0, 10);
}

const marker = (seed: number, contracts: number, start: string) =>
  `adcrm delivery bench v${GENERATOR_VERSION} seed=${seed} contracts=${contracts} start=${start} complete`;

/** Builds the template database unless a complete one of the same shape is kept (BENCH_DELIVERY_KEEP). */
async function ensureTemplate(pgUrl: string, seed: number, contracts: number, start: string): Promise<void> {
  const want = marker(seed, contracts, start);
  const [existing] = await admin<{ comment: string | null }>(
    pgUrl,
    `select shobj_description(oid, 'pg_database') as comment from pg_database where datname = $1`,
    [TEMPLATE_DB],
  );
  if (KEEP && existing?.comment === want) {
    say(`${TEMPLATE_DB}: kept from an earlier run`);
    return;
  }
  await admin(pgUrl, `drop database if exists ${TEMPLATE_DB} with (force)`);
  await admin(pgUrl, `create database ${TEMPLATE_DB}`);
  const database = await openDatabase({ url: databaseUrl(pgUrl, TEMPLATE_DB) });
  try {
    await database.migrate();
    const started = performance.now();
    await seedDatabase(database.db, contracts, start);
    await database.db.execute('vacuum analyze');
    say(`seeded ${count(contracts)} contracts in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  } finally {
    await database.close();
  }
  await admin(pgUrl, `comment on database ${TEMPLATE_DB} is '${want}'`);
}

/** Users, products, customers and contracts through the test factories; invoices by the real billing run. */
async function seedDatabase(db: Db, contracts: number, start: string): Promise<void> {
  // As the delivery tests have it: 10% tax added on top, so a credit carries the invoice's tax.
  await setTaxSettings(db, { defaultTaxRate: 10, taxIncluded: false, taxLabel: 'Tax' });
  await setContractSettings(db, { pausePaymentsAfterExpiry: true, gracePeriodsEndOfDays: 7 });
  await createTestUser(db, { role: 'admin', email: 'delivery-bench-admin@example.test' });
  for (let i = 1; i <= 2; i++) await createTestUser(db, { role: 'finance', email: `finance-${i}@example.test` });
  const reps: { id: string }[] = [];
  for (let i = 1; i <= REPS; i++)
    reps.push(await createTestUser(db, { role: 'sales', email: `rep-${i}@example.test` }));
  const products: { id: string; defaultPriceCents: number }[] = [];
  for (const product of PRODUCTS) {
    products.push(
      await createTestProduct(db, { name: product.name, defaultPriceCents: product.cpmCents, priceMetric: 'cpm' }),
    );
  }
  const customers: { id: string }[] = [];
  for (let i = 1; i <= Math.ceil(contracts / 2); i++) {
    customers.push(await createTestCustomer(db, { name: `Advertiser ${i}`, email: `advertiser-${i}@example.test` }));
  }
  // Ten at a time: the pool's ten connections.
  for (let from = 0; from < contracts; from += 10) {
    await Promise.all(
      Array.from({ length: Math.min(10, contracts - from) }, (_, k) => {
        const n = from + k;
        return createBillableContract(db, {
          startDate: start,
          termMonths: 24,
          customerId: customers[n % customers.length].id,
          salesRepId: reps[n % REPS].id,
          title: `Delivery bench ${n}`,
          underDeliveryRemedy: n % 4 === 3 ? 'makegood' : 'credit',
          lines: products.map((product, line) => ({
            productId: product.id,
            quantity: bookedThousands(n, line),
            unitPriceCents: product.defaultPriceCents,
            priceMetric: 'cpm' as const,
          })),
        });
      }),
    );
  }
  say(`${count(contracts)} contracts created; billing run...`);
  const billed = await runBilling(db, {});
  say(`billing run: ${count(billed.invoicesIssued)} invoices`);
}

/** A line's booked volume, thousands of impressions a month: 100 to 590. */
const bookedThousands = (contract: number, line: number) => 100 + ((contract * 7 + line * 13) % 50) * 10;

// ---------------------------------------------------------------------------------------------------------
// The file
// ---------------------------------------------------------------------------------------------------------

type Plan = {
  csv: string;
  /** The same rows as files of at most SPLIT_ROWS rows, in order, each with the header. */
  files: string[];
  warmUp: string;
  rows: number;
  credits: number;
  makegoods: number;
  /** Who imports (the admin signed in for ours; recorded_by in the floor). */
  importerId: string;
};

/** A small deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const csvField = (value: string) => (/[",\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);

/** The file a user would upload for the seeded contracts (and the 500-row warm-up of last month). */
async function planFile(url: string, seed: number, start: string): Promise<Plan> {
  type LineRow = { contract_id: string; title: string; remedy: string; product: string; impressions: string };
  const lines = await admin<LineRow>(
    url,
    `select c.id as contract_id, c.title, c.under_delivery_remedy as remedy, p.name as product,
            il.impressions
     from contracts c
     join contract_line_items li on li.contract_id = c.id
     join products p on p.id = li.product_id
     join invoice_lines il on il.line_id = li.id and il.kind = 'product'
     join invoices i on i.id = il.invoice_id and i.period_start = $1::date
     where c.title like 'Delivery bench %'
     order by split_part(c.title, ' ', 3)::int, li.position`,
    [start],
  );
  const [importer] = await admin<{ id: string }>(
    url,
    `select id from users where email = 'delivery-bench-admin@example.test'`,
  );
  const shortIds = new Map<string, Set<string>>();
  for (const { contract_id: id } of lines)
    shortIds.set(id.slice(-8), (shortIds.get(id.slice(-8)) ?? new Set()).add(id));
  const next = random(seed * 7_919 + 17);
  const header = 'contract,line,month,impressions,clicks';
  const rows: string[] = [];
  const warmUp: string[] = [];
  let credits = 0;
  let makegoods = 0;
  for (const [index, line] of lines.entries()) {
    // Full ids only where the short id would name two contracts (a user would do the same).
    const short = line.contract_id.slice(-8);
    const contract = (shortIds.get(short)?.size ?? 0) > 1 ? line.contract_id : short;
    const booked = Number(line.impressions);
    for (let month = 0; month <= MONTHS; month++) {
      const under = next() * 100 < UNDER_PERCENT;
      const share = under ? 0.7 + next() * 0.299 : 1 + next() * 0.08;
      const delivered = Math.round(booked * share);
      const clicks = next() < 0.05 ? '' : String(Math.round(delivered * (0.001 + next() * 0.002)));
      const row = [contract, csvField(line.product), monthStart(start, month).slice(0, 7), String(delivered), clicks];
      if (month < MONTHS) {
        rows.push(row.join(','));
        if (under && line.remedy === 'makegood') makegoods++;
        else if (under) credits++;
      } else if (index < WARM_UP_ROWS) {
        warmUp.push(row.join(','));
      }
    }
  }
  const file = (lines: string[]) => `${[header, ...lines].join('\r\n')}\r\n`;
  const files = [];
  for (let from = 0; from < rows.length; from += SPLIT_ROWS) files.push(file(rows.slice(from, from + SPLIT_ROWS)));
  return {
    csv: file(rows),
    files,
    warmUp: file(warmUp),
    rows: rows.length,
    credits,
    makegoods,
    importerId: importer.id,
  };
}

// ---------------------------------------------------------------------------------------------------------
// The rounds
// ---------------------------------------------------------------------------------------------------------

type Attempt = {
  seconds: number;
  profile: Profile;
  /** The first answer that was not 200, with the cause the app logged; null when every file was imported. */
  failure: { status: number; message: string } | null;
  problems: string[];
};

/** Ours: the files posted one after the other to the route, in process, on a fresh copy of the seeded database. */
async function oursRound(pgUrl: string, plan: Plan, files: string[]): Promise<Attempt> {
  const url = await copyTemplate(pgUrl, OURS_DB);
  const database = await openDatabase({ url });
  const logged: string[] = [];
  const config = loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'error', CLIENT_DIST: '/nonexistent' });
  // Errors only, kept for the row's note (a failed import names its cause); no line per request.
  const logger = { level: 'error', stream: { write: (line: string) => void logged.push(line) } };
  const app = await buildApp({ config, db: database.db, logger });
  try {
    await app.ready();
    const { token } = await createSession(database.db, plan.importerId, app.sessionPolicy, {});
    const post = (csv: string) =>
      app.inject({
        method: 'POST',
        url: '/api/delivery/import',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' },
        payload: csv,
      });
    const warm = await post(plan.warmUp);
    if (warm.statusCode !== 200) throw new Error(`warm-up import: ${warm.statusCode} ${warm.body.slice(0, 500)}`);
    const warmRows = (warm.json() as { recorded: number }).recorded;
    logged.length = 0;
    type Result = { rows: number; recorded: number; credits: number; makegoods: number };
    const { value, profile } = await timed(async () => {
      const results: Result[] = [];
      for (const csv of files) {
        const response = await post(csv);
        if (response.statusCode !== 200) return { results, failed: response };
        results.push(response.json() as Result);
      }
      return { results, failed: null };
    });
    if (value.failed) {
      const cause = logged
        .map((line) => (JSON.parse(line) as { err?: { message?: string } }).err?.message)
        .find(Boolean);
      const answer = (value.failed.json() as { message?: string }).message ?? value.failed.body.slice(0, 200);
      return {
        seconds: profile.ms / 1000,
        profile,
        failure: { status: value.failed.statusCode, message: cause ?? answer },
        problems: [],
      };
    }
    const sum = (key: keyof Result) => value.results.reduce((n, r) => n + r[key], 0);
    const [stored] = rowsOf<{ recorded: number }>(
      await database.db.execute('select count(*)::int as recorded from line_deliveries'),
    );
    const problems = [
      sum('recorded') !== plan.rows && `${count(sum('recorded'))} of ${count(plan.rows)} rows recorded`,
      stored.recorded !== plan.rows + warmRows && `${count(stored.recorded - warmRows)} rows stored`,
      sum('credits') !== plan.credits && `${count(sum('credits'))} credits (${count(plan.credits)} expected)`,
      sum('makegoods') !== plan.makegoods && `${count(sum('makegoods'))} makegoods (${count(plan.makegoods)} expected)`,
    ].filter((p): p is string => Boolean(p));
    return { seconds: profile.ms / 1000, profile, failure: null, problems };
  } finally {
    await app.close();
    await database.close();
    await admin(pgUrl, `drop database if exists ${OURS_DB} with (force)`);
  }
}

/** The floor: csv-parse, then one INSERT ... SELECT FROM unnest resolving and writing every row. */
async function floorRound(pgUrl: string, plan: Plan): Promise<number> {
  const url = await copyTemplate(pgUrl, FLOOR_DB);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const insert = async (csv: string) => {
    const records = parse(csv, { bom: true, columns: true, skip_empty_lines: true, trim: true }) as Record<
      string,
      string
    >[];
    await client.query('begin');
    const { rowCount } = await client.query(
      // The references first (contract by short id, or by full id; line by product name), then each row's
      // billed period by its keys: the order a set-based import would take (the planner, left to itself,
      // joined months to invoices first and took minutes).
      `with f as materialized (
         select * from unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::bigint[])
           as f(contract, line, month, impressions, clicks)
       ),
       r as materialized (
         select c.id as contract_id, li.id as line_id, to_date(f.month, 'YYYY-MM') as period_start,
                f.impressions, f.clicks
         from f
         join contracts c on right(c.id::text, 8) = right(lower(f.contract), 8)
                         and (length(f.contract) = 8 or c.id::text = lower(f.contract))
         join contract_line_items li on li.contract_id = c.id
         join products p on p.id = li.product_id and lower(p.name) = lower(f.line)
       )
       insert into line_deliveries (contract_id, line_id, invoice_id, period_start, period_end,
         booked_impressions, makegood_impressions, delivered_impressions, clicks, recorded_by)
       select r.contract_id, r.line_id, i.id, i.period_start, i.period_end, il.impressions, 0, r.impressions,
              r.clicks, $6
       from r
       join invoices i on i.contract_id = r.contract_id and i.period_start = r.period_start and i.status <> 'void'
       join invoice_lines il on il.invoice_id = i.id and il.line_id = r.line_id and il.kind = 'product'
                            and il.price_metric = 'cpm'`,
      [
        records.map((r) => r.contract),
        records.map((r) => r.line),
        records.map((r) => r.month),
        records.map((r) => Number(r.impressions)),
        records.map((r) => (r.clicks === '' ? null : Number(r.clicks))),
        plan.importerId,
      ],
    );
    await client.query('commit');
    return rowCount ?? 0;
  };
  try {
    await insert(plan.warmUp);
    const started = performance.now();
    const written = await insert(plan.csv);
    const seconds = (performance.now() - started) / 1000;
    if (written !== plan.rows) throw new Error(`floor: ${written} of ${plan.rows} rows written`);
    return seconds;
  } finally {
    await client.end();
    await admin(pgUrl, `drop database if exists ${FLOOR_DB} with (force)`);
  }
}

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;
const secondsText = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

function describeProfile(label: string, attempt: Attempt): string[] {
  const { profile } = attempt;
  const lines = [
    `${label}: ${secondsText(profile.ms)}${attempt.failure ? ` until it answered ${attempt.failure.status} (${attempt.failure.message})` : ''}; ` +
      `in the transaction ${secondsText(profile.transactionMs)}, before it (parse, resolve, check) ${secondsText(profile.ms - profile.transactionMs)}; ` +
      `${count(profile.statements)} statements, ${secondsText(profile.dbMs)} in PostgreSQL calls, ${secondsText(profile.ms - profile.dbMs)} outside`,
  ];
  for (const s of profile.top)
    lines.push(`  ${secondsText(s.ms).padStart(9)} ${count(s.count).padStart(7)} x  ${s.key}`);
  return lines;
}

/** Where the round nearest the median spent its time, for the row's note. */
function profileNote(attempts: Attempt[]): string {
  const typical = [...attempts].sort((a, b) => a.seconds - b.seconds)[Math.floor((attempts.length - 1) / 2)].profile;
  const heaviest = typical.top
    .filter((s) => !['begin', 'commit', 'rollback'].includes(s.key))
    .slice(0, 4)
    .map((s) => `${(s.ms / 1000).toFixed(1)} s in ${count(s.count)} x "${s.key.slice(0, 60)}..."`);
  return (
    `median round: ${count(typical.statements)} statements, ${(typical.dbMs / 1000).toFixed(1)} s in PostgreSQL calls, ` +
    `${((typical.ms - typical.dbMs) / 1000).toFixed(1)} s outside, ${(typical.transactionMs / 1000).toFixed(1)} s inside the transaction; ` +
    `heaviest: ${heaviest.join('; ')}`
  );
}

/** `npm run bench`'s delivery rows: the import's seconds for the file (and for it split), the goal < 10 s. */
export async function bench(context: BenchContext): Promise<BenchRow[]> {
  installStatementTimer();
  const wanted = Number(process.env.BENCH_DELIVERY_ROWS ?? (context.quick ? 5_000 : 50_000));
  const contracts = Math.max(1, Math.ceil(wanted / (LINES_PER_CONTRACT * MONTHS)));
  const rounds = context.quick ? 1 : Math.max(1, context.rounds);
  const start = monthStart(businessToday(), -(MONTHS + 1));
  await ensureTemplate(context.pgUrl, context.seed, contracts, start);
  try {
    const plan = await planFile(databaseUrl(context.pgUrl, TEMPLATE_DB), context.seed, start);
    const split = plan.files.length > 1;
    say(
      `file: ${count(plan.rows)} rows (${(Buffer.byteLength(plan.csv) / 1024 / 1024).toFixed(1)} MB), ` +
        `${count(plan.credits)} to credit, ${count(plan.makegoods)} to make good; ${rounds} round${rounds > 1 ? 's' : ''}` +
        (split ? `; also as ${plan.files.length} files of ${count(SPLIT_ROWS)}` : ''),
    );
    const whole: Attempt[] = [];
    const parts: Attempt[] = [];
    const floor: number[] = [];
    for (let round = 1; round <= rounds; round++) {
      const order = ['whole', 'parts', 'floor'] as const;
      for (const side of round % 2 ? order : [...order].reverse()) {
        if (side === 'whole') whole.push(await oursRound(context.pgUrl, plan, [plan.csv]));
        if (side === 'parts' && split) parts.push(await oursRound(context.pgUrl, plan, plan.files));
        if (side === 'floor') floor.push(await floorRound(context.pgUrl, plan));
      }
      say(`round ${round}/${rounds}: floor ${floor.at(-1)!.toFixed(2)} s`);
      for (const line of describeProfile('one file', whole.at(-1)!)) say(line);
      if (split) for (const line of describeProfile(`${plan.files.length} files`, parts.at(-1)!)) say(line);
    }
    const floorText = `csv-parse + one INSERT ... SELECT FROM unnest resolving and writing the same rows into line_deliveries: ${spread(floor, 2)} s (${spread(
      floor.map((s) => plan.rows / s),
      0,
    )} rows/s)`;
    const mix =
      `${UNDER_PERCENT}% of rows under-delivered (${count(plan.credits)} credit notes, ${count(plan.makegoods)} makegoods), ` +
      `${count(contracts)} contracts x ${LINES_PER_CONTRACT} CPM lines x ${MONTHS} months, POST /api/delivery/import in process (app.inject), PostgreSQL`;
    const row = (name: string, attempts: Attempt[]): BenchRow => {
      const seconds = attempts.map((a) => a.seconds);
      const failures = attempts.flatMap((a) => (a.failure ? [a.failure] : []));
      const problems = [...new Set(attempts.flatMap((a) => a.problems))];
      if (failures.length) {
        return {
          name,
          ours: `fails: HTTP ${failures[0].status} after ${spread(seconds, 1)} s`,
          baseline: floorText,
          ratio: '—',
          goal: `< ${GOAL_SECONDS} s`,
          met: false,
          note: `${failures.length} of ${attempts.length} rounds answered ${failures[0].status} ("${failures[0].message}"), nothing recorded (the transaction rolled back); ${mix}; ${profileNote(attempts)}`,
        };
      }
      return {
        name,
        ours: `${spread(seconds, 1)} s (${spread(
          seconds.map((s) => plan.rows / s),
          0,
        )} rows/s)`,
        baseline: floorText,
        ratio: `${spread(
          seconds.map((s, i) => s / floor[i]),
          1,
        )}x the floor's time`,
        goal: `< ${GOAL_SECONDS} s`,
        met: median(seconds) < GOAL_SECONDS && problems.length === 0,
        note: problems.length ? problems.join('; ') : `${mix}; ${profileNote(attempts)}`,
      };
    };
    const rows = [row(`Delivery CSV import, ${count(plan.rows)} rows`, whole)];
    if (split) {
      rows.push(
        row(
          `Delivery CSV import, ${count(plan.rows)} rows as ${plan.files.length} files of ${count(SPLIT_ROWS)}`,
          parts,
        ),
      );
    }
    return rows;
  } finally {
    if (!KEEP) await admin(context.pgUrl, `drop database if exists ${TEMPLATE_DB} with (force)`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await bench({
    pgUrl: PG_URL,
    rounds: Number(process.env.BENCH_ROUNDS ?? 3),
    quick: process.env.BENCH_QUICK === '1',
    seed: Number(process.env.BENCH_SEED ?? 1),
  });
  for (const row of rows) {
    console.log(`${row.met ? 'ok  ' : 'MISS'} ${row.name}: ${row.ours}; ${row.baseline}; ${row.ratio} (${row.goal})`);
    if (row.note) console.log(`     ${row.note}`);
  }
}
