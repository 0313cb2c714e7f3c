/**
 * The billing run's throughput: invoices issued per second over BENCH_BILLING_CONTRACTS (default 100,000)
 * active contracts, each with one period due, on PostgreSQL and on PGlite.
 *
 *   npx tsx bench/billing.ts                       both engines
 *   BENCH_BILLING_ENGINES=postgres npx tsx bench/billing.ts
 *
 * PostgreSQL: a fresh database adcrm_bench_billing on BENCH_PG_URL (default
 * postgres://postgres@127.0.0.1:5432/postgres), dropped afterwards. PGlite: in memory.
 * The run is the real one (server/modules/billing/billing-run.ts): invoices, lines, audit events, pay
 * links and one outbox e-mail per invoice, in chunks of 5,000 contracts. `benchBilling()` is the entry
 * point for `npm run bench`.
 */
import pg from 'pg';
import { type Database, openDatabase } from '../server/db/client';
import { runBilling } from '../server/modules/billing/billing-run';
import { benchDb } from './lib/databases';

export type BillingBenchResult = {
  engine: 'postgres' | 'pglite';
  contracts: number;
  invoices: number;
  seconds: number;
  invoicesPerSecond: number;
  /** A second run over the same day: nothing is due, every contract is looked at. */
  idleRunSeconds: number;
};

const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB_NAME = benchDb('billing');
export const AS_OF = '2026-03-31';

/** Builds the contracts set-based: every row is arithmetic on its number, the same on every run. */
export async function seed(database: Database, contracts: number): Promise<void> {
  const exec = async (text: string) => {
    await (database.db as unknown as { execute: (q: string) => Promise<unknown> }).execute(text);
  };
  const uid = (kind: string, n: string) =>
    `overlay(overlay(md5('billing-bench:${kind}:' || ${n}) placing '4' from 13) placing '8' from 17)::uuid`;
  const customers = Math.max(10, Math.round(contracts / 10));
  await exec(`
    insert into customers (id, name, email)
    select ${uid('customer', 'g')}, 'Customer ' || g, 'customer' || g || '@example.test'
    from generate_series(1, ${customers}) g`);
  await exec(`
    insert into products (id, name, ad_type, default_price_cents, price_metric, seasonal_price_cents)
    select ${uid('product', 'g')}, 'Product ' || g, 'banner', 50000 + g * 12500, 'monthly',
           case when g % 3 = 0 then 60000 + g * 15000 end
    from generate_series(1, 9) g`);
  await exec(`insert into packages (id, name, price_cents) values (${uid('package', '1')}, 'Bench package', 150000)`);
  // Active contracts started within the 28 days before AS_OF: exactly one period due each.
  await exec(`
    insert into contracts (id, customer_id, status, start_date, term_months, auto_stop_date, payment_mode, pay_link_token,
                           package_id, package_price_cents, line_items_total_cents, monthly_amount_cents,
                           seasonal_monthly_amount_cents, setup_fee_cents, total_cents)
    select ${uid('contract', 'g')}, ${uid('customer', `(1 + g % ${customers})`)}, 'active',
           date '${AS_OF}' - (g % 28), 12, date '${AS_OF}' - (g % 28) + interval '12 months',
           case when g % 2 = 0 then 'pay_link' else 'portal' end,
           case when g % 2 = 0 then md5('billing-bench:token:' || g) end,
           case when g % 4 = 0 then ${uid('package', '1')} end, case when g % 4 = 0 then 150000 else 0 end,
           0, 0, 0, case when g % 5 = 0 then 25000 else 0 end, 0
    from generate_series(1, ${contracts}) g`);
  await exec(`
    insert into contract_line_items (contract_id, product_id, quantity, unit_price_cents, discount_cents, line_total_cents,
                                     position, price_metric, seasonal_price_cents, flight_start)
    select ${uid('contract', 'g')}, ${uid('product', `(1 + (g + l) % 9)`)}, 1 + l, 40000 + (g % 7) * 5000, (g % 3) * 1000,
           (1 + l) * (40000 + (g % 7) * 5000) - (g % 3) * 1000, l,
           -- Mostly per-month lines, some CPM and flat-rate; one contract in six starts a line mid-period (prorated).
           case when (g + l) % 10 = 0 then 'flat' when (g + l) % 5 = 0 then 'cpm' else 'monthly' end,
           case when (1 + (g + l) % 9) % 3 = 0 then 60000 + (1 + (g + l) % 9) * 15000 end,
           date '${AS_OF}' - (g % 28) + case when g % 6 = 0 and l = 1 then 9 else 0 end
    from generate_series(1, ${contracts}) g
    cross join lateral generate_series(0, g % 2) l`);
  await exec('analyze');
}

