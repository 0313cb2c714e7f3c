import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../config';
import { auditEvents, invoices } from '../db/schema';
import { runBilling } from '../modules/billing/billing-run';
import { buildTestApp, type TestContext } from '../test/app';
import { createBillableContract } from '../test/billing-factories';
import { createContractFor, createInvoice, createRep, payInvoice } from '../test/commission-factories';
import { businessToday, getBusinessTimeZone, setBusinessTimeZone } from './business-day';

/**
 * The business's "today" (BUSINESS_TIMEZONE): the calendar day on the wall clocks of its zone, around
 * midnight and across daylight-saving changes. Expected days are written out by hand.
 */
const DAYS: [zone: string, instant: string, day: string][] = [
  ['UTC', '2026-11-26T23:59:59Z', '2026-11-26'],
  ['UTC', '2026-11-27T00:00:00Z', '2026-11-27'],
  // New York in winter (UTC-5): its midnight is 05:00 UTC.
  ['America/New_York', '2026-11-27T04:59:59Z', '2026-11-26'],
  ['America/New_York', '2026-11-27T05:00:00Z', '2026-11-27'],
  // Spring forward on 2026-03-08 (02:00 EST -> 03:00 EDT): the day before ends at 05:00 UTC, the day itself
  // (23 hours long) at 04:00 UTC.
  ['America/New_York', '2026-03-08T04:59:59Z', '2026-03-07'],
  ['America/New_York', '2026-03-08T05:00:00Z', '2026-03-08'],
  ['America/New_York', '2026-03-08T07:00:00Z', '2026-03-08'],
  ['America/New_York', '2026-03-09T03:59:59Z', '2026-03-08'],
  ['America/New_York', '2026-03-09T04:00:00Z', '2026-03-09'],
  // Fall back on 2026-11-01 (02:00 EDT -> 01:00 EST): the day starts at 04:00 UTC and lasts 25 hours.
  ['America/New_York', '2026-11-01T03:59:59Z', '2026-10-31'],
  ['America/New_York', '2026-11-01T04:00:00Z', '2026-11-01'],
  ['America/New_York', '2026-11-01T06:30:00Z', '2026-11-01'],
  ['America/New_York', '2026-11-02T04:59:59Z', '2026-11-01'],
  ['America/New_York', '2026-11-02T05:00:00Z', '2026-11-02'],
  // Europe ends summer time on 2026-10-25 (03:00 CEST -> 02:00 CET).
  ['Europe/Berlin', '2026-10-24T21:59:59Z', '2026-10-24'],
  ['Europe/Berlin', '2026-10-24T22:00:00Z', '2026-10-25'],
  ['Europe/Berlin', '2026-10-25T22:59:59Z', '2026-10-25'],
  ['Europe/Berlin', '2026-10-25T23:00:00Z', '2026-10-26'],
  // Half-hour offsets, and a zone ahead of UTC whose day starts the evening before.
  ['Asia/Kolkata', '2026-11-26T18:29:59Z', '2026-11-26'],
  ['Asia/Kolkata', '2026-11-26T18:30:00Z', '2026-11-27'],
  ['Pacific/Auckland', '2026-11-26T10:59:59Z', '2026-11-26'],
  ['Pacific/Auckland', '2026-11-26T11:00:00Z', '2026-11-27'],
  // The last day of a year and a leap day.
  ['America/Los_Angeles', '2027-01-01T07:59:59Z', '2026-12-31'],
  ['America/Los_Angeles', '2028-03-01T07:59:59Z', '2028-02-29'],
];

describe("the business's today", () => {
  afterEach(() => setBusinessTimeZone('UTC'));

  it.each(DAYS)('in %s at %s is %s', (zone, instant, day) => {
    setBusinessTimeZone(zone);
    expect(businessToday(new Date(instant))).toBe(day);
  });

  it('is UTC by default; BUSINESS_TIMEZONE accepts IANA zones and refuses anything else', () => {
    expect(getBusinessTimeZone()).toBe('UTC');
    expect(loadConfig({}).BUSINESS_TIMEZONE).toBe('UTC');
    expect(loadConfig({ BUSINESS_TIMEZONE: 'America/New_York' }).BUSINESS_TIMEZONE).toBe('America/New_York');
    for (const bad of ['Mars/Olympus', 'EST5EDT6', 'America/New York', '+05:00']) {
      expect(() => loadConfig({ BUSINESS_TIMEZONE: bad }), bad).toThrow(
        'BUSINESS_TIMEZONE: BUSINESS_TIMEZONE must be an IANA time zone such as UTC or America/New_York',
      );
    }
  });
});

