/**
 * The autopay charge run's row of `npm run bench` (group `autopay`): the product's own run
 * (`runAutopayCharges` of server/modules/autopay/autopay.charge.ts) over BENCH_AUTOPAY_INVOICES (default 10,000)
 * due invoices of customers with autopay on and a default active built-in card that succeeds, against its
 * floor: one INSERT ... SELECT writing the same payments rows into `payments` and nothing else. The run does
 * more than the floor by design (an attempt claimed per invoice, the provider's idempotent charge, the payment
 * applied under the contract's money lock, audit events, notifications, the receipt, commissions, dunning);
 * the goal bounds what that costs: at least 500 charges a second.
 *
 *   npx tsx bench/autopay.ts                      the row alone (BENCH_AUTOPAY_INVOICES, BENCH_ROUNDS)
 *   BENCH_ONLY=autopay npm run bench              the row in the table
 *
 * The data (bench fixture, set-based SQL, every row arithmetic on its number): bench/billing.ts's contracts
 * (invoices/10 customers, active contracts of one period each), two finance users and five sales reps, one
 * pending invoice per contract with its lines, due by the run's day, one built-in card per customer
 * (`builtin_saved_cards` behaviour `succeeds`) as its default method, autopay on. Built once in a template
 * database; each side of each round gets a fresh copy (CREATE DATABASE ... TEMPLATE), dropped afterwards.
 * Each round of ours counts and times every statement the run sends (pg.Client.prototype.query wrapped for the
 * run's duration), to say where the time goes per charge.
 */
import { autopayConsentText } from '@shared/contracts/autopay';
import pg from 'pg';
import { type Database, openDatabase } from '../server/db/client';
import { createMailer } from '../server/lib/mailer';
import { runAutopayCharges } from '../server/modules/autopay/autopay-charges.service';
import { seed as seedContracts } from './billing';
import { benchDb } from './lib/databases';
import { median, spread } from './lib/stats';
import type { BenchContext, BenchRow } from './lib/table';

const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const TEMPLATE_DB = benchDb('autopay_template');
const RUN_DB = benchDb('autopay_run');
/** The run's business day: every invoice of the fixture is due by then (due 7 days after its period starts). */
export const TODAY = '2026-04-30';
const GOAL_PER_SECOND = 500;
const BASE_URL = 'https://bench.example.test';

const say = (text: string) => process.stderr.write(`[autopay] ${text}\n`);
const count = (n: number) => Math.round(n).toLocaleString('en-US');

// ---------------------------------------------------------------------------------------------------------
// The fixture
// ---------------------------------------------------------------------------------------------------------

async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

