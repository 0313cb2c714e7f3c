import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  auditEvents,
  billingRuns,
  contractPauses,
  contracts,
  invoiceLines,
  invoices,
  outboxEmails,
} from '../../db/schema';
import { buildTestApp, type TestContext } from '../../test/app';
import { createBillableContract, setContractSettings, setTaxSettings } from '../../test/billing-factories';
import { asDelivered } from '../../test/outbox';
import { runBilling } from './billing-run';

/**
 * The billing run against a real database (PGlite, and PostgreSQL when TEST_DATABASE_URL is set).
 * Expected figures come from literal tables or from the BigInt oracle below, never from shared/billing.
 */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(() => ctx.close());
beforeEach(async () => {
  await setTaxSettings(ctx.db, { defaultTaxRate: 0, taxIncluded: false, taxLabel: 'Tax' });
  await setContractSettings(ctx.db, { pausePaymentsAfterExpiry: true, gracePeriodsEndOfDays: 7 });
});

const BASE_URL = 'https://billing.example.test';

async function invoicesOf(contractId: string) {
  return ctx.db.select().from(invoices).where(eq(invoices.contractId, contractId)).orderBy(asc(invoices.periodStart));
}

async function linesOf(invoiceId: string) {
  return ctx.db
    .select()
    .from(invoiceLines)
    .where(eq(invoiceLines.invoiceId, invoiceId))
    .orderBy(asc(invoiceLines.position));
}

/** Bills only the given contract, so that the suite's other contracts do not interfere. */
const bill = (contractId: string, asOf: string) => runBilling(ctx.db, { contractId, asOf, baseUrl: BASE_URL });

