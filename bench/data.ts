/**
 * `npm run bench:data`: builds the benchmark databases with set-based SQL, the same rows for the same seed.
 *
 *   PostgreSQL  adcrm_bench_20000 and adcrm_bench_200000 (BENCH_VOLUMES=20000,200000) on BENCH_PG_URL
 *               (default postgres://postgres@127.0.0.1:5432/postgres)
 *   PGlite      dist/bench/pglite-20000 (the first volume), for the PGlite vs PostgreSQL row
 *   reports     bench/reports.ts's own 100k contracts / 1M invoices volume, when that file provides a generator
 *
 * A database already built with the same seed and volume is kept (BENCH_REBUILD=1 rebuilds it). Every row
 * is a function of its number and BENCH_SEED (default 1): ids are md5-derived uuids, dates and amounts are
 * arithmetic on the row number, so two runs produce identical tables.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import { openDatabase } from '../server/db/client';
import { hashPassword } from '../server/lib/password';
import { BENCH_DB_PREFIX, benchDatabaseName } from './lib/databases';
import { progress } from './lib/progress';

export const BENCH_PASSWORD = 'bench1234';
export const GENERATOR_VERSION = 4;
export const SEED = Number(process.env.BENCH_SEED ?? 1);
export const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const PGLITE_ROOT = path.resolve('dist/bench');

export { BENCH_DB_PREFIX, benchDatabaseName };
export const pgliteDir = (contracts: number) => path.join(PGLITE_ROOT, `pglite-${contracts}`);
const marker = (contracts: number) => `adcrm bench v${GENERATOR_VERSION} seed=${SEED} contracts=${contracts} complete`;

export function databaseUrl(name: string): string {
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** The fixed accounts of every benchmark database (ids derived from the seed). */
export const benchUsers = {
  admin: { email: 'bench-admin@example.test', role: 'admin' },
  manager: { email: 'bench-manager@example.test', role: 'sales_manager' },
};
const REPS = 20;

type Exec = (text: string) => Promise<void>;

/**
 * Fills an empty, migrated database: 22 staff users, contracts/10 customers, nine products, three packages,
 * `contracts` contracts over every status and both payment modes, and one to three line items each.
 */
