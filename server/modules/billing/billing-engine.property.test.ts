import { asc, eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoiceLines, invoices } from '../../db/schema';
import { buildTestApp, type TestContext } from '../../test/app';
import { setContractSettings, setTaxSettings } from '../../test/billing-factories';
import { createPayLinkContract, publicClient } from '../../test/payment-factories';
import { changeContractStatus } from '../contract-status/contract-status.service';
import { runBilling } from './billing-run';

/**
 * One engine: what the product shows before billing (the pay link's first-payment figures and the contract's
 * 12-period schedule) is what the billing run then issues, on random contracts: monthly, flat and CPM lines
 * with flights, with and without in-season prices, discounts, packages, setup fees, terms, month-end start
 * dates, and tax added or included. The preview and the quote are computed by shared/billing.ts, the
 * invoices by the billing run's SQL, and both are held to an oracle written here, day by day.
 */
const ORIGIN = 'https://billing.example.test';
let ctx: TestContext;

beforeAll(async () => {
  ctx = await buildTestApp({ config: { PUBLIC_URL: ORIGIN } });
  await setContractSettings(ctx.db, { pausePaymentsAfterExpiry: true, gracePeriodsEndOfDays: 7 });
});
afterAll(() => ctx.close());

const day = fc
  .record({
    year: fc.integer({ min: 2025, max: 2027 }),
    month: fc.integer({ min: 1, max: 12 }),
    // Month ends on purpose: Jan 31 -> Feb 28/29 -> Mar 31.
    day: fc.oneof(fc.integer({ min: 1, max: 28 }), fc.constantFrom(29, 30, 31)),
  })
  .map(({ year, month, day: d }) => {
    const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
    return `${year}-${String(month).padStart(2, '0')}-${String(Math.min(d, last)).padStart(2, '0')}`;
  });

const line = fc
  .record({
    priceMetric: fc.constantFrom('monthly' as const, 'flat' as const, 'cpm' as const),
    quantity: fc.integer({ min: 1, max: 300 }),
    unitPriceCents: fc.integer({ min: 1, max: 500_00 }),
    seasonalPriceCents: fc.option(fc.integer({ min: 1, max: 700_00 }), { nil: null }),
    discountShare: fc.integer({ min: 0, max: 100 }),
    // Days after the contract's start the flight starts, and how long it runs (null: open-ended).
    flightOffset: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 240 })),
    flightDays: fc.option(fc.integer({ min: 1, max: 200 }), { nil: null }),
  })
  .map(({ discountShare, ...l }) => ({
    ...l,
    // A discount never above the line's amount (the form refuses more).
    discountCents: Math.floor((l.quantity * l.unitPriceCents * discountShare) / 400),
  }));

const contractCase = fc.record({
  startDate: day,
  lines: fc.array(line, { minLength: 1, maxLength: 3 }),
  packagePriceCents: fc.option(fc.integer({ min: 0, max: 1_000_00 }), { nil: null }),
  setupFeeCents: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 500_00 })),
  termMonths: fc.option(fc.integer({ min: 1, max: 8 }), { nil: null }),
  taxRateHundredths: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 2_500 })),
  taxIncluded: fc.boolean(),
  monthsBilled: fc.integer({ min: 0, max: 13 }),
});

const amount = (cents: number | string) => Number(cents) / 100;

// The oracle: calendar days as Date objects, counted one by one; proration in BigInt.
const toDate = (iso: string) => new Date(`${iso}T00:00:00Z`);
const iso = (date: Date) => date.toISOString().slice(0, 10);
const plusDays = (day: string, n: number) => iso(new Date(toDate(day).getTime() + n * 86_400_000));

type LineCase = {
  priceMetric: 'monthly' | 'flat' | 'cpm';
  quantity: number;
  unitPriceCents: number;
  seasonalPriceCents: number | null;
  discountCents: number;
  flightStart: string;
  flightEnd: string | null;
};

/** A period's subtotal as product.md section 11 words it. */
function oracleSubtotal(
  lines: LineCase[],
  period: { index: number; start: string; end: string },
  packagePriceCents: number,
  setupFeeCents: number,
): number {
  const month = Number(period.start.slice(5, 7));
  let subtotal = packagePriceCents + (period.index === 0 ? setupFeeCents : 0);
  for (const l of lines) {
    const price = month >= 10 && l.seasonalPriceCents !== null ? l.seasonalPriceCents : l.unitPriceCents;
    const full = Math.max(0, l.quantity * price - l.discountCents);
    if (l.priceMetric === 'flat') {
      if (l.flightStart >= period.start && l.flightStart <= period.end) subtotal += full;
      continue;
    }
    let days = 0;
    let covered = 0;
    for (let d = period.start; d <= period.end; d = plusDays(d, 1)) {
      days++;
      if (d >= l.flightStart && (l.flightEnd === null || d <= l.flightEnd)) covered++;
    }
    if (covered === days) subtotal += full;
    else subtotal += Number((2n * BigInt(full) * BigInt(covered) + BigInt(days)) / (2n * BigInt(days)));
  }
  return subtotal;
}