describe('periods', () => {
  it('steps calendar months from the start date: Jan 31 -> Feb 29 (leap year) -> Mar 31, ends and due dates', async () => {
    const { contract } = await createBillableContract(ctx.db, {
      startDate: '2024-01-31',
      lines: [{ unitPriceCents: 100_00 }],
    });
    await bill(contract.id, '2024-05-01');
    const rows = await invoicesOf(contract.id);
    expect(rows.map((r) => [r.periodIndex, r.periodStart, r.periodEnd, r.dueDate])).toEqual([
      [0, '2024-01-31', '2024-02-28', '2024-02-07'],
      [1, '2024-02-29', '2024-03-30', '2024-03-07'],
      [2, '2024-03-31', '2024-04-29', '2024-04-07'],
      [3, '2024-04-30', '2024-05-30', '2024-05-07'],
    ]);
  });

  it('in a common year Jan 31 steps to Feb 28, and a period starting on asOf is billed', async () => {
    const { contract } = await createBillableContract(ctx.db, {
      startDate: '2025-01-31',
      lines: [{ unitPriceCents: 1 }],
    });
    await bill(contract.id, '2025-02-28');
    expect((await invoicesOf(contract.id)).map((r) => [r.periodStart, r.periodEnd])).toEqual([
      ['2025-01-31', '2025-02-27'],
      ['2025-02-28', '2025-03-30'],
    ]);
  });

  it('issues invoices on the date of the run: a replayed past date at 09:00 UTC that day, today now', async () => {
    const { contract } = await createBillableContract(ctx.db, {
      startDate: '2025-03-05',
      lines: [{ unitPriceCents: 100_00 }],
    });
    await bill(contract.id, '2025-04-05');
    expect((await invoicesOf(contract.id)).map((r) => r.issuedAt.toISOString())).toEqual([
      '2025-04-05T09:00:00.000Z',
      '2025-04-05T09:00:00.000Z',
    ]);
    const before = Date.now();
    await bill(contract.id, new Date().toISOString().slice(0, 10));
    const caughtUp = (await invoicesOf(contract.id)).slice(2);
    expect(caughtUp.length).toBeGreaterThan(0);
    for (const row of caughtUp) {
      expect(row.issuedAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
      expect(row.issuedAt.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
    }
  });

  it('bills nothing before the start date', async () => {
    const { contract } = await createBillableContract(ctx.db, {
      startDate: '2026-06-10',
      lines: [{ unitPriceCents: 100 }],
    });
    const result = await bill(contract.id, '2026-06-09');
    expect(result.invoicesIssued).toBe(0);
    expect(await invoicesOf(contract.id)).toEqual([]);
  });
});

describe('figures', () => {
  it('bills lines, package, setup fee (first invoice only) and seasonal prices (worked example)', async () => {
    await setTaxSettings(ctx.db, { defaultTaxRate: 8.25, taxIncluded: false, taxLabel: 'Sales tax' });
    const { contract, packageName } = await createBillableContract(ctx.db, {
      startDate: '2026-09-30',
      setupFeeCents: 75_00,
      packagePriceCents: 300_00,
      lines: [
        { quantity: 2, unitPriceCents: 100_00, discountCents: 10_00, seasonalPriceCents: 150_00 },
        { quantity: 1, unitPriceCents: 50_00 },
      ],
    });
    await bill(contract.id, '2026-10-31');
    const [september, october] = await invoicesOf(contract.id);
    // 190 + 50 + 300 + 75 = 615.00; 8.25% = 50.7375 -> 50.74
    expect([september.subtotalCents, september.setupFeeCents, september.taxCents, september.totalCents]).toEqual([
      615_00, 75_00, 50_74, 665_74,
    ]);
    expect([september.taxLabel, september.taxRateBp, september.taxIncluded, september.inSeason]).toEqual([
      'Sales tax',
      825,
      false,
      false,
    ]);
    // October: 2 x 150 - 10 = 290 + 50 + 300 = 640.00; 8.25% = 52.80
    expect([
      october.subtotalCents,
      october.setupFeeCents,
      october.taxCents,
      october.totalCents,
      october.inSeason,
    ]).toEqual([640_00, 0, 52_80, 692_80, true]);
    const lines = await linesOf(october.id);
    expect(
      lines.map((l) => [l.position, l.kind, l.quantity, l.unitPriceCents, l.discountCents, l.amountCents, l.seasonal]),
    ).toEqual([
      [0, 'product', 2, 150_00, 10_00, 290_00, true],
      [1, 'product', 1, 50_00, 0, 50_00, false],
      [2, 'package', 1, 300_00, 0, 300_00, false],
    ]);
    expect(lines[2].description).toBe(`Package: ${packageName}`);
    expect((await linesOf(september.id)).map((l) => l.kind)).toEqual(['product', 'product', 'package', 'setup_fee']);
  });

  it('shows the tax part of the subtotal when prices include tax', async () => {
    await setTaxSettings(ctx.db, { defaultTaxRate: 10, taxIncluded: true, taxLabel: 'VAT' });
    const { contract } = await createBillableContract(ctx.db, {
      startDate: '2026-02-01',
      lines: [{ unitPriceCents: 110_00 }],
    });
    await bill(contract.id, '2026-02-01');
    const [invoice] = await invoicesOf(contract.id);
    expect([invoice.subtotalCents, invoice.taxCents, invoice.totalCents, invoice.taxIncluded]).toEqual([
      110_00,
      10_00,
      110_00,
      true,
    ]);
  });

  // An oracle written apart from the production code: BigInt, half away from zero.
  const roundDiv = (n: bigint, d: bigint) => (2n * n + d) / (2n * d);
  function oracle(
    lines: { quantity: number; unit: number; discount: number; seasonal: number | null }[],
    packagePrice: number | null,
    setupFee: number,
    index: number,
    month: number,
    rateBp: number,
    included: boolean,
  ) {
    const season = month >= 10;
    let subtotal = 0n;
    for (const l of lines) {
      const amount =
        BigInt(l.quantity) * BigInt(season && l.seasonal !== null ? l.seasonal : l.unit) - BigInt(l.discount);
      if (amount > 0n) subtotal += amount;
    }
    subtotal += BigInt(packagePrice ?? 0) + (index === 0 ? BigInt(setupFee) : 0n);
    const r = BigInt(rateBp);
    const tax = included ? roundDiv(subtotal * r, 10_000n + r) : roundDiv(subtotal * r, 10_000n);
    return { subtotal: Number(subtotal), tax: Number(tax), total: Number(included ? subtotal : subtotal + tax) };
  }

  it('matches the oracle for random lines, seasonal prices, packages, setup fees and tax settings', async () => {
    const line = fc
      .record({
        quantity: fc.integer({ min: 1, max: 50 }),
        unit: fc.integer({ min: 0, max: 2_000_00 }),
        discount: fc.integer({ min: 0, max: 5_000_00 }),
        seasonal: fc.option(fc.integer({ min: 0, max: 3_000_00 }), { nil: null }),
      })
      .filter((l) => l.discount <= l.quantity * l.unit);
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { minLength: 0, maxLength: 4 }),
        fc.option(fc.integer({ min: 0, max: 5_000_00 }), { nil: null }),
        fc.integer({ min: 0, max: 1_000_00 }),
        fc.integer({ min: 0, max: 10_000 }),
        fc.boolean(),
        async (lines, packagePrice, setupFee, rateBp, included) => {
          if (!lines.length && packagePrice === null) return;
          await setTaxSettings(ctx.db, { defaultTaxRate: rateBp / 100, taxIncluded: included, taxLabel: 'Tax' });
          const { contract } = await createBillableContract(ctx.db, {
            startDate: '2026-09-15',
            setupFeeCents: setupFee,
            packagePriceCents: packagePrice,
            lines: lines.map((l) => ({
              quantity: l.quantity,
              unitPriceCents: l.unit,
              discountCents: l.discount,
              seasonalPriceCents: l.seasonal,
            })),
          });
          await bill(contract.id, '2026-11-15');
          const rows = await invoicesOf(contract.id);
          // September, October and November, each issued when it bills something (no $0.00 invoice).
          const periods = ['2026-09-15', '2026-10-15', '2026-11-15'].map((start, index) => ({
            start,
            expected: oracle(lines, packagePrice, setupFee, index, 9 + index, rateBp, included),
          }));
          const billed = periods.filter((p) => p.expected.subtotal > 0);
          expect(rows.map((r) => r.periodStart)).toEqual(billed.map((p) => p.start));
          rows.forEach((row, index) => {
            const { expected } = billed[index];
            expect([row.subtotalCents, row.taxCents, row.totalCents]).toEqual([
              expected.subtotal,
              expected.tax,
              expected.total,
            ]);
            expect(row.taxRateBp).toBe(rateBp);
          });
        },
      ),
      { numRuns: 25 },
    );
  });

  it('issues no invoice for a period with nothing to bill, sends nothing for it, and takes no number', async () => {
    // March: the flat line ($500.00, its flight within March) and the monthly line ($310.00) in full; April:
    // the monthly line's 20 of 30 days, 310 x 20 / 30 = 206.666... -> $206.67; May to July: every flight is over.
    const { contract } = await createBillableContract(ctx.db, {
      startDate: '2026-03-01',
      lines: [
        { unitPriceCents: 500_00, priceMetric: 'flat', flightStart: '2026-03-10', flightEnd: '2026-03-20' },
        { unitPriceCents: 310_00, flightStart: '2026-03-01', flightEnd: '2026-04-20' },
      ],
    });
    // A line sold for nothing bills nothing either: no invoice at all.
    const { contract: free } = await createBillableContract(ctx.db, {
      startDate: '2026-03-01',
      lines: [{ unitPriceCents: 0 }],
    });
    expect((await bill(contract.id, '2026-07-15')).invoicesIssued).toBe(2);
    expect((await bill(free.id, '2026-07-15')).invoicesIssued).toBe(0);
    // The next run finds nothing more to bill.
    expect((await bill(contract.id, '2026-08-15')).invoicesIssued).toBe(0);
    const issued = await invoicesOf(contract.id);
    expect(issued.map((i) => [i.periodStart, i.totalCents])).toEqual([
      ['2026-03-01', 810_00],
      ['2026-04-01', 206_67],
    ]);
    expect(await invoicesOf(free.id)).toEqual([]);
    const mail = await ctx.db
      .select()
      .from(outboxEmails)
      .where(inArray(outboxEmails.entityId, [...issued.map((i) => i.id), contract.id, free.id]));
    expect(mail.map((m) => m.entityId).sort()).toEqual(issued.map((i) => i.id).sort());

    // The series stays gapless: the next invoice issued takes the number right after April's.
    const { contract: next } = await createBillableContract(ctx.db, {
      startDate: '2026-08-01',
      lines: [{ unitPriceCents: 10_00 }],
    });
    await bill(next.id, '2026-08-01');
    const [nextInvoice] = await invoicesOf(next.id);
    const serial = (number: string) => Number(number.slice(-6));
    expect(serial(nextInvoice.number)).toBe(serial(issued[1].number) + 1);
  });
});