export async function seedContracts(exec: Exec, contracts: number, label: string): Promise<void> {
  const customers = Math.max(10, Math.round(contracts / 10));
  // md5-derived, with the version (4) and variant bits of a random UUID, so that uuid validation accepts them.
  const uid = (kind: string, n: string) =>
    `overlay(overlay(md5('${SEED}:${kind}:' || ${n}) placing '4' from 13) placing '8' from 17)::uuid`;
  const passwordHash = await hashPassword(BENCH_PASSWORD);

  await exec(`
    insert into users (id, email, password_hash, first_name, last_name, role, commission_rate_bp, created_at)
    values (${uid('user', "'admin'")}, '${benchUsers.admin.email}', '${passwordHash}', 'Bench', 'Admin', 'admin', 0,
            timestamptz '2024-01-01 00:00:00+00'),
           (${uid('user', "'manager'")}, '${benchUsers.manager.email}', '${passwordHash}', 'Bench', 'Manager',
            'sales_manager', 500, timestamptz '2024-01-01 00:00:00+00');
    insert into users (id, email, password_hash, first_name, last_name, role, commission_rate_bp, created_at)
    select ${uid('user', 'g')}, 'bench-rep-' || g || '@example.test', '${passwordHash}', 'Rep', 'Number ' || g, 'sales',
           300 + (g % 5) * 100, timestamptz '2024-01-01 00:00:00+00' + g * interval '1 hour'
    from generate_series(1, ${REPS}) g;`);

  await exec(`
    insert into customers (id, name, email, company, phone, city, state, country, contact_person, industry, created_at)
    select ${uid('customer', 'g')}, 'Customer ' || g, 'customer' || g || '@example.test', 'Company ' || (g % 997),
           '555-' || lpad((g % 10000)::text, 4, '0'), 'City ' || (g % 50), 'ST', 'US', 'Contact ' || g,
           (array['Retail','Automotive','Food','Health','Media'])[1 + g % 5],
           timestamptz '2024-01-01 00:00:00+00' + g * interval '5 minutes'
    from generate_series(1, ${customers}) g;
    insert into products (id, name, description, ad_type, default_price_cents, price_metric, seasonal_price_cents)
    select ${uid('product', 'g')}, t.label, t.label || ' on every channel', t.ad_type, 50000 + g * 12500, 'monthly',
           case when g % 3 = 0 then 60000 + g * 15000 end
    from unnest(array['pre_roll','mid_roll','post_roll','banner','in_category','overlay','ad_on_pause','timed_qr',
                      'ctn_special'],
                array['Pre-roll Video Ad','Mid-roll Video Ad','Post-roll Video Ad','Banner Ad','In-Category Ad',
                      'Overlay Ad','Ad on Pause','Timed QR Code','CTN Seasonal Movie Special'])
         with ordinality as t(ad_type, label, g);
    insert into packages (id, name, description, price_cents)
    select ${uid('package', 'g')}, (array['Starter','Growth','Premium'])[g] || ' Package', 'Bundle number ' || g,
           g * 100000
    from generate_series(1, 3) g;
    insert into package_items (package_id, product_id, product_name, quantity, position)
    select ${uid('package', 'p')}, ${uid('product', 'i')}, null, 1, i
    from generate_series(1, 3) p, generate_series(1, p + 1) i;`);

  // Contracts and their lines in chunks, so that the bar moves and no statement holds millions of rows.
  const chunk = 10_000;
  const bar = progress(`${label}: contracts`, contracts);
  for (let from = 1; from <= contracts; from += chunk) {
    const to = Math.min(contracts, from + chunk - 1);
    await exec(`
      insert into contracts (id, customer_id, sales_rep_id, title, description, status, start_date, term_months,
                             auto_stop_date, payment_mode, package_id, package_price_cents, line_items_total_cents,
                             monthly_amount_cents, seasonal_monthly_amount_cents, setup_fee_cents, total_cents,
                             created_by, created_at, updated_at)
      select ${uid('contract', 'g')},
             ${uid('customer', `(1 + (g * 7919) % ${customers})`)},
             ${uid('user', `(1 + g % ${REPS})`)},
             case when g % 5 = 0 then 'Contract ' || g end,
             (array['Spring','Summer','Autumn','Holiday','Video','Banner','Launch','Brand'])[1 + g % 8]
               || ' campaign ' || g
               -- A rare word, one description in 1,000, spread over the whole table (the search bench's mix).
               || case when g % 1000 = 500 then ' for the Jubilee fair' else '' end,
             (array['draft','sent','active','paused','canceled','completed'])[1 + g % 6],
             date '2025-01-01' + (g % 500),
             t.term,
             case when t.term is not null then (date '2025-01-01' + (g % 500) + make_interval(months => t.term))::date end,
             case when g % 2 = 0 then 'portal' else 'pay_link' end,
             case when g % 4 = 0 then ${uid('package', '(1 + g % 3)')} end,
             case when g % 4 = 0 then (1 + g % 3) * 100000 else 0 end,
             t.lines,
             t.lines + case when g % 4 = 0 then (1 + g % 3) * 100000 else 0 end,
             t.lines + case when g % 4 = 0 then (1 + g % 3) * 100000 else 0 end,
             (g % 3) * 2500,
             t.lines + case when g % 4 = 0 then (1 + g % 3) * 100000 else 0 end + (g % 3) * 2500,
             ${uid('user', `(1 + g % ${REPS})`)},
             timestamptz '2025-01-01 00:00:00+00' + g * interval '2 minutes',
             timestamptz '2025-01-01 00:00:00+00' + g * interval '2 minutes'
      from generate_series(${from}, ${to}) g,
           lateral (select case when g % 3 = 0 then null else 1 + g % 24 end as term,
                           (select sum(50000 + (1 + (g + i) % 9) * 12500) from generate_series(1, 1 + g % 3) i)::bigint
                             as lines) t;
      insert into contract_line_items (contract_id, product_id, quantity, unit_price_cents, discount_cents,
                                       line_total_cents, position, price_metric, seasonal_price_cents, flight_start)
      select ${uid('contract', 'g')}, ${uid('product', '(1 + (g + i) % 9)')}, 1, 50000 + (1 + (g + i) % 9) * 12500, 0,
             50000 + (1 + (g + i) % 9) * 12500, i - 1, 'monthly',
             case when (1 + (g + i) % 9) % 3 = 0 then 60000 + (1 + (g + i) % 9) * 15000 end,
             date '2025-01-01' + (g % 500)
      from generate_series(${from}, ${to}) g, generate_series(1, 1 + g % 3) i;`);
    bar.update(to);
  }
  bar.done();
  await exec('analyze');
}

