import { addDays } from '@shared/billing';
import type { DeliveryPeriod, DeliveryPushResult } from '@shared/contracts/delivery';
import { formatMonth } from '@shared/contracts/delivery';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  auditEvents,
  contractLineItems,
  creditNotes,
  invoices,
  lineDeliveries,
  lineDeliveryDays,
} from '../../db/schema';
import { businessToday } from '../../lib/business-day';
import { buildTestApp, type TestContext } from '../../test/app';
import { createBillableContract, setContractSettings, setTaxSettings } from '../../test/billing-factories';
import { onlyOn } from '../../test/engine';
import { createTestUser, type TestUser } from '../../test/factories';
import { runBilling } from '../billing/billing-run';
import { reconcileDelivery } from './delivery.service';

/**
 * Delivery pushed by an ad server (POST /api/delivery, product.md section 16; decision 041): daily rows add up
 * to their billed period, a day sent again replaces its figures, a period is settled once it has ended and is
 * final (`final: true`, or its end + deliveryGraceDays by the reconciliation job), all-or-nothing, 409 once
 * settled, who may push; on PostgreSQL, two identical final pushes at once settle the period once. Figures
 * and credit amounts are worked out by hand in each test.
 *
 * Periods are months counted from the business's today: PREV (two months ago), LAST (last month: ended, its
 * end 1 to 31 days before today) and CURRENT (running). With deliveryGraceDays 31, LAST is never past its
 * grace days today; with 0 it always is.
 */

let ctx: TestContext;
let rep: TestUser & { token: string };
let otherRep: TestUser & { token: string };
const TODAY = businessToday();

/** The first day of the month `offset` months from today's ("YYYY-MM-01"). */
function monthStart(offset: number): string {
  const [year, month] = TODAY.split('-').map(Number);
  const date = new Date(Date.UTC(year, month - 1 + offset, 1));
  return date.toISOString().slice(0, 10);
}
const PREV = monthStart(-2).slice(0, 7);
const LAST = monthStart(-1).slice(0, 7);
const CURRENT = monthStart(0).slice(0, 7);
const LAST_END = addDays(monthStart(0), -1);

beforeAll(async () => {
  ctx = await buildTestApp();
  rep = await ctx.signIn(await createTestUser(ctx.db, { role: 'sales' }));
  otherRep = await ctx.signIn(await createTestUser(ctx.db, { role: 'sales' }));
});
afterAll(() => ctx.close());
beforeEach(async () => {
  // 10% added on top: a credit carries the invoice's tax.
  await setTaxSettings(ctx.db, { defaultTaxRate: 10, taxIncluded: false, taxLabel: 'Tax' });
  await graceDays(31);
});

const graceDays = (deliveryGraceDays: number) =>
  setContractSettings(ctx.db, { pausePaymentsAfterExpiry: true, gracePeriodsEndOfDays: 7, deliveryGraceDays });

/**
 * An active contract of the rep from PREV: a CPM line of 500 thousand impressions a month at $12.00 per 1,000
 * ($6,000.00 a month) and a monthly $100.00 banner, billed up to `asOf` (today: PREV, LAST and CURRENT).
 */
async function cpmContract(options: { asOf?: string; salesRepId?: string } = {}) {
  const made = await createBillableContract(ctx.db, {
    startDate: monthStart(-2),
    salesRepId: options.salesRepId ?? rep.id,
    lines: [
      { quantity: 500, unitPriceCents: 12_00, priceMetric: 'cpm' },
      { quantity: 1, unitPriceCents: 100_00, priceMetric: 'monthly' },
    ],
  });
  await runBilling(ctx.db, { contractId: made.contract.id, asOf: options.asOf ?? TODAY });
  const lines = await ctx.db
    .select()
    .from(contractLineItems)
    .where(eq(contractLineItems.contractId, made.contract.id))
    .orderBy(asc(contractLineItems.position));
  const productName = async (productId: string) =>
    (await ctx.injectAs('admin', { method: 'GET', url: `/api/products/${productId}` })).json().name as string;
  return {
    ...made,
    id: made.contract.id,
    cpm: lines[0],
    banner: lines[1],
    cpmName: await productName(lines[0].productId),
  };
}

