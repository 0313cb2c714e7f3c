/**
 * The billing run's row of `npm run bench`: the real run (bench/billing.ts, on PostgreSQL) against its floor,
 * one INSERT ... SELECT writing the same invoices and their lines for the same contracts (bench/billing.ts's
 * seed) and nothing else. The run does more than the floor by design (invoice numbers in period order, tax,
 * seasonal prices, audit events, pay links, one e-mail per invoice); the goal bounds what that costs.
 * Goals: at most 3x the floor's time, and at least 5,000 invoices/s.
 */
import pg from 'pg';
import { openDatabase } from '../server/db/client';
import { benchBilling, seed } from './billing';
import { benchDb } from './lib/databases';
import { spread } from './lib/stats';
import type { BenchContext, BenchRow } from './lib/table';

const FLOOR_DB = benchDb('billing_floor');

async function admin(pgUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: pgUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** Seeds the same contracts in a fresh database and times the one statement that writes their invoices. */
async function floor(pgUrl: string, contracts: number): Promise<{ invoices: number; seconds: number }> {
  await admin(pgUrl, `drop database if exists ${FLOOR_DB} with (force)`);
  await admin(pgUrl, `create database ${FLOOR_DB}`);
  const url = new URL(pgUrl);
  url.pathname = `/${FLOOR_DB}`;
  const database = await openDatabase({ url: url.toString() });
  try {
    await database.migrate();
    await seed(database, contracts);
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    try {
      const started = performance.now();
      const result = await client.query<{ invoices: number }>(`
        with issued as (
          insert into invoices (number, contract_id, customer_id, period_index, period_start, period_end, due_date,
                                subtotal_cents, setup_fee_cents, tax_cents, tax_label, tax_rate_bp, tax_included,
                                total_cents)
          select 'INV-' || extract(year from c.start_date)::int || '-' || lpad((row_number() over (order by c.id))::text, 6, '0'),
                 c.id, c.customer_id, 0, c.start_date, (c.start_date + interval '1 month' - interval '1 day')::date,
                 c.start_date + 7, l.total + c.package_price_cents + c.setup_fee_cents, c.setup_fee_cents, 0, 'Tax', 0,
                 false, l.total + c.package_price_cents + c.setup_fee_cents
          from contracts c
          cross join lateral (select coalesce(sum(line_total_cents), 0) as total
                              from contract_line_items where contract_id = c.id) l
          where c.status = 'active'
          returning id, contract_id),
        lines as (
          insert into invoice_lines (invoice_id, position, kind, description, product_id, quantity, unit_price_cents,
                                     discount_cents, amount_cents)
          select i.id, li.position, 'product', 'Line', li.product_id, li.quantity, li.unit_price_cents,
                 li.discount_cents, li.line_total_cents
          from issued i join contract_line_items li on li.contract_id = i.contract_id
          union all
          select i.id, 100, 'package', 'Package', null, 1, c.package_price_cents, 0, c.package_price_cents
          from issued i join contracts c on c.id = i.contract_id where c.package_id is not null
          union all
          select i.id, 101, 'setup_fee', 'Setup fee', null, 1, c.setup_fee_cents, 0, c.setup_fee_cents
          from issued i join contracts c on c.id = i.contract_id where c.setup_fee_cents > 0
          returning 1)
        select (select count(*) from issued)::int as invoices, (select count(*) from lines)::int as lines`);
      return { invoices: result.rows[0].invoices, seconds: (performance.now() - started) / 1000 };
    } finally {
      await client.end();
    }
  } finally {
    await database.close();
    await admin(pgUrl, `drop database if exists ${FLOOR_DB} with (force)`);
  }
}

export async function bench(context: BenchContext): Promise<BenchRow[]> {
  const contracts = context.quick ? 20_000 : 100_000;
  const rounds = context.quick ? 1 : Math.min(3, context.rounds);
  const ours: { invoices: number; seconds: number }[] = [];
  const floors: { invoices: number; seconds: number }[] = [];
  for (let round = 1; round <= rounds; round++) {
    // Alternating which goes first, as the HTTP rows do.
    const order = round % 2 ? (['ours', 'floor'] as const) : (['floor', 'ours'] as const);
    for (const side of order) {
      if (side === 'ours') {
        const [result] = await benchBilling({ contracts, engines: ['postgres'] });
        ours.push({ invoices: result.invoices, seconds: result.seconds });
      } else {
        floors.push(await floor(context.pgUrl, contracts));
      }
    }
    process.stderr.write(
      `[bench] round ${round}/${rounds} billing: ours ${ours.at(-1)!.seconds.toFixed(1)} s, floor ${floors.at(-1)!.seconds.toFixed(1)} s\n`,
    );
  }
  const rate = (r: { invoices: number; seconds: number }) => r.invoices / r.seconds;
  const times = ours.map((r, i) => r.seconds / floors[i].seconds);
  const medianOf = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const invoices = ours[0].invoices;
  return [
    {
      name: `Billing run, ${contracts.toLocaleString('en-US')} active contracts due (${invoices.toLocaleString('en-US')} invoices), PostgreSQL`,
      ours: `${spread(ours.map(rate))} invoices/s (${spread(
        ours.map((r) => r.seconds),
        1,
      )} s)`,
      baseline: `one INSERT ... SELECT of the same invoices and lines: ${spread(floors.map(rate))} invoices/s (${spread(
        floors.map((r) => r.seconds),
        1,
      )} s)`,
      ratio: `${spread(times, 2)}x the floor's time`,
      goal: '<= 3x the floor, >= 5,000 invoices/s',
      met: medianOf(times) <= 3 && medianOf(ours.map(rate)) >= 5000,
    },
  ];
}