function addMonths(date: string, months: number): string {
  const [y, m, d] = date.split('-').map(Number);
  const target = new Date(Date.UTC(y, m - 1 + months, 1));
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  return `${target.getUTCFullYear()}-${String(target.getUTCMonth() + 1).padStart(2, '0')}-${String(Math.min(d, last)).padStart(2, '0')}`;
}

describe('the schedule preview and the first-payment quote equal the invoices issued', () => {
  it('on random contracts', async () => {
    await fc.assert(
      fc.asyncProperty(contractCase, async (c) => {
        await setTaxSettings(ctx.db, {
          defaultTaxRate: c.taxRateHundredths / 100,
          taxIncluded: c.taxIncluded,
          taxLabel: 'Tax',
        });
        const lines: LineCase[] = c.lines.map(({ flightOffset, flightDays, ...l }) => ({
          ...l,
          flightStart: plusDays(c.startDate, flightOffset),
          flightEnd: flightDays === null ? null : plusDays(c.startDate, flightOffset + flightDays - 1),
        }));
        const { contract, token } = await createPayLinkContract(ctx.db, {
          status: 'sent',
          startDate: c.startDate,
          termMonths: c.termMonths,
          lines,
          packagePriceCents: c.packagePriceCents,
          setupFeeCents: c.setupFeeCents,
        });

        // What the product shows before anything is billed.
        const payLink = (await publicClient(ctx.app).getPayLink(token)).json();
        const schedule = (
          await ctx.injectAs('admin', { method: 'GET', url: `/api/contracts/${contract.id}/schedule` })
        ).json();

        // Then the contract runs and is billed up to a day some months on.
        await ctx.db.transaction((tx) =>
          changeContractStatus(tx, contract.id, { action: 'activate', actorId: null, baseUrl: ORIGIN }),
        );
        const asOf = addMonths(c.startDate, c.monthsBilled);
        await runBilling(ctx.db, { contractId: contract.id, asOf, baseUrl: ORIGIN });
        const issued = await ctx.db
          .select()
          .from(invoices)
          .where(eq(invoices.contractId, contract.id))
          .orderBy(asc(invoices.periodIndex));

        // Every period the schedule shows as starting by then is issued; where the schedule ends before its
        // twelve periods (the term's end), nothing after it is.
        const shown = schedule.items.length as number;
        const dueShown = (schedule.items as { periodStart: string }[]).filter((item) => item.periodStart <= asOf);
        expect(issued.filter((i) => i.periodIndex < shown).length).toBe(dueShown.length);
        if (shown < 12) expect(issued.length).toBe(dueShown.length);
        // And each invoice bills what the oracle says.
        for (const invoice of issued) {
          const expected = oracleSubtotal(
            lines,
            { index: invoice.periodIndex, start: invoice.periodStart, end: invoice.periodEnd },
            c.packagePriceCents ?? 0,
            c.setupFeeCents,
          );
          expect(Number(invoice.subtotalCents)).toBe(expected);
        }
        for (const invoice of issued.filter((i) => i.periodIndex < shown)) {
          const item = schedule.items[invoice.periodIndex];
          expect({
            periodIndex: invoice.periodIndex,
            periodStart: invoice.periodStart,
            periodEnd: invoice.periodEnd,
            dueDate: invoice.dueDate,
            subtotal: amount(invoice.subtotalCents),
            setupFee: amount(invoice.setupFeeCents),
            tax: amount(invoice.taxCents),
            total: amount(invoice.totalCents),
            inSeason: invoice.inSeason,
          }).toEqual({
            periodIndex: item.periodIndex,
            periodStart: item.periodStart,
            periodEnd: item.periodEnd,
            dueDate: item.dueDate,
            subtotal: item.subtotal,
            setupFee: item.setupFee,
            tax: item.tax,
            total: item.total,
            inSeason: item.seasonalPricing,
          });
        }

        // The first payment the pay link asked for is the first invoice, line by line.
        if (payLink.state === 'due' && issued.length > 0) {
          const first = issued[0];
          const lines = await ctx.db
            .select()
            .from(invoiceLines)
            .where(eq(invoiceLines.invoiceId, first.id))
            .orderBy(asc(invoiceLines.position));
          expect({
            periodStart: first.periodStart,
            periodEnd: first.periodEnd,
            subtotal: amount(first.subtotalCents),
            tax: amount(first.taxCents),
            total: amount(first.totalCents),
            lines: lines.map((l) => ({
              description: l.description,
              quantity: l.quantity,
              unitPrice: amount(l.unitPriceCents),
              discount: amount(l.discountCents),
              amount: amount(l.amountCents),
              seasonal: l.seasonal,
            })),
          }).toEqual({
            periodStart: payLink.firstPayment.periodStart,
            periodEnd: payLink.firstPayment.periodEnd,
            subtotal: payLink.firstPayment.subtotal,
            tax: payLink.firstPayment.tax,
            total: payLink.firstPayment.total,
            lines: payLink.firstPayment.lines,
          });
        }
      }),
      { numRuns: 30 },
    );
  });
});