type Who = Parameters<TestContext['injectAs']>[0];
const push = (who: Who, rows: unknown) =>
  ctx.injectAs(who, { method: 'POST', url: '/api/delivery', payload: { rows } });

const pushed = async (who: Who, rows: unknown) => {
  const response = await push(who, rows);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as DeliveryPushResult;
};

const day = (month: string, n: number) => `${month}-${String(n).padStart(2, '0')}`;

const daysOf = async (lineId: string) =>
  (
    await ctx.db
      .select()
      .from(lineDeliveryDays)
      .where(eq(lineDeliveryDays.lineId, lineId))
      .orderBy(asc(lineDeliveryDays.day))
  ).map((d) => [d.day, d.impressions, d.clicks]);

const deliveryRows = (contractId: string) =>
  ctx.db.select().from(lineDeliveries).where(eq(lineDeliveries.contractId, contractId));

const notesOf = (contractId: string) => ctx.db.select().from(creditNotes).where(eq(creditNotes.contractId, contractId));

const auditsOf = (contractId: string, action: string) =>
  ctx.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.entityId, contractId), eq(auditEvents.action, action)));

const list = async (contractId: string) => {
  const response = await ctx.injectAs('admin', { method: 'GET', url: `/api/contracts/${contractId}/delivery` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as DeliveryPeriod[];
};

const invoiceOf = async (contractId: string, periodStart: string) =>
  (
    await ctx.db
      .select()
      .from(invoices)
      .where(and(eq(invoices.contractId, contractId), eq(invoices.periodStart, periodStart)))
  )[0];

describe('daily rows', () => {
  it('add up to their billed period, reported so far until final', async () => {
    const c = await cpmContract();
    const result = await pushed(rep, [
      { contract: c.id, line: c.cpm.id, date: day(LAST, 1), impressions: 100_000, clicks: 300 },
      { contract: c.id.slice(-8), line: c.cpmName, date: day(LAST, 2), impressions: 120_000, clicks: 350 },
      { contract: c.id, line: c.cpm.id, date: day(LAST, 3), impressions: 90_500 },
      { contract: c.id, line: c.cpm.id, date: day(CURRENT, 1), impressions: 5_000, clicks: null },
    ]);
    expect(result).toMatchObject({ rows: 4, changed: 2, credits: 0, makegoods: 0 });
    // 100,000 + 120,000 + 90,500 = 310,500 impressions; 300 + 350 = 650 clicks (the third day reported none).
    expect(result.periods.map((p) => [p.month, p.booked, p.delivered, p.clicks, p.ended, p.final, p.status])).toEqual([
      [LAST, 500_000, 310_500, 650, true, false, 'reported'],
      [CURRENT, 500_000, 5_000, null, false, false, 'reported'],
    ]);
    expect(result.periods[0]).toMatchObject({ contractId: c.id, lineId: c.cpm.id, remedy: null, creditNote: null });
    expect(await daysOf(c.cpm.id)).toEqual([
      [day(LAST, 1), 100_000, 300],
      [day(LAST, 2), 120_000, 350],
      [day(LAST, 3), 90_500, null],
      [day(CURRENT, 1), 5_000, null],
    ]);
    // Short of booked, but not final: nothing is settled or credited yet, and the rep is not told.
    expect((await deliveryRows(c.id)).map((r) => [r.periodStart, r.deliveredImpressions, r.settledAt])).toEqual(
      expect.arrayContaining([
        [`${LAST}-01`, 310_500, null],
        [`${CURRENT}-01`, 5_000, null],
      ]),
    );
    expect(await notesOf(c.id)).toEqual([]);
    const periods = await list(c.id);
    expect(periods.find((p) => p.month === LAST)).toMatchObject({ status: 'reported', delivered: 310_500 });
    expect(periods.find((p) => p.month === PREV)).toMatchObject({ status: 'awaiting', delivered: null });
    // One audit event per period changed.
    expect(await auditsOf(c.id, 'delivery.recorded')).toHaveLength(2);
  });

  it('a day sent again replaces that day; the same push again changes nothing; a month total replaces the days', async () => {
    const c = await cpmContract();
    const first = [
      { contract: c.id, line: c.cpm.id, date: day(LAST, 1), impressions: 100_000, clicks: 300 },
      { contract: c.id, line: c.cpm.id, date: day(LAST, 2), impressions: 120_000, clicks: 350 },
    ];
    await pushed(rep, first);
    const again = await pushed(rep, [
      { contract: c.id, line: c.cpm.id, date: day(LAST, 2), impressions: 80_000, clicks: 200 },
    ]);
    // 100,000 + 80,000 (the second day replaced, not added): 180,000; clicks 300 + 200.
    expect(again.changed).toBe(1);
    expect(again.periods[0]).toMatchObject({ delivered: 180_000, clicks: 500, status: 'reported' });
    expect(await daysOf(c.cpm.id)).toEqual([
      [day(LAST, 1), 100_000, 300],
      [day(LAST, 2), 80_000, 200],
    ]);

    // A retried push counts nothing twice and records nothing.
    const retried = await pushed(rep, [
      { contract: c.id, line: c.cpm.id, date: day(LAST, 2), impressions: 80_000, clicks: 200 },
    ]);
    expect(retried.changed).toBe(0);
    expect(retried.periods[0]).toMatchObject({ delivered: 180_000, clicks: 500 });
    expect(await auditsOf(c.id, 'delivery.recorded')).toHaveLength(2);

    // Two days swapping their figures keep the total, and are still recorded (and audited).
    const swapped = await pushed(rep, [
      { contract: c.id, line: c.cpm.id, date: day(LAST, 1), impressions: 80_000, clicks: 200 },
      { contract: c.id, line: c.cpm.id, date: day(LAST, 2), impressions: 100_000, clicks: 300 },
    ]);
    expect(swapped.changed).toBe(1);
    expect(swapped.periods[0]).toMatchObject({ delivered: 180_000, clicks: 500 });
    expect(await auditsOf(c.id, 'delivery.recorded')).toHaveLength(3);

    // The month's total sets the period directly and replaces its days; a day after it starts a new sum.
    const total = await pushed(rep, [{ contract: c.id, line: c.cpm.id, month: LAST, impressions: 350_000 }]);
    expect(total.periods[0]).toMatchObject({ delivered: 350_000, clicks: null, status: 'reported' });
    expect(await daysOf(c.cpm.id)).toEqual([]);
    const dayAfter = await pushed(rep, [
      { contract: c.id, line: c.cpm.id, date: day(LAST, 5), impressions: 7_000, clicks: 70 },
    ]);
    expect(dayAfter.periods[0]).toMatchObject({ delivered: 7_000, clicks: 70 });
  });
});

describe('reconciliation', () => {
  it('final: true settles an ended period at once, with a credit note of the shortfall at the rate billed', async () => {
    const c = await cpmContract();
    const last = await invoiceOf(c.id, `${LAST}-01`);
    const result = await pushed(rep, [
      { contract: c.id, line: c.cpm.id, date: day(LAST, 1), impressions: 200_000, clicks: 400 },
      { contract: c.id, line: c.cpm.id, date: day(LAST, 2), impressions: 150_000 },
      { contract: c.id, line: c.cpm.id, date: day(LAST, 3), impressions: 70_000, final: true },
    ]);
    // 420,000 of 500,000: 80,000 short = 80 x $12.00 = $960.00, plus 10% tax = $1,056.00.
    expect(result).toMatchObject({ rows: 3, changed: 1, credits: 1, makegoods: 0 });
    expect(result.periods[0]).toMatchObject({
      month: LAST,
      delivered: 420_000,
      final: true,
      status: 'settled',
      remedy: 'credit',
      shortfall: 80_000,
      creditNote: { amount: 1_056 },
      invoiceId: last.id,
    });
    const notes = await notesOf(c.id);
    expect(notes.map((n) => [n.kind, n.invoiceId, n.amountCents, n.taxCents])).toEqual([
      ['delivery', last.id, 1_056_00, 96_00],
    ]);
    expect(result.periods[0].creditNote?.number).toBe(notes[0].number);
    expect((await invoiceOf(c.id, `${LAST}-01`)).creditedCents).toBe(1_056_00);
    expect(await auditsOf(c.id, 'delivery.settled')).toHaveLength(1);

    // The same day again is accepted and changes nothing; other figures for the settled period are a 409.
    const same = await pushed(rep, [{ contract: c.id, line: c.cpm.id, date: day(LAST, 2), impressions: 150_000 }]);
    expect(same).toMatchObject({ changed: 0, credits: 0 });
    const refused = await push(rep, [
      { contract: c.id, line: c.cpm.id, date: day(CURRENT, 1), impressions: 1_000 },
      { contract: c.id, line: c.cpm.id, date: day(LAST, 2), impressions: 160_000 },
      { contract: c.id, line: c.cpm.id, date: day(LAST, 4), impressions: 10_000 },
    ]);
    expect(refused.statusCode).toBe(409);
    const settled = `Delivery of ${c.cpmName}, ${formatMonth(LAST)} is settled by credit note ${notes[0].number} ($1,056.00): it can no longer be changed`;
    expect(refused.json()).toMatchObject({
      code: 'CONFLICT',
      message: `2 rows of the request cannot be recorded, so nothing was recorded. Row 2: ${settled}`,
      fieldErrors: { 'row 2': [settled], 'row 3': [settled] },
    });
    // Nothing of it was written: not the running period's day either.
    expect(await daysOf(c.cpm.id)).toEqual([
      [day(LAST, 1), 200_000, 400],
      [day(LAST, 2), 150_000, null],
      [day(LAST, 3), 70_000, null],
    ]);
    expect(await notesOf(c.id)).toHaveLength(1);
  });

  it('a period recorded by staff is settled at once; a push of other figures is then a 409', async () => {
    const c = await cpmContract();
    const put = await ctx.injectAs(rep, {
      method: 'PUT',
      url: `/api/contracts/${c.id}/delivery/${c.cpm.id}/${LAST}`,
      payload: { impressions: 450_000 },
    });
    // 50,000 short: 50 x $12.00 = $600.00 + 10% = $660.00, at once (the grace days are for pushed figures).
    expect(put.json()).toMatchObject({ status: 'settled', final: true, creditNote: { amount: 660 } });
    const refused = await push(rep, [{ contract: c.id, line: c.cpm.id, month: LAST, impressions: 460_000 }]);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().fieldErrors['row 1'][0]).toMatch(/is settled by credit note .* it can no longer be changed/);
    expect((await pushed(rep, [{ contract: c.id, line: c.cpm.id, month: LAST, impressions: 450_000 }])).changed).toBe(
      0,
    );
    expect(await notesOf(c.id)).toHaveLength(1);
  });

  it('the job makes a period final once its grace days have run out and settles it once', async () => {
    const short = await cpmContract();
    const full = await cpmContract();
    await pushed(rep, [
      { contract: short.id, line: short.cpm.id, date: day(LAST, 1), impressions: 300_000, clicks: 900 },
      { contract: short.id, line: short.cpm.id, date: day(LAST, 2), impressions: 150_000, clicks: 100 },
      { contract: full.id, line: full.cpm.id, month: LAST, impressions: 510_000 },
    ]);
    const deps = { db: ctx.db, mailer: ctx.app.mailer, baseUrl: 'http://localhost' };
    const lastOf = async (contractId: string) => (await list(contractId)).find((p) => p.month === LAST)!;

    // Grace days 31: the period ended LAST_END; on LAST_END + 31 the grace has not run out yet.
    await reconcileDelivery(deps, { asOf: addDays(LAST_END, 31) });
    expect(await lastOf(short.id)).toMatchObject({ status: 'reported', final: false });
    expect(await notesOf(short.id)).toEqual([]);

    // The day after: both final; the short one (450,000: 50 x $12.00 + 10% = $660.00) credited, once.
    await reconcileDelivery(deps, { asOf: addDays(LAST_END, 32) });
    expect(await lastOf(short.id)).toMatchObject({
      status: 'settled',
      final: true,
      remedy: 'credit',
      shortfall: 50_000,
      creditNote: { amount: 660 },
    });
    expect(await lastOf(full.id)).toMatchObject({ status: 'delivered', final: true, remedy: null });
    const again = await reconcileDelivery(deps, { asOf: addDays(LAST_END, 40) });
    expect(again).toEqual({ finalised: 0, settled: 0, credits: 0, makegoods: 0 });
    expect((await notesOf(short.id)).map((n) => n.amountCents)).toEqual([660_00]);
    expect(await notesOf(full.id)).toEqual([]);
    const [settledEvent] = await auditsOf(short.id, 'delivery.settled');
    expect(settledEvent).toMatchObject({ actorId: null, after: { remedy: 'credit', shortfall: 50_000 } });
    expect(await auditsOf(full.id, 'delivery.final')).toHaveLength(1);
  });

  it('a push past the grace days is final at once; the setting defaults to 3 days and is checked', async () => {
    await ctx.db.execute(sql`delete from app_settings where key = 'contracts'`);
    const get = async () => (await ctx.injectAs('admin', { method: 'GET', url: '/api/settings/contracts' })).json();
    expect((await get()).deliveryGraceDays).toBe(3);
    const save = (deliveryGraceDays: unknown) =>
      ctx.injectAs('admin', {
        method: 'PUT',
        url: '/api/settings/contracts',
        payload: { pausePaymentsAfterExpiry: true, gracePeriodsEndOfDays: 7, deliveryGraceDays },
      });
    for (const [value, message] of [
      [32, 'Delivery grace days cannot exceed 31 days'],
      [-1, 'Delivery grace days cannot be negative'],
      [1.5, 'Delivery grace days must be a whole number of days'],
    ] as const) {
      const refused = await save(value);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().fieldErrors.deliveryGraceDays).toEqual([message]);
    }
    expect((await save(0)).json().deliveryGraceDays).toBe(0);

    // No grace: LAST has ended, so its pushed figures are final: 480,000 is 20,000 short ($240.00 + 10%).
    const c = await cpmContract();
    const result = await pushed(rep, [{ contract: c.id, line: c.cpm.id, date: day(LAST, 1), impressions: 480_000 }]);
    expect(result.periods[0]).toMatchObject({ status: 'settled', final: true, creditNote: { amount: 264 } });
  });
});

