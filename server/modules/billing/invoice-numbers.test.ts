import fs from 'node:fs';
import path from 'node:path';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../db/client';
import { invoices, numberSeries } from '../../db/schema';
import { buildTestApp, type TestContext } from '../../test/app';
import { createBillableContract, setTaxSettings } from '../../test/billing-factories';
import { issueDueInvoices, runBilling } from './billing-run';

/**
 * Gapless invoice numbers (product.md section 14): INV-<year of issue>-<6 digits>, consecutive per year,
 * under concurrent runs on several instances (PostgreSQL), and never lost to a rolled-back issue.
 * The oracle is the series itself: a year's numbers are exactly 1..N.
 */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
  await setTaxSettings(ctx.db, { defaultTaxRate: 0, taxIncluded: false, taxLabel: 'Tax' });
});
afterAll(() => ctx.close());

const BASE_URL = 'https://numbers.example.test';

/** Every number of a year's INV series in the database, as integers, ascending. */
async function seriesOf(year: number): Promise<number[]> {
  const rows = await ctx.db
    .select({ number: invoices.number })
    .from(invoices)
    .where(sql`${invoices.number} ~ ${`^INV-${year}-[0-9]+$`}`);
  return rows.map((r) => Number(r.number.slice(9))).sort((a, b) => a - b);
}

function expectConsecutiveFromOne(values: number[]) {
  expect(values.length).toBeGreaterThan(0);
  expect(values).toEqual(Array.from({ length: values.length }, (_, i) => i + 1));
}

async function invoicesOf(contractId: string) {
  return ctx.db.select().from(invoices).where(eq(invoices.contractId, contractId)).orderBy(asc(invoices.periodStart));
}

async function backlog(count: number, startDate: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const { contract } = await createBillableContract(ctx.db, {
      startDate,
      paymentMode: i % 2 ? 'pay_link' : 'portal',
      lines: [{ unitPriceCents: 10_00 + i }],
    });
    ids.push(contract.id);
  }
  return ids;
}

