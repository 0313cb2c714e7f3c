import { reportRangeDates } from '@shared/contracts/reports';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contracts } from '../../db/schema';
import { buildTestApp, type TestContext } from '../../test/app';
import { createTestCustomer, createTestProduct } from '../../test/catalog-factories';
import { createTestUser, type TestUser } from '../../test/factories';

/**
 * The report's renewal rate (product.md section 15) against a table of contracts written out by hand: one-month
 * terms of one monthly line (no in-season price, no setup fee), so each term value is its line's price.
 */
let ctx: TestContext;
let productId: string;
let customerId: string;
let alice: TestUser & { token: string };
let bob: TestUser & { token: string };

/** The last month (the report's range last_month): its first day. */
const lastMonth = reportRangeDates('last_month', new Date()).from;
/** A day of the last month (1-28). */
const dayOfLastMonth = (day: number) => `${lastMonth.slice(0, 8)}${String(day).padStart(2, '0')}`;
/** The same day a month before (the start of a one-month term ending on `date`). */
const monthBefore = (date: string) => {
  const [y, m, d] = date.split('-').map(Number);
  const index = y * 12 + m - 2;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
};
const monthAfter = (date: string) => {
  const [y, m, d] = date.split('-').map(Number);
  const index = y * 12 + m;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
};

beforeAll(async () => {
  ctx = await buildTestApp();
  productId = (await createTestProduct(ctx.db, { seasonalPriceCents: null })).id;
  customerId = (await createTestCustomer(ctx.db, { name: 'Harbor Books' })).id;
  alice = await ctx.signIn(await createTestUser(ctx.db, { role: 'sales', firstName: 'Alice', lastName: 'Archer' }));
  bob = await ctx.signIn(await createTestUser(ctx.db, { role: 'sales', firstName: 'Bob', lastName: 'Baker' }));
});
afterAll(() => ctx.close());

async function contract(rep: TestUser, stop: string, price: number, extra: Record<string, unknown> = {}) {
  const response = await ctx.injectAs('admin', {
    method: 'POST',
    url: '/api/contracts',
    payload: {
      customerId,
      salesRepId: rep.id,
      startDate: monthBefore(stop),
      termMonths: 1,
      setupFee: 0,
      paymentMode: 'portal',
      packageId: null,
      makeActive: true,
      lineItems: [{ productId, quantity: 1, unitPrice: price, discount: 0 }],
      ...extra,
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: string; autoStopDate: string };
}

async function renew(id: string, activate: boolean) {
  const renewed = await ctx.injectAs('admin', { method: 'POST', url: `/api/contracts/${id}/renew` });
  expect(renewed.statusCode, renewed.body).toBe(201);
  if (activate) {
    const active = await ctx.injectAs('admin', { method: 'POST', url: `/api/contracts/${renewed.json().id}/activate` });
    expect(active.statusCode, active.body).toBe(200);
  }
}

describe('the renewal rate in GET /api/reports', () => {
  it('counts the contracts ended in the range and their counting renewals, by count and value, by rep', async () => {
    // | contract | rep   | ends            | status    | value | renewal            | counts as           |
    // | c1       | Alice | last month, 3rd | active    | 100   | activated          | ended, renewed 100  |
    // | c2       | Alice | last month, 8th | completed | 300   | none               | ended               |
    // | c3       | Bob   | last month, 12th| active    | 200   | draft              | ended               |
    // | c4       | Bob   | last month, 20th| paused    | 50    | activated          | ended, renewed 50   |
    // | c5       | Alice | last month, 25th| canceled before its end | 1000 | none | nothing         |
    // | c6       | Alice | next month, 5th | active    | 70    | none               | nothing (not ended) |
    // | c7       | Bob   | last month, 15th| draft     | 90    | none               | nothing             |
    const c1 = await contract(alice, dayOfLastMonth(3), 100);
    const c2 = await contract(alice, dayOfLastMonth(8), 300);
    const c3 = await contract(bob, dayOfLastMonth(12), 200);
    const c4 = await contract(bob, dayOfLastMonth(20), 50);
    const c5 = await contract(alice, dayOfLastMonth(25), 1000);
    await contract(alice, monthAfter(monthAfter(dayOfLastMonth(5))), 70);
    await contract(bob, dayOfLastMonth(15), 90, { makeActive: false });
    await renew(c1.id, true);
    await renew(c3.id, false);
    await renew(c4.id, true);
    await ctx.db.update(contracts).set({ status: 'paused', pauseReason: 'manual' }).where(eq(contracts.id, c4.id));
    // Each contract stores its term value with its monthly figures...
    const [stored] = await ctx.db
      .select({ termValueCents: contracts.termValueCents })
      .from(contracts)
      .where(eq(contracts.id, c1.id));
    expect(stored.termValueCents).toBe(100_00);
    // ...but one saved before that was kept has none, and c4's renewal neither: the engine values them.
    await ctx.db.update(contracts).set({ termValueCents: null }).where(eq(contracts.id, c2.id));
    await ctx.db.update(contracts).set({ termValueCents: null }).where(eq(contracts.renewalOfId, c4.id));
    await ctx.db.update(contracts).set({ status: 'completed' }).where(eq(contracts.id, c2.id));
    await ctx.db
      .update(contracts)
      .set({ status: 'canceled', canceledAt: new Date(`${dayOfLastMonth(10)}T12:00:00Z`), cancelReason: 'Closed' })
      .where(eq(contracts.id, c5.id));

    const report = await ctx.injectAs('sales_manager', { method: 'GET', url: '/api/reports?range=last_month' });
    expect(report.statusCode, report.body).toBe(200);
    expect(report.json().renewals).toEqual({
      endedCount: 4,
      endedValue: 650,
      renewedCount: 2,
      renewedValue: 150,
      countRate: 50,
      valueRate: 23.1,
      byRep: [
        {
          salesRepId: alice.id,
          salesRepName: 'Alice Archer',
          endedCount: 2,
          endedValue: 400,
          renewedCount: 1,
          renewedValue: 100,
          countRate: 50,
          valueRate: 25,
        },
        {
          salesRepId: bob.id,
          salesRepName: 'Bob Baker',
          endedCount: 2,
          endedValue: 250,
          renewedCount: 1,
          renewedValue: 50,
          countRate: 50,
          valueRate: 20,
        },
      ],
    });

    // A rep sees their own figures, without the by-rep table.
    const own = await ctx.injectAs(bob, { method: 'GET', url: '/api/reports?range=last_month' });
    expect(own.json().renewals).toEqual({
      endedCount: 2,
      endedValue: 250,
      renewedCount: 1,
      renewedValue: 50,
      countRate: 50,
      valueRate: 20,
      byRep: [],
    });

    // The export carries the same figures.
    const csv = (await ctx.injectAs('admin', { method: 'GET', url: '/api/reports/export?range=last_month' })).body;
    expect(csv).toContain('Renewals,Contracts ended,4\r\n');
    expect(csv).toContain('Renewals,Renewal rate by value (%),23.1\r\n');
    expect(csv).toContain('Renewals by rep,Alice Archer: Value renewed,100.00\r\n');
  });

  it('has no rate when nothing ended in the range', async () => {
    const newcomer = await ctx.signIn(await createTestUser(ctx.db, { role: 'sales' }));
    const report = await ctx.injectAs(newcomer, { method: 'GET', url: '/api/reports?range=last_month' });
    expect(report.json().renewals).toEqual({
      endedCount: 0,
      endedValue: 0,
      renewedCount: 0,
      renewedValue: 0,
      countRate: null,
      valueRate: null,
      byRep: [],
    });
  });
});