describe('refusals', () => {
  it('rows the schema refuses are listed by row number, and nothing is written', async () => {
    const c = await cpmContract();
    const response = await push(rep, [
      { contract: c.id, line: c.cpm.id, date: day(LAST, 1), impressions: 1_000 },
      { contract: c.id, line: c.cpm.id, date: day(LAST, 2), impressions: -3 },
      { contract: c.id, line: c.cpm.id, date: day(LAST, 3), month: LAST, impressions: 1 },
      { contract: c.id, line: c.cpm.id, impressions: 1 },
      { contract: c.id, line: c.cpm.id, date: `${LAST}-32`, impressions: 1 },
      { contract: c.id, line: c.cpm.id, month: LAST, impressions: 12.5, clicks: 'many', final: 'yes' },
      { line: '', date: day(LAST, 4) },
    ]);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toEqual({
      code: 'VALIDATION',
      message:
        '6 rows of the request cannot be recorded, so nothing was recorded. Row 2: Impressions cannot be negative',
      fieldErrors: {
        'row 2': ['Impressions cannot be negative'],
        'row 3': ['Give either a date or a month, not both'],
        'row 4': ['Give the date (YYYY-MM-DD) of a daily figure or the month (YYYY-MM) of a period total'],
        'row 5': ['Date must be a calendar day (YYYY-MM-DD)'],
        'row 6': ['Impressions must be a whole number', 'Clicks must be a number', 'Final must be true or false'],
        'row 7': ['Contract is required', 'Line is required', 'Impressions is required'],
      },
    });
    for (const [payload, message] of [
      [{}, 'Rows must be a list of delivery rows'],
      [{ rows: [] }, 'Send at least one row'],
      [
        { rows: Array.from({ length: 10_001 }, () => ({ contract: 'x', line: 'y', month: LAST, impressions: 1 })) },
        'Send at most 10,000 rows at a time',
      ],
    ] as const) {
      const refused = await ctx.injectAs(rep, { method: 'POST', url: '/api/delivery', payload });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ code: 'VALIDATION', message });
    }
    expect(await daysOf(c.cpm.id)).toEqual([]);
    expect(await deliveryRows(c.id)).toEqual([]);
  });

  it("rows the contract's facts refuse are listed with the import's reasons: all or nothing", async () => {
    // Billed a month ahead too, so that tomorrow and next month are billed periods.
    const c = await cpmContract({ asOf: monthStart(1) });
    const next = monthStart(1);
    const tomorrow = addDays(TODAY, 1);
    const response = await push(rep, [
      { contract: c.id, line: c.cpm.id, date: day(LAST, 1), impressions: 1_000 },
      { contract: 'deadbeef', line: c.cpm.id, date: day(LAST, 1), impressions: 1 },
      { contract: c.id, line: 'Banner', date: day(LAST, 1), impressions: 1 },
      { contract: c.id, line: c.banner.id, date: day(LAST, 1), impressions: 1 },
      { contract: c.id, line: c.cpm.id, month: '2020-01', impressions: 1 },
      { contract: c.id, line: c.cpm.id, date: tomorrow, impressions: 1 },
      { contract: c.id, line: c.cpm.id, month: next.slice(0, 7), impressions: 1 },
      { contract: c.id, line: c.cpm.id, date: day(CURRENT, 1), impressions: 1, final: true },
      { contract: c.id, line: c.cpm.id, date: day(LAST, 1), impressions: 2_000 },
      { contract: c.id, line: c.cpm.id, month: LAST, impressions: 400_000 },
    ]);
    expect(response.statusCode, response.body).toBe(400);
    const currentEnd = addDays(monthStart(1), -1);
    expect(response.json().fieldErrors).toEqual({
      'row 2': ['Unknown contract deadbeef'],
      'row 3': [`Contract ${c.id} has no line Banner`],
      'row 4': [expect.stringMatching(/is not a CPM line: delivery is recorded for CPM lines only$/)],
      'row 5': ['The line was not billed for January 2020: there is no delivery to record for that month'],
      'row 6': [`The day ${tomorrow} has not come yet: delivery can be reported for days up to today (${TODAY})`],
      'row 7': [
        `The period ${next} to ${addDays(monthStart(2), -1)} has not started yet: its delivery can be reported from ${next}`,
      ],
      'row 8': [
        `The period ${monthStart(0)} to ${currentEnd} has not ended yet: its figures can be final from ${monthStart(1)}`,
      ],
      'row 9': [`Row 1 already gives ${c.cpmName} for ${day(LAST, 1)}`],
      'row 10': [
        `Row 1 gives daily figures of ${c.cpmName} for ${formatMonth(LAST)}: send either its daily figures or its total, not both`,
      ],
    });
    expect(response.json().message).toBe(
      '9 rows of the request cannot be recorded, so nothing was recorded. Row 2: Unknown contract deadbeef',
    );
    expect(await daysOf(c.cpm.id)).toEqual([]);
    expect(await deliveryRows(c.id)).toEqual([]);
    expect(await auditsOf(c.id, 'delivery.recorded')).toEqual([]);
  });
});