describe('which contracts and periods', () => {
  it('catches up every missed period once, and a second run issues nothing', async () => {
    const { contract } = await createBillableContract(ctx.db, {
      startDate: '2026-01-05',
      lines: [{ unitPriceCents: 20_00 }],
    });
    expect((await bill(contract.id, '2026-06-04')).invoicesIssued).toBe(5);
    expect((await bill(contract.id, '2026-06-04')).invoicesIssued).toBe(0);
    expect((await bill(contract.id, '2026-06-05')).invoicesIssued).toBe(1);
    expect((await invoicesOf(contract.id)).map((r) => r.periodIndex)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('bills only active contracts', async () => {
    const ids: string[] = [];
    for (const status of ['draft', 'sent', 'paused', 'canceled', 'completed']) {
      ids.push(
        (await createBillableContract(ctx.db, { startDate: '2026-01-01', status, lines: [{ unitPriceCents: 1_00 }] }))
          .contract.id,
      );
    }
    for (const id of ids) await bill(id, '2026-03-01');
    expect(await ctx.db.select().from(invoices).where(inArray(invoices.contractId, ids))).toEqual([]);
  });

  it('skips periods that start while the contract is paused', async () => {
    const { contract } = await createBillableContract(ctx.db, {
      startDate: '2026-01-15',
      lines: [{ unitPriceCents: 10_00 }],
    });
    await ctx.db.insert(contractPauses).values([
      { contractId: contract.id, pausedOn: '2026-03-10', resumedOn: '2026-05-20' },
      // Paused on a period's first day: that period is not billed; resumed on one: it is.
      { contractId: contract.id, pausedOn: '2026-07-15', resumedOn: '2026-08-15' },
    ]);
    await bill(contract.id, '2026-09-01');
    expect((await invoicesOf(contract.id)).map((r) => r.periodStart)).toEqual([
      '2026-01-15',
      '2026-02-15',
      '2026-06-15',
      '2026-08-15',
    ]);
  });

  it('with pausePaymentsAfterExpiry on: nothing on or after the auto-stop date; completed after the grace period', async () => {
    const { contract } = await createBillableContract(ctx.db, {
      startDate: '2026-01-10',
      termMonths: 3,
      lines: [{ unitPriceCents: 10_00 }],
    });
    expect(contract.autoStopDate).toBe('2026-04-10');
    await bill(contract.id, '2026-04-16');
    expect((await invoicesOf(contract.id)).map((r) => r.periodStart)).toEqual([
      '2026-01-10',
      '2026-02-10',
      '2026-03-10',
    ]);
    const [within] = await ctx.db.select().from(contracts).where(eq(contracts.id, contract.id));
    expect(within.status).toBe('active');
    const result = await bill(contract.id, '2026-04-17');
    expect(result.contractsCompleted).toBe(1);
    const [after] = await ctx.db.select().from(contracts).where(eq(contracts.id, contract.id));
    expect(after.status).toBe('completed');
    const audit = await ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, contract.id), eq(auditEvents.action, 'contract.completed')));
    expect(audit).toHaveLength(1);
    expect((await invoicesOf(contract.id)).length).toBe(3);
  });

  it('with pausePaymentsAfterExpiry off: billing continues month to month after the term', async () => {
    await setContractSettings(ctx.db, { pausePaymentsAfterExpiry: false, gracePeriodsEndOfDays: 7 });
    const { contract } = await createBillableContract(ctx.db, {
      startDate: '2026-01-10',
      termMonths: 2,
      lines: [{ unitPriceCents: 10_00 }],
    });
    const result = await bill(contract.id, '2026-05-10');
    expect(result.contractsCompleted).toBe(0);
    expect((await invoicesOf(contract.id)).map((r) => r.periodStart)).toEqual([
      '2026-01-10',
      '2026-02-10',
      '2026-03-10',
      '2026-04-10',
      '2026-05-10',
    ]);
    const [row] = await ctx.db.select().from(contracts).where(eq(contracts.id, contract.id));
    expect(row.status).toBe('active');
  });
});