function report(engine: string, contracts: number, since: number): void {
  const seconds = ((Date.now() - since) / 1000).toFixed(1);
  process.stderr.write(`  ${engine}: ${contracts.toLocaleString('en-US')} contracts seeded in ${seconds} s\n`);
}

async function measure(engine: 'postgres' | 'pglite', contracts: number): Promise<BillingBenchResult> {
  let database: Database;
  let drop = async () => {};
  if (engine === 'postgres') {
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`drop database if exists ${DB_NAME} with (force)`);
    await admin.query(`create database ${DB_NAME}`);
    await admin.end();
    const url = new URL(PG_URL);
    url.pathname = `/${DB_NAME}`;
    // Seeding 100k rows a statement may take longer than the app's query time limit; the run is measured
    // with the app's own limits.
    const seeding = Date.now();
    const seeder = await openDatabase({ url: url.toString(), queryTimeoutMs: 30 * 60_000 });
    await seeder.migrate();
    await seed(seeder, contracts);
    await seeder.close();
    report(engine, contracts, seeding);
    database = await openDatabase({ url: url.toString() });
    drop = async () => {
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      await client.query(`drop database if exists ${DB_NAME} with (force)`);
      await client.end();
    };
  } else {
    const seeding = Date.now();
    database = await openDatabase({});
    await database.migrate();
    await seed(database, contracts);
    report(engine, contracts, seeding);
  }
  try {
    const start = performance.now();
    const run = await runBilling(database.db, { asOf: AS_OF, baseUrl: 'https://bench.example.test' });
    const seconds = (performance.now() - start) / 1000;
    const idleStart = performance.now();
    const idle = await runBilling(database.db, { asOf: AS_OF, baseUrl: 'https://bench.example.test' });
    const idleRunSeconds = (performance.now() - idleStart) / 1000;
    if (idle.invoicesIssued !== 0) throw new Error('A second run issued invoices again');
    return {
      engine,
      contracts,
      invoices: run.invoicesIssued,
      seconds,
      invoicesPerSecond: run.invoicesIssued / seconds,
      idleRunSeconds,
    };
  } finally {
    await database.close();
    await drop();
  }
}

/** Runs the benchmark on each engine in turn (never at once: the machine is shared). */
export async function benchBilling(
  options: { contracts?: number; engines?: ('postgres' | 'pglite')[] } = {},
): Promise<BillingBenchResult[]> {
  const contracts = options.contracts ?? Number(process.env.BENCH_BILLING_CONTRACTS ?? 100_000);
  const engines = options.engines ??
    (process.env.BENCH_BILLING_ENGINES?.split(',') as ('postgres' | 'pglite')[] | undefined) ?? ['postgres', 'pglite'];
  const results: BillingBenchResult[] = [];
  for (const engine of engines) results.push(await measure(engine, contracts));
  return results;
}

export function formatBillingResults(results: BillingBenchResult[]): string {
  const rows = results.map(
    (r) =>
      `| billing run | ${r.engine} | ${r.contracts.toLocaleString('en-US')} | ${r.invoices.toLocaleString('en-US')} | ${r.seconds.toFixed(2)} s | ${Math.round(r.invoicesPerSecond).toLocaleString('en-US')} | ${r.idleRunSeconds.toFixed(2)} s |`,
  );
  return [
    '| benchmark | engine | contracts | invoices | time | invoices/s | idle run |',
    '|---|---|---:|---:|---:|---:|---:|',
    ...rows,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const results = await benchBilling();
  console.log(formatBillingResults(results));
}