async function buildPostgres(contracts: number): Promise<void> {
  const name = benchDatabaseName(contracts);
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ comment: string | null }>(
      'select shobj_description(oid, $2) as comment from pg_database where datname = $1',
      [name, 'pg_database'],
    );
    if (rows[0]?.comment === marker(contracts) && !process.env.BENCH_REBUILD) {
      console.error(`${name}: current (seed ${SEED}), kept`);
      return;
    }
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const database = await openDatabase({ url: databaseUrl(name) });
  await database.migrate();
  await database.close();
  const client = new pg.Client({ connectionString: databaseUrl(name) });
  await client.connect();
  try {
    const started = performance.now();
    await seedContracts(async (text) => void (await client.query(text)), contracts, name);
    await client.query(`comment on database ${name} is '${marker(contracts)}'`);
    console.error(`${name}: built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await client.end();
  }
}

async function buildPglite(contracts: number): Promise<void> {
  const dir = pgliteDir(contracts);
  const markerFile = `${dir}.complete`;
  if (
    fs.existsSync(markerFile) &&
    fs.readFileSync(markerFile, 'utf8') === marker(contracts) &&
    !process.env.BENCH_REBUILD
  ) {
    console.error(`${dir}: current (seed ${SEED}), kept`);
    return;
  }
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(markerFile, { force: true });
  fs.mkdirSync(PGLITE_ROOT, { recursive: true });
  const database = await openDatabase({ dataDir: dir });
  await database.migrate();
  await database.close();
  const client = await PGlite.create({ dataDir: dir, extensions: { pg_trgm, btree_gist } });
  try {
    const started = performance.now();
    await seedContracts(async (text) => void (await client.exec(text)), contracts, `pglite-${contracts}`);
    fs.writeFileSync(markerFile, marker(contracts));
    console.error(`${dir}: built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await client.close();
  }
}

/** The reports and billing benchmarks bring their own larger volume; build it when their module offers a generator. */
async function buildCompanions(): Promise<void> {
  for (const file of ['reports.ts', 'billing.ts', 'inventory.ts', 'pipeline.ts']) {
    const full = path.join(import.meta.dirname, file);
    if (!fs.existsSync(full)) continue;
    const mod = (await import(full)) as { generate?: (options: { pgUrl: string; seed: number }) => Promise<void> };
    if (typeof mod.generate === 'function') await mod.generate({ pgUrl: PG_URL, seed: SEED });
  }
}

export const VOLUMES = (process.env.BENCH_VOLUMES ?? '20000,200000').split(',').map(Number);

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const volume of VOLUMES) await buildPostgres(volume);
  await buildPglite(VOLUMES[0]);
  if (!process.env.BENCH_SKIP_COMPANIONS) await buildCompanions();
}