describe('e-mails, audit and the run record', () => {
  it('e-mails each invoice: the pay link in pay_link mode (created when missing), the portal otherwise', async () => {
    const payLink = await createBillableContract(ctx.db, {
      startDate: '2026-02-01',
      paymentMode: 'pay_link',
      lines: [{ unitPriceCents: 99_00 }],
    });
    const portal = await createBillableContract(ctx.db, {
      startDate: '2026-02-01',
      paymentMode: 'portal',
      lines: [{ unitPriceCents: 45_00 }],
    });
    await bill(payLink.contract.id, '2026-03-01');
    await bill(portal.contract.id, '2026-02-01');
    const [withLink] = await ctx.db.select().from(contracts).where(eq(contracts.id, payLink.contract.id));
    expect(withLink.payLinkToken).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(withLink.stripePaymentLinkId).toMatch(/^plink_/);

    const payLinkInvoices = await invoicesOf(payLink.contract.id);
    const mails = (
      await ctx.db
        .select()
        .from(outboxEmails)
        .where(
          inArray(
            outboxEmails.entityId,
            payLinkInvoices.map((i) => i.id),
          ),
        )
    ).map(asDelivered);
    expect(mails).toHaveLength(2);
    // Due 7 days after each period's start (the default), written as documents write days.
    const dueOn: Record<string, string> = { '2026-02-01': 'Feb 8, 2026', '2026-03-01': 'Mar 8, 2026' };
    for (const mail of mails) {
      const invoice = payLinkInvoices.find((i) => i.id === mail.entityId)!;
      expect(mail.entity).toBe('invoice');
      expect(mail.subject).toBe(`Invoice ${invoice.number}: $99.00 due ${dueOn[invoice.periodStart]}`);
      expect(mail.text).toContain(`Pay securely: ${BASE_URL}/p/${withLink.payLinkToken}`);
    }
    const [portalInvoice] = await invoicesOf(portal.contract.id);
    const [portalMail] = await ctx.db.select().from(outboxEmails).where(eq(outboxEmails.entityId, portalInvoice.id));
    expect(portalMail.text).toContain(`Pay in the client portal: ${BASE_URL}/portal`);
    expect(portalMail.text).toContain('Amount due: $45.00');
    expect(portalMail.text).not.toContain('/p/');
    // Billing has started on both: the built-in provider's subscription is recorded, with an audit event.
    const [portalRow] = await ctx.db.select().from(contracts).where(eq(contracts.id, portal.contract.id));
    expect([withLink.stripeSubscriptionId, portalRow.stripeSubscriptionId, portalRow.payLinkToken]).toEqual([
      expect.stringMatching(/^sub_/),
      expect.stringMatching(/^sub_/),
      null,
    ]);
    const started = await ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, payLink.contract.id), eq(auditEvents.action, 'contract.billing_started')));
    expect(started).toHaveLength(1);
    expect(started[0].after).toMatchObject({ stripePaymentLinkId: withLink.stripePaymentLinkId });

    const audit = await ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, portalInvoice.id), eq(auditEvents.action, 'invoice.issued')));
    expect(audit).toHaveLength(1);
    expect(audit[0].after).toMatchObject({ number: portalInvoice.number, totalCents: 45_00 });
  });

  it('records a whole run in billing_runs, and a contract-only run not', async () => {
    const before = await ctx.db.select().from(billingRuns);
    const { contract } = await createBillableContract(ctx.db, {
      startDate: '2026-01-01',
      lines: [{ unitPriceCents: 1_00 }],
    });
    await bill(contract.id, '2026-01-01');
    expect(await ctx.db.select().from(billingRuns)).toHaveLength(before.length);
    const result = await runBilling(ctx.db, { asOf: '2026-01-01', baseUrl: BASE_URL });
    const [run] = await ctx.db.select().from(billingRuns).where(eq(billingRuns.id, result.runId!));
    expect(run).toMatchObject({ asOf: '2026-01-01', status: 'succeeded', invoicesIssued: result.invoicesIssued });
    expect(run.finishedAt).not.toBeNull();
  });
});