describe('who may push', () => {
  it("a rep pushes for their own contracts (another rep's reads as unknown), finance for any, a client none", async () => {
    const c = await cpmContract();
    const row = { contract: c.id, line: c.cpm.id, date: day(LAST, 1), impressions: 1_000 };
    expect((await pushed(rep, [row])).periods[0].delivered).toBe(1_000);

    const other = await push(otherRep, [{ ...row, impressions: 2_000 }]);
    expect(other.statusCode).toBe(400);
    expect(other.json().fieldErrors).toEqual({ 'row 1': [`Unknown contract ${c.id}`] });

    expect((await pushed('finance', [{ ...row, impressions: 3_000 }])).periods[0].delivered).toBe(3_000);
    expect((await pushed('sales_manager', [{ ...row, impressions: 4_000 }])).periods[0].delivered).toBe(4_000);

    const client = await ctx.signIn(await createTestUser(ctx.db, { role: 'client', customerId: c.customerId }));
    const refused = await push(client, [{ ...row, impressions: 5_000 }]);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('FORBIDDEN');
    expect((await ctx.app.inject({ method: 'POST', url: '/api/delivery', payload: { rows: [row] } })).statusCode).toBe(
      401,
    );
    expect(await daysOf(c.cpm.id)).toEqual([[day(LAST, 1), 4_000, null]]);
  });

  it('the ad server pushes with a delivery key: the settlement names the key; a retry with its Idempotency-Key replays', async () => {
    const c = await cpmContract();
    const made = await ctx.injectAs('admin', {
      method: 'POST',
      url: '/api/api-keys',
      payload: { name: 'Ad server', scope: 'delivery' },
    });
    const { id: keyId, secret } = made.json() as { id: string; secret: string };
    const send = () =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/delivery',
        headers: { authorization: `Bearer ${secret}`, 'idempotency-key': `push-${c.id}` },
        payload: { rows: [{ contract: c.id, line: c.cpmName, month: LAST, impressions: 450_000, final: true }] },
      });
    const first = await send();
    expect(first.statusCode, first.body).toBe(200);
    // 450,000 of 500,000: 50 x $12.00 = $600.00, plus 10% tax = $660.00.
    expect(first.json().periods[0]).toMatchObject({ status: 'settled', creditNote: { amount: 660 } });
    const again = await send();
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
    expect(await notesOf(c.id)).toHaveLength(1);
    const [settled] = await auditsOf(c.id, 'delivery.settled');
    expect(settled.apiKeyId).toBe(keyId);
    // The key records delivery and nothing else.
    const read = await ctx.app.inject({
      method: 'GET',
      url: `/api/contracts/${c.id}/delivery`,
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(read.statusCode).toBe(403);
  });
});