function urlOf(name: string): string {
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Fills a migrated, empty database with `invoices` due invoices of autopay customers (see the header). */
export async function seed(database: Database, invoices: number): Promise<void> {
  const exec = async (text: string) => {
    await (database.db as unknown as { execute: (q: string) => Promise<unknown> }).execute(text);
  };
  const uid = (kind: string, n: string) =>
    `overlay(overlay(md5('autopay-bench:${kind}:' || ${n}) placing '4' from 13) placing '8' from 17)::uuid`;
  await seedContracts(database, invoices);
  // Staff who hear of each payment (finance) and whose contracts they are (reps earn commission on them).
  await exec(`
    insert into users (id, email, password_hash, first_name, last_name, role)
    select ${uid('user', 'g')}, case when g <= 2 then 'finance' else 'rep' end || g || '@bench.example.test',
           'not-a-password-hash', 'Bench', 'User ' || g, case when g <= 2 then 'finance' else 'sales' end
    from generate_series(1, 7) g`);
  await exec(`
    update contracts c set sales_rep_id = ${uid('user', `(3 + abs(hashtext(c.id::text)) % 5)`)}`);
  // One pending invoice per contract (its first period), due 7 days after the period starts, with its lines.
  await exec(`
    with numbered as (
      select c.*, row_number() over (order by c.start_date, c.id) as n,
             (select coalesce(sum(line_total_cents), 0) from contract_line_items where contract_id = c.id) as lines
      from contracts c where c.status = 'active'),
    issued as (
      insert into invoices (number, contract_id, customer_id, period_index, period_start, period_end, due_date,
                            subtotal_cents, setup_fee_cents, tax_cents, tax_label, tax_rate_bp, tax_included,
                            total_cents, issued_at)
      select 'INV-2026-' || lpad(n::text, 6, '0'), id, customer_id, 0, start_date,
             (start_date + interval '1 month' - interval '1 day')::date, start_date + 7,
             lines + package_price_cents + setup_fee_cents, setup_fee_cents, 0, 'Tax', 0, false,
             lines + package_price_cents + setup_fee_cents, start_date::timestamptz
      from numbered
      returning id, contract_id)
    insert into invoice_lines (invoice_id, position, kind, description, product_id, quantity, unit_price_cents,
                               discount_cents, amount_cents, price_metric, line_id)
    select i.id, li.position, 'product', 'Line ' || li.position, li.product_id, li.quantity, li.unit_price_cents,
           li.discount_cents, li.line_total_cents, li.price_metric, li.id
    from issued i join contract_line_items li on li.contract_id = i.contract_id
    union all
    select i.id, 100, 'package', 'Package', null, 1, c.package_price_cents, 0, c.package_price_cents, null, null
    from issued i join contracts c on c.id = i.contract_id where c.package_id is not null
    union all
    select i.id, 101, 'setup_fee', 'Setup fee', null, 1, c.setup_fee_cents, 0, c.setup_fee_cents, null, null
    from issued i join contracts c on c.id = i.contract_id where c.setup_fee_cents > 0`);
  await exec(`
    insert into number_series (series, year, last_value)
    values ('INV', 2026, (select count(*) from invoices))
    on conflict (series, year) do update set last_value = excluded.last_value`);
  // A built-in test card on file for every customer, its default, that succeeds off-session; autopay on.
  const consent = autopayConsentText('Bench Media').replaceAll("'", "''");
  await exec(`
    insert into payment_methods (customer_id, provider, provider_method_id, kind, brand, last4, exp_month, exp_year,
                                 fingerprint, is_default, status, consent_text, consent_name, consent_email, source)
    select id, 'builtin', 'pm_bench_' || md5(id::text), 'card', 'visa', '4242', 12, 2030,
           left(md5('fingerprint:' || id::text), 16), true, 'active', '${consent}', name, email, 'portal'
    from customers`);
  await exec(`
    insert into builtin_saved_cards (provider_method_id, behaviour)
    select provider_method_id, 'succeeds' from payment_methods`);
  await exec('update customers set autopay_enabled = true');
  await exec('analyze');
}

/** Builds the template database once per run of the row (seconds at 10,000 invoices). */
async function buildTemplate(invoices: number): Promise<void> {
  await admin(`drop database if exists ${TEMPLATE_DB} with (force)`);
  await admin(`create database ${TEMPLATE_DB}`);
  const started = performance.now();
  const database = await openDatabase({ url: urlOf(TEMPLATE_DB), queryTimeoutMs: 30 * 60_000 });
  try {
    await database.migrate();
    await seed(database, invoices);
    const [{ due }] = (await database.sql('select count(*)::int as due from invoices', [])).rows as { due: number }[];
    if (due !== invoices) throw new Error(`the fixture has ${due} invoices, not ${invoices}`);
  } finally {
    await database.close();
  }
  say(`${count(invoices)} due invoices built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

/** A fresh copy of the template for one side of one round. */
async function freshCopy(): Promise<string> {
  await admin(`drop database if exists ${RUN_DB} with (force)`);
  await admin(`create database ${RUN_DB} template ${TEMPLATE_DB}`);
  return urlOf(RUN_DB);
}

// ---------------------------------------------------------------------------------------------------------
// Statement timings: pg.Client.prototype.query wrapped once, recording only while the run is measured.
// ---------------------------------------------------------------------------------------------------------

type StatementTiming = { count: number; ms: number };
type Recording = {
  statements: Map<string, StatementTiming>;
  dbMs: number;
  transactions: number;
  /** BENCH_AUTOPAY_TRACE=n: the first n statements in the order sent, with their times. */
  trace: string[];
};
const TRACE = Number(process.env.BENCH_AUTOPAY_TRACE ?? 0);
let recording: Recording | null = null;

function installStatementTimer(): void {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown; __autopayTimed?: true };
  if (proto.__autopayTimed) return;
  const original = proto.query;
  proto.__autopayTimed = true;
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
      if (key === 'begin') current.transactions += 1;
      if (current.trace.length < TRACE) current.trace.push(`${ms.toFixed(2)} ms  ${key}`);
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

/** A statement's first words, enough to tell the run's statements apart. */
function statementKey(text: string): string {
  const lower = text.toLowerCase();
  if (lower === 'begin' || lower === 'commit' || lower === 'rollback') return lower;
  return text.length > 90 ? `${text.slice(0, 90)}...` : text;
}

export type Profile = {
  statements: number;
  transactions: number;
  /** Wall-clock time inside PostgreSQL calls (the run sends one statement at a time). */
  dbMs: number;
  top: { key: string; count: number; ms: number }[];
};

// ---------------------------------------------------------------------------------------------------------
// The two sides
// ---------------------------------------------------------------------------------------------------------

export type Side = { charges: number; seconds: number; profile?: Profile };

/** Ours: the product's charge run over a fresh copy, every invoice charged once and paid. */
async function ours(invoices: number): Promise<Side> {
  const url = await freshCopy();
  const database = await openDatabase({ url });
  const mailer = createMailer({ SMTP_URL: undefined, MAIL_FROM: 'AdCRM <billing@bench.example.test>' });
  try {
    installStatementTimer();
    const current: Recording = { statements: new Map(), dbMs: 0, transactions: 0, trace: [] };
    recording = current;
    const started = performance.now();
    let result: Awaited<ReturnType<typeof runAutopayCharges>>;
    try {
      result = await runAutopayCharges({ db: database.db, mailer, baseUrl: BASE_URL }, { today: TODAY });
    } finally {
      recording = null;
    }
    const seconds = (performance.now() - started) / 1000;
    if (result.succeeded !== invoices || result.attempted !== invoices) {
      throw new Error(`the run charged ${result.succeeded} of ${result.attempted} attempted, not ${invoices}`);
    }
    const [check] = (
      await database.sql(
        `select (select count(*) from payments where status = 'succeeded' and method = 'card_on_file')::int as payments,
                (select count(*) from invoices where status = 'paid')::int as paid`,
        [],
      )
    ).rows as { payments: number; paid: number }[];
    if (check.payments !== invoices || check.paid !== invoices) {
      throw new Error(`after the run: ${check.payments} payments, ${check.paid} invoices paid, not ${invoices}`);
    }
    for (const line of current.trace) say(`trace: ${line}`);
    const top = [...current.statements.entries()].map(([key, t]) => ({ key, ...t })).sort((a, b) => b.ms - a.ms);
    return {
      charges: result.succeeded,
      seconds,
      profile: {
        statements: top.reduce((n, t) => n + t.count, 0),
        transactions: current.transactions,
        dbMs: current.dbMs,
        top,
      },
    };
  } finally {
    await mailer.close();
    await database.close();
    await admin(`drop database if exists ${RUN_DB} with (force)`);
  }
}

/** The floor: one INSERT ... SELECT of the same payments rows (the invoices the run selects, what is due on each). */
async function floor(invoices: number): Promise<Side> {
  const url = await freshCopy();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const started = performance.now();
    const { rowCount } = await client.query(
      `insert into payments (invoice_id, contract_id, customer_id, kind, status, amount_cents, method, provider,
                             provider_payment_id, card_brand, card_last4, paid_at)
       select i.id, i.contract_id, i.customer_id, 'payment', 'succeeded',
              greatest(0, i.total_cents - i.amount_paid_cents - i.credited_cents), 'card_on_file', 'builtin',
              'pi_' || md5(i.id::text), m.brand, m.last4, now()
       from customers cu
       join payment_methods m on m.customer_id = cu.id and m.is_default and m.removed_at is null and m.status = 'active'
       join invoices i on i.customer_id = cu.id
       where cu.autopay_enabled and i.status in ('pending', 'failed') and i.due_date <= $1::date
         and i.total_cents - i.amount_paid_cents - i.credited_cents > 0`,
      [TODAY],
    );
    const seconds = (performance.now() - started) / 1000;
    if (rowCount !== invoices) throw new Error(`the floor wrote ${rowCount} payments, not ${invoices}`);
    return { charges: rowCount, seconds };
  } finally {
    await client.end();
    await admin(`drop database if exists ${RUN_DB} with (force)`);
  }
}

// ---------------------------------------------------------------------------------------------------------
// The row
// ---------------------------------------------------------------------------------------------------------

const rate = (side: Side) => side.charges / side.seconds;

export async function measure(invoices: number, rounds: number): Promise<{ ours: Side[]; floors: Side[] }> {
  await buildTemplate(invoices);
  const oursSides: Side[] = [];
  const floors: Side[] = [];
  try {
    for (let round = 1; round <= rounds; round++) {
      // Alternating which goes first, as the other rows do.
      const order = round % 2 ? (['ours', 'floor'] as const) : (['floor', 'ours'] as const);
      for (const side of order) {
        if (side === 'ours') oursSides.push(await ours(invoices));
        else floors.push(await floor(invoices));
      }
      const o = oursSides.at(-1)!;
      const f = floors.at(-1)!;
      say(
        `round ${round}/${rounds}: ours ${o.seconds.toFixed(2)} s (${count(rate(o))} charges/s, ` +
          `${(o.profile!.statements / o.charges).toFixed(1)} statements a charge), floor ${f.seconds.toFixed(3)} s ` +
          `(${count(rate(f))} rows/s)`,
      );
    }
  } finally {
    await admin(`drop database if exists ${TEMPLATE_DB} with (force)`);
  }
  return { ours: oursSides, floors };
}

/** Where the median round's time went: statements a charge, time in PostgreSQL calls, the heaviest statements. */
export function profileText(side: Side, limit = 6): string {
  const p = side.profile!;
  const ms = side.seconds * 1000;
  const heaviest = p.top
    .slice(0, limit)
    .map((t) => `${(t.ms / 1000).toFixed(1)} s in ${count(t.count)} x "${t.key}"`)
    .join('; ');
  return (
    `median round: ${count(p.statements)} statements (${(p.statements / side.charges).toFixed(1)} a charge, ` +
    `${(p.transactions / side.charges).toFixed(1)} transactions a charge), ${(p.dbMs / 1000).toFixed(1)} s in PostgreSQL calls ` +
    // The run charges a few invoices at once: their calls overlap, so their sum may pass the round's own time.
    `(summed over the charges in flight, in a round of ${(ms / 1000).toFixed(1)} s); heaviest: ${heaviest}`
  );
}

export function rowOf(invoices: number, result: { ours: Side[]; floors: Side[] }): BenchRow {
  const { ours: oursSides, floors } = result;
  const times = oursSides.map((o, i) => o.seconds / floors[i].seconds);
  // Ours / the floor per round, as every ratio of the table (higher is better, the direction of the goal).
  const shares = oursSides.map((o, i) => rate(o) / rate(floors[i]));
  const rates = oursSides.map(rate);
  const medianRound = oursSides.indexOf(
    [...oursSides].sort((a, b) => a.seconds - b.seconds)[Math.floor(oursSides.length / 2)],
  );
  return {
    name: `Autopay charge run, ${count(invoices)} due invoices on the built-in provider, PostgreSQL`,
    ours: `${spread(rates)} charges/s (${spread(
      oursSides.map((o) => o.seconds),
      1,
    )} s)`,
    baseline: `one INSERT ... SELECT of the same payments: ${spread(floors.map(rate))} rows/s (${spread(
      floors.map((f) => f.seconds),
      2,
    )} s)`,
    ratio: `${spread(shares, 4)} of the floor's rate (${spread(times, 0)}x its time)`,
    goal: `>= ${GOAL_PER_SECOND} charges/s`,
    met: median(rates) >= GOAL_PER_SECOND,
    note: `runAutopayCharges(deps, { today }) in process, one card per customer (${count(
      Math.max(10, Math.round(invoices / 10)),
    )} customers), every charge succeeding; ${profileText(oursSides[medianRound])}`,
  };
}

export async function bench(context: BenchContext): Promise<BenchRow[]> {
  const invoices = Number(process.env.BENCH_AUTOPAY_INVOICES ?? (context.quick ? 1_000 : 10_000));
  const rounds = context.quick ? 1 : Math.min(3, context.rounds);
  return [rowOf(invoices, await measure(invoices, rounds))];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const invoices = Number(process.env.BENCH_AUTOPAY_INVOICES ?? 10_000);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 1);
  const result = await measure(invoices, rounds);
  const row = rowOf(invoices, result);
  console.log(JSON.stringify(row, null, 2));
  // The rounds' raw figures, from which rowOf rebuilds the row (e.g. to write it into docs/performance.md).
  console.log(`sides: ${JSON.stringify(result)}`);
  for (const side of result.ours) {
    console.log(`\nround of ${side.seconds.toFixed(2)} s, all statements:`);
    for (const t of side.profile!.top) {
      console.log(`  ${(t.ms / 1000).toFixed(2)} s  ${count(t.count)} x  ${t.key}`);
    }
  }
}
