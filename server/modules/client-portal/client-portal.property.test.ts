import { and, asc, eq, gt, inArray } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoices } from '../../db/schema';
import { buildTestApp, type TestContext } from '../../test/app';
import { createBillableContract, setContractSettings, setTaxSettings } from '../../test/billing-factories';
import { createTestCustomer } from '../../test/catalog-factories';
import { createTestUser } from '../../test/factories';
import { runBilling } from '../billing/billing-run';

/**
 * The client's "next payment" (product.md section 7) is what the billing run will ask for: on random
 * customers with one to three active contracts (monthly, flat and CPM lines with flights and in-season prices,
 * packages, setup fees, terms, tax added or included, billing stopping at the term or not), some running since
 * the past with every invoice paid, the portal's amount and due date are held to the invoices the billing run
 * then issues up to that day: the earliest unpaid one is due that day, and the unpaid invoices due that day add
 * up to the amount. The billing run's SQL is the oracle here, not the engine that computed the figure.
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => {
  await setTaxSettings(ctx.db, { defaultTaxRate: 0, taxIncluded: false, taxLabel: 'Tax' });
  await ctx.close();
});

const DAY = 86_400_000;
const today = () => new Date().toISOString().slice(0, 10);
const plusDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10);

const line = fc
  .record({
    priceMetric: fc.constantFrom('monthly' as const, 'flat' as const, 'cpm' as const),
    quantity: fc.integer({ min: 1, max: 50 }),
    unitPriceCents: fc.integer({ min: 1, max: 900_00 }),
    seasonalPriceCents: fc.option(fc.integer({ min: 1, max: 1_200_00 }), { nil: null }),
    discountShare: fc.integer({ min: 0, max: 100 }),
    flightOffset: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 150 })),
    flightDays: fc.option(fc.integer({ min: 1, max: 200 }), { nil: null }),
  })
  .map(({ discountShare, ...l }) => ({
    ...l,
    // A discount never above the line's amount, in or out of season (the form refuses more).
    discountCents: Math.floor(
      (l.quantity * Math.min(l.unitPriceCents, l.seasonalPriceCents ?? l.unitPriceCents) * discountShare) / 400,
    ),
  }));

const contractCase = fc.record({
  // Days from today: a contract that started in the past has its invoices up to today issued and paid.
  startOffset: fc.integer({ min: -120, max: 75 }),
  lines: fc.array(line, { minLength: 1, maxLength: 3 }),
  packagePriceCents: fc.option(fc.integer({ min: 0, max: 600_00 }), { nil: null }),
  setupFeeCents: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 300_00 })),
  termMonths: fc.option(fc.integer({ min: 1, max: 8 }), { nil: null }),
});

const customerCase = fc.record({
  contracts: fc.array(contractCase, { minLength: 1, maxLength: 3 }),
  taxRateHundredths: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 2_500 })),
  taxIncluded: fc.boolean(),
  stopAtTerm: fc.boolean(),
});

describe("the portal's next payment is what the billing run then asks for", () => {
  it('on random customers', { timeout: 240_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(customerCase, async (c) => {
        await setTaxSettings(ctx.db, {
          defaultTaxRate: c.taxRateHundredths / 100,
          taxIncluded: c.taxIncluded,
          taxLabel: 'Tax',
        });
        await setContractSettings(ctx.db, { pausePaymentsAfterExpiry: c.stopAtTerm, gracePeriodsEndOfDays: 7 });
        const customer = await createTestCustomer(ctx.db);
        const client = await ctx.signIn(await createTestUser(ctx.db, { role: 'client', customerId: customer.id }));
        const now = today();
        const ids: string[] = [];
        for (const k of c.contracts) {
          const startDate = plusDays(now, k.startOffset);
          const { contract } = await createBillableContract(ctx.db, {
            customerId: customer.id,
            status: 'active',
            startDate,
            termMonths: k.termMonths,
            setupFeeCents: k.setupFeeCents,
            packagePriceCents: k.packagePriceCents,
            lines: k.lines.map(({ flightOffset, flightDays, ...l }) => ({
              ...l,
              flightStart: plusDays(startDate, flightOffset),
              flightEnd: flightDays === null ? null : plusDays(startDate, flightOffset + flightDays - 1),
            })),
          });
          ids.push(contract.id);
          // Running since the past: billed up to today, and every invoice paid in full.
          await runBilling(ctx.db, { contractId: contract.id, asOf: now });
        }
        const issuedSoFar = await ctx.db.select().from(invoices).where(inArray(invoices.contractId, ids));
        for (const invoice of issuedSoFar.filter((i) => i.status === 'pending')) {
          const paid = await ctx.injectAs('finance', {
            method: 'POST',
            url: `/api/invoices/${invoice.id}/payments`,
            payload: { amount: Number(invoice.totalCents) / 100, method: 'check' },
          });
          expect(paid.statusCode, paid.body).toBe(201);
        }
        const before = new Set(issuedSoFar.map((i) => i.id));

        const summary = await ctx.injectAs(client, { method: 'GET', url: '/api/client/summary' });
        expect(summary.statusCode, summary.body).toBe(200);
        const next = summary.json().nextPayment as { amount: number; dueDate: string; source: string } | null;

        // Bill on, up to the first day of the period that is due then.
        const until = next === null ? plusDays(now, 3 * 366) : plusDays(next.dueDate, -7);
        for (const id of ids) await runBilling(ctx.db, { contractId: id, asOf: until });
        const issued = (
          await ctx.db
            .select()
            .from(invoices)
            .where(and(inArray(invoices.contractId, ids), gt(invoices.totalCents, 0)))
            .orderBy(asc(invoices.dueDate))
        ).filter((i) => !before.has(i.id));

        if (next === null) {
          // Nothing more to pay: three years of billing ask for nothing.
          expect(issued.map((i) => [i.periodStart, Number(i.totalCents)])).toEqual([]);
          return;
        }
        expect(next.source).toBe('scheduled');
        // Every invoice with an amount issued up to then is due that day, and they add up to the amount.
        expect(issued.length).toBeGreaterThan(0);
        expect(issued.every((i) => i.dueDate === next.dueDate)).toBe(true);
        const total = issued.reduce((sum, i) => sum + Number(i.totalCents), 0);
        expect(Math.round(next.amount * 100)).toBe(total);
        // And the invoices shown to the client say the same (pending, due that day).
        const listed = await ctx.db
          .select({ status: invoices.status })
          .from(invoices)
          .where(
            and(inArray(invoices.contractId, ids), eq(invoices.dueDate, next.dueDate), gt(invoices.totalCents, 0)),
          );
        expect(listed.every((i) => i.status === 'pending')).toBe(true);
      }),
      { numRuns: 20 },
    );
  });
});