onlyOn('postgres', 'requests really run in parallel there')('two identical final pushes at once', () => {
  it('settle the period once: one credit note, one settlement in the audit trail', async () => {
    const made = await Promise.all([cpmContract(), cpmContract(), cpmContract()]);
    const rows = made.flatMap((c) => [
      { contract: c.id, line: c.cpm.id, date: day(LAST, 1), impressions: 250_000, clicks: 500 },
      { contract: c.id, line: c.cpm.id, date: day(LAST, 2), impressions: 150_000, final: true },
    ]);
    const responses = await Promise.all([push('admin', rows), push(rep, rows), push('finance', rows)]);
    for (const response of responses) expect(response.statusCode, response.body).toBe(200);
    // Each contract's period: 400,000 of 500,000, 100 x $12.00 = $1,200.00 + 10% = $1,320.00, once.
    const ids = made.map((c) => c.id);
    const notes = await ctx.db.select().from(creditNotes).where(inArray(creditNotes.contractId, ids));
    expect(notes.map((n) => n.amountCents)).toEqual([1_320_00, 1_320_00, 1_320_00]);
    expect(new Set(notes.map((n) => n.contractId))).toEqual(new Set(ids));
    const settled = await ctx.db
      .select()
      .from(auditEvents)
      .where(and(inArray(auditEvents.entityId, ids), eq(auditEvents.action, 'delivery.settled')));
    expect(settled).toHaveLength(3);
    expect(responses.reduce((sum, r) => sum + r.json().credits, 0)).toBe(3);
    for (const c of made) {
      expect(await daysOf(c.cpm.id)).toEqual([
        [day(LAST, 1), 250_000, 500],
        [day(LAST, 2), 150_000, null],
      ]);
    }
  });
});