describe('invoice numbers', () => {
  it('take the year the invoice is issued in and run on consecutively, older periods first', async () => {
    const { contract } = await createBillableContract(ctx.db, {
      startDate: '2023-11-20',
      lines: [{ unitPriceCents: 10_00 }],
    });
    // Issued on 2024-02-20 (a replayed date): four periods, two of them from 2023, all in the 2024 series.
    await runBilling(ctx.db, { contractId: contract.id, asOf: '2024-02-20', baseUrl: BASE_URL });
    const rows = await invoicesOf(contract.id);
    expect(rows.map((r) => [r.periodStart, r.number])).toEqual([
      ['2023-11-20', 'INV-2024-000001'],
      ['2023-12-20', 'INV-2024-000002'],
      ['2024-01-20', 'INV-2024-000003'],
      ['2024-02-20', 'INV-2024-000004'],
    ]);
    const other = await createBillableContract(ctx.db, { startDate: '2024-03-05', lines: [{ unitPriceCents: 1 }] });
    await runBilling(ctx.db, { contractId: other.contract.id, asOf: '2024-03-05', baseUrl: BASE_URL });
    expect((await invoicesOf(other.contract.id)).map((r) => r.number)).toEqual(['INV-2024-000005']);
    const [row] = await ctx.db
      .select()
      .from(numberSeries)
      .where(sql`${numberSeries.series} = 'INV' and ${numberSeries.year} = 2024`);
    expect(row.lastValue).toBe(5);
  });

  it('a new year starts its own series at 000001', async () => {
    const { contract } = await createBillableContract(ctx.db, {
      startDate: '2024-12-10',
      lines: [{ unitPriceCents: 10_00 }],
    });
    await runBilling(ctx.db, { contractId: contract.id, asOf: '2024-12-10', baseUrl: BASE_URL });
    await runBilling(ctx.db, { contractId: contract.id, asOf: '2025-01-10', baseUrl: BASE_URL });
    expect((await invoicesOf(contract.id)).map((r) => r.number)).toEqual(['INV-2024-000006', 'INV-2025-000001']);
  });

  it('a rolled-back issue gives its numbers back: the next invoice takes the same number', async () => {
    const first = await createBillableContract(ctx.db, { startDate: '2021-06-01', lines: [{ unitPriceCents: 5_00 }] });
    const second = await createBillableContract(ctx.db, { startDate: '2021-06-02', lines: [{ unitPriceCents: 5_00 }] });
    await expect(
      ctx.db.transaction(async (tx) => {
        const issued = await issueDueInvoices(tx, { contractId: first.contract.id, asOf: '2021-07-01', email: false });
        expect(issued.map((i) => i.number)).toEqual(['INV-2021-000001', 'INV-2021-000002']);
        throw new Error('the payment that issued them failed');
      }),
    ).rejects.toThrow('the payment that issued them failed');
    expect(await invoicesOf(first.contract.id)).toEqual([]);

    await runBilling(ctx.db, { contractId: second.contract.id, asOf: '2021-06-02', baseUrl: BASE_URL });
    expect((await invoicesOf(second.contract.id)).map((r) => r.number)).toEqual(['INV-2021-000001']);
    expectConsecutiveFromOne(await seriesOf(2021));
  });

  it('grows past six digits instead of cutting the number short', async () => {
    await ctx.db.insert(numberSeries).values({ series: 'INV', year: 2019, lastValue: 999_999 });
    const { contract } = await createBillableContract(ctx.db, {
      startDate: '2019-04-01',
      lines: [{ unitPriceCents: 1_00 }],
    });
    await runBilling(ctx.db, { contractId: contract.id, asOf: '2019-05-01', baseUrl: BASE_URL });
    expect((await invoicesOf(contract.id)).map((r) => r.number)).toEqual(['INV-2019-1000000', 'INV-2019-1000001']);
  });

  it('the upgrade keeps the numbers already issued: each year continues after its highest', async () => {
    const migration = fs.readFileSync(
      path.resolve(import.meta.dirname, '../../db/migrations/0017_number-series.sql'),
      'utf8',
    );
    const seed = migration.split('--> statement-breakpoint').find((s) => s.includes('INSERT INTO "number_series"'));
    expect(seed).toBeDefined();
    const { contract } = await createBillableContract(ctx.db, { startDate: '2018-01-01', lines: [] });
    const issued = (number: string, periodStart: string) => ({
      number,
      contractId: contract.id,
      customerId: contract.customerId,
      periodIndex: Number(periodStart.slice(5, 7)) - 1,
      periodStart,
      periodEnd: periodStart,
      dueDate: periodStart,
      subtotalCents: 0,
      taxCents: 0,
      taxLabel: 'Tax',
      taxRateBp: 0,
      taxIncluded: false,
      totalCents: 0,
    });
    let counters: { series: string; year: number; lastValue: number }[] = [];
    // Run against the data as it stood before numbers were kept per year (one sequence across the years),
    // inside a transaction that is then rolled back, so that the rest of this suite's series stay.
    await ctx.db
      .transaction(async (tx) => {
        await tx.delete(numberSeries);
        await tx
          .insert(invoices)
          .values([
            issued('INV-2017-000003', '2018-01-01'),
            issued('INV-2017-000041', '2018-02-01'),
            issued('INV-2018-000042', '2018-03-01'),
            issued('INV-2018-1000007', '2018-04-01'),
            issued('DRAFT-2018-9', '2018-05-01'),
          ]);
        await tx.execute(sql.raw(seed!));
        counters = await tx.select().from(numberSeries).orderBy(asc(numberSeries.year));
        throw new Error('rollback');
      })
      .catch((error: Error) => {
        if (error.message !== 'rollback') throw error;
      });
    // (The years after 2018 are this suite's own invoices, seeded the same way.)
    expect(counters.filter((c) => c.year <= 2018)).toEqual([
      { series: 'INV', year: 2017, lastValue: 41 },
      { series: 'INV', year: 2018, lastValue: 1_000_007 },
    ]);
  });
});

describe('invoice numbers under concurrent runs', () => {
  it('runs at once (on two instances with PostgreSQL) issue one consecutive series, no number skipped', async () => {
    const ids = await backlog(18, '2022-10-03');
    // A second instance: its own connection pool on the same database (on PGlite, the same database handle).
    const pool = (ctx.database as Database & { pool?: { options: { connectionString: string } } }).pool;
    const other: Database | null = pool ? await openDatabase({ url: pool.options.connectionString }) : null;
    const second = other?.db ?? ctx.db;
    try {
      await Promise.all([
        runBilling(ctx.db, { asOf: '2022-12-03', baseUrl: BASE_URL, chunkSize: 4 }),
        runBilling(second, { asOf: '2022-12-03', baseUrl: BASE_URL, chunkSize: 3 }),
        ...ids.slice(0, 6).map((id) => runBilling(second, { contractId: id, asOf: '2022-12-03', baseUrl: BASE_URL })),
        runBilling(ctx.db, { asOf: '2022-12-03', baseUrl: BASE_URL, chunkSize: 5 }),
      ]);
    } finally {
      await other?.close();
    }
    const rows = await ctx.db
      .select({ contractId: invoices.contractId, periodStart: invoices.periodStart, number: invoices.number })
      .from(invoices)
      .where(inArray(invoices.contractId, ids));
    expect(rows).toHaveLength(ids.length * 3);
    expectConsecutiveFromOne(await seriesOf(2022));
    // Within a contract, older periods have lower numbers.
    for (const id of ids) {
      const mine = rows.filter((r) => r.contractId === id).sort((a, b) => a.periodStart.localeCompare(b.periodStart));
      const values = mine.map((r) => Number(r.number.slice(9)));
      expect([...values].sort((a, b) => a - b)).toEqual(values);
    }
  });
});