describe('the billing run on the business day', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await buildTestApp({ config: { BUSINESS_TIMEZONE: 'America/New_York' } });
  });
  afterAll(async () => {
    vi.useRealTimers();
    setBusinessTimeZone('UTC');
    await ctx.close();
  });

  it("bills a contract starting tomorrow in UTC only once that day has begun in the business's zone", async () => {
    // 2026-11-27 03:00 UTC is still 2026-11-26 (22:00) in New York: the contract starting on the 27th waits.
    const { contract } = await createBillableContract(ctx.db, {
      startDate: '2026-11-27',
      lines: [{ unitPriceCents: 500_00 }],
    });
    const billOn = async (instant: string) => {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(new Date(instant));
      try {
        return await runBilling(ctx.db, { contractId: contract.id });
      } finally {
        vi.useRealTimers();
      }
    };
    const periods = async () =>
      (await ctx.db.select().from(invoices).where(eq(invoices.contractId, contract.id))).map((i) => i.periodStart);

    expect((await billOn('2026-11-27T03:00:00Z')).asOf).toBe('2026-11-26');
    expect(await periods()).toEqual([]);
    // 05:00 UTC is midnight in New York: the 27th has begun there.
    expect((await billOn('2026-11-27T05:00:00Z')).asOf).toBe('2026-11-27');
    expect(await periods()).toEqual(['2026-11-27']);
  });
});

describe("reports, exports and filters on the business's day", () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await buildTestApp({ config: { BUSINESS_TIMEZONE: 'America/New_York' } });
    // Signed in on the real clock: a session made on a moved clock would look idle on the real one.
    await ctx.as('admin');
    await ctx.as('finance');
  });
  afterAll(async () => {
    vi.useRealTimers();
    setBusinessTimeZone('UTC');
    await ctx.close();
  });

  // 2026-11-27 04:30 UTC is 23:30 on 2026-11-26 in New York; 05:00 UTC is its midnight.
  const LATE_EVENING = '2026-11-27T04:30:00Z';
  const MIDNIGHT = '2026-11-27T05:00:00Z';

  /** Does `work` with the clock (Date only) at `instant`. */
  async function at<T>(instant: string, work: () => Promise<T>): Promise<T> {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(instant));
    try {
      return await work();
    } finally {
      vi.useRealTimers();
    }
  }

  it('counts overdue invoices and contracts ending within 30 days from the business day', async () => {
    const { contract } = await createContractFor(ctx.db, null);
    for (const dueDate of ['2026-11-25', '2026-11-26']) {
      const invoice = await createInvoice(ctx.db, contract.id, { subtotalCents: 100_00 });
      await ctx.db.update(invoices).set({ dueDate }).where(eq(invoices.id, invoice.id));
    }
    // Its term ends on 2026-11-26: still within the next 30 days on the 26th, no longer on the 27th.
    await createBillableContract(ctx.db, { startDate: '2026-10-26', termMonths: 1 });
    const alerts = (instant: string) =>
      at(instant, async () => {
        const response = await ctx.injectAs('admin', { method: 'GET', url: '/api/reports' });
        expect(response.statusCode, response.body).toBe(200);
        return response.json().alerts;
      });
    // At 23:30 the invoice due on the 26th is not overdue yet (the UTC day, the 27th, would say it is).
    expect(await alerts(LATE_EVENING)).toMatchObject({ overdueInvoices: 1, expiringContracts: 1 });
    expect(await alerts(MIDNIGHT)).toMatchObject({ overdueInvoices: 2, expiringContracts: 0 });
  });

  it("names the commissions export and dates its rows by the business's day", async () => {
    const rep = await createRep(ctx);
    const { contract } = await createContractFor(ctx.db, rep.id);
    const invoice = await createInvoice(ctx.db, contract.id, { subtotalCents: 200_00 });
    const exportAt = (instant: string) =>
      at(instant, () => ctx.injectAs(rep, { method: 'GET', url: '/api/commissions/export' }));
    const lateEvening = await at(LATE_EVENING, async () => {
      expect((await payInvoice(ctx, invoice.id)).statusCode).toBe(201);
      return exportAt(LATE_EVENING);
    });
    expect(lateEvening.headers['content-disposition']).toBe('attachment; filename="commissions-all-2026-11-26.csv"');
    expect(lateEvening.body.split('\r\n')[1]).toMatch(/^2026-11-26,/);
    const nextDay = await exportAt(MIDNIGHT);
    expect(nextDay.headers['content-disposition']).toBe('attachment; filename="commissions-all-2026-11-27.csv"');
    // Earned at 23:30 on the 26th, whenever it is exported.
    expect(nextDay.body.split('\r\n')[1]).toMatch(/^2026-11-26,/);
  });

  it("filters the audit trail by the business's days", async () => {
    const [event] = await ctx.db
      .insert(auditEvents)
      .values({
        action: 'contract.updated',
        entity: 'contract',
        entityId: 'late-evening',
        createdAt: new Date(LATE_EVENING),
      })
      .returning();
    const on = async (day: string) => {
      const response = await ctx.injectAs('admin', {
        method: 'GET',
        url: `/api/audit?entityId=late-evening&from=${day}&to=${day}`,
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json().map((e: { id: number }) => e.id);
    };
    expect(await on('2026-11-26')).toEqual([event.id]);
    expect(await on('2026-11-27')).toEqual([]);
  });

  it("opens the Inventory screen on the business's current month and the two after it", async () => {
    // 2026-01-01 04:30 UTC is still New Year's Eve 2025 in New York: December to February.
    const range = await at('2026-01-01T04:30:00Z', () =>
      ctx.injectAs('admin', { method: 'GET', url: '/api/inventory' }),
    );
    expect(range.statusCode, range.body).toBe(200);
    expect(range.json()).toMatchObject({ from: '2025-12-01', to: '2026-02-28' });
  });
});