describe('one invoice per contract and period, whatever happens', () => {
  /** Contracts started months ago, with catch-ups of several periods each. */
  async function backlog(count: number, startDate: string) {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      ids.push(
        (
          await createBillableContract(ctx.db, {
            startDate,
            paymentMode: i % 2 ? 'pay_link' : 'portal',
            lines: [{ unitPriceCents: 10_00 + i }],
          })
        ).contract.id,
      );
    }
    return ids;
  }

  async function expectExactlyOnce(ids: string[], periods: string[]) {
    const rows = await ctx.db
      .select({ contractId: invoices.contractId, periodStart: invoices.periodStart, id: invoices.id })
      .from(invoices)
      .where(inArray(invoices.contractId, ids));
    expect(rows).toHaveLength(ids.length * periods.length);
    for (const id of ids) {
      expect(
        rows
          .filter((r) => r.contractId === id)
          .map((r) => r.periodStart)
          .sort(),
      ).toEqual(periods);
    }
    const [{ mails }] = await ctx.db
      .select({ mails: sql<number>`count(*)::int` })
      .from(outboxEmails)
      .where(
        inArray(
          outboxEmails.entityId,
          rows.map((r) => r.id),
        ),
      );
    expect(mails).toBe(rows.length);
    const [{ lineless }] = await ctx.db
      .select({ lineless: sql<number>`count(*)::int` })
      .from(invoices)
      .where(
        and(
          inArray(invoices.contractId, ids),
          sql`not exists (select 1 from invoice_lines l where l.invoice_id = ${invoices.id})`,
        ),
      );
    expect(lineless).toBe(0);
  }

  it('two (and three) runs at once issue each invoice exactly once, none missing', async () => {
    // Contracts from other tests are billed too; only this backlog is checked.
    const ids = await backlog(24, '2025-12-03');
    const runs = await Promise.all([
      runBilling(ctx.db, { asOf: '2026-04-03', baseUrl: BASE_URL, chunkSize: 5 }),
      runBilling(ctx.db, { asOf: '2026-04-03', baseUrl: BASE_URL, chunkSize: 7 }),
      runBilling(ctx.db, { asOf: '2026-04-03', baseUrl: BASE_URL, chunkSize: 5 }),
    ]);
    expect(runs.every((r) => r.runId !== null)).toBe(true);
    await expectExactlyOnce(ids, ['2025-12-03', '2026-01-03', '2026-02-03', '2026-03-03', '2026-04-03']);
  });

  it('a run that fails half way keeps whole chunks only; the next run issues the rest, once', async () => {
    const ids = await backlog(9, '2025-10-20');
    const sorted = [...ids].sort();
    const poisoned = sorted[5];
    // A real failure inside the database, part way through the run.
    await ctx.db.execute(
      sql.raw(`create or replace function billing_test_fail() returns trigger language plpgsql as $$
        begin
          if new.contract_id = '${poisoned}' then raise exception 'disk full (simulated)'; end if;
          return new;
        end $$`),
    );
    await ctx.db.execute(
      sql.raw(
        `create trigger billing_test_fail before insert on invoices for each row execute function billing_test_fail()`,
      ),
    );
    try {
      await expect(runBilling(ctx.db, { asOf: '2026-01-25', baseUrl: BASE_URL, chunkSize: 3 })).rejects.toThrow();
    } finally {
      await ctx.db.execute(sql.raw('drop trigger billing_test_fail on invoices'));
    }
    const [failed] = await ctx.db.select().from(billingRuns).orderBy(sql`${billingRuns.id} desc`).limit(1);
    expect(failed.status).toBe('failed');
    expect(failed.error).toContain('disk full');
    const billed = await ctx.db
      .selectDistinct({ contractId: invoices.contractId })
      .from(invoices)
      .where(inArray(invoices.contractId, ids));
    // Nothing of the failed chunk (or after it) was kept; whole contracts only before it.
    expect(billed.map((b) => b.contractId)).not.toContain(poisoned);
    for (const b of billed) expect(b.contractId < poisoned).toBe(true);

    await runBilling(ctx.db, { asOf: '2026-01-25', baseUrl: BASE_URL, chunkSize: 3 });
    await expectExactlyOnce(ids, ['2025-10-20', '2025-11-20', '2025-12-20', '2026-01-20']);
  });

  it('a chunk that hits the time limit is retried smaller, and the run completes', async () => {
    const ids = await backlog(5, '2026-05-11');
    // A statement issuing more than two of these invoices at once fails as a statement timeout would (57014).
    await ctx.db.execute(
      sql.raw(`create or replace function billing_test_slow() returns trigger language plpgsql as $$
        begin
          if (select count(*) from issued where contract_id::text in (${ids.map((id) => `'${id}'`).join(',')})) > 2 then
            raise exception 'canceling statement due to statement timeout' using errcode = 'query_canceled';
          end if;
          return null;
        end $$`),
    );
    await ctx.db.execute(
      sql.raw(
        'create trigger billing_test_slow after insert on invoices referencing new table as issued for each statement execute function billing_test_slow()',
      ),
    );
    try {
      const result = await runBilling(ctx.db, { asOf: '2026-05-11', baseUrl: BASE_URL, chunkSize: 8 });
      const [run] = await ctx.db.select().from(billingRuns).where(eq(billingRuns.id, result.runId!));
      expect(run.status).toBe('succeeded');
    } finally {
      await ctx.db.execute(sql.raw('drop trigger billing_test_slow on invoices'));
    }
    await expectExactlyOnce(ids, ['2026-05-11']);
  });

  it('a run stopped between chunks is finished by the next run', async () => {
    const ids = await backlog(6, '2025-11-02');
    const controller = new AbortController();
    const stopped = runBilling(ctx.db, {
      asOf: '2026-01-02',
      baseUrl: BASE_URL,
      chunkSize: 2,
      signal: controller.signal,
    });
    controller.abort();
    await expect(stopped).rejects.toThrow('stopped');
    await runBilling(ctx.db, { asOf: '2026-01-02', baseUrl: BASE_URL, chunkSize: 2 });
    await expectExactlyOnce(ids, ['2025-11-02', '2025-12-02', '2026-01-02']);
  });

  it('a contract-only run racing a whole run issues each invoice once', async () => {
    const ids = await backlog(4, '2025-09-09');
    await Promise.all([
      ...ids.map((id) => runBilling(ctx.db, { contractId: id, asOf: '2026-02-10', baseUrl: BASE_URL })),
      runBilling(ctx.db, { asOf: '2026-02-10', baseUrl: BASE_URL, chunkSize: 2 }),
      ...ids.map((id) => runBilling(ctx.db, { contractId: id, asOf: '2026-02-10', baseUrl: BASE_URL })),
    ]);
    await expectExactlyOnce(ids, ['2025-09-09', '2025-10-09', '2025-11-09', '2025-12-09', '2026-01-09', '2026-02-09']);
  });
});
