import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../lib/db-rows';
import { buildTestApp, type TestContext } from '../../test/app';
import { createBillableContract } from '../../test/billing-factories';
import { createTestCustomer, createTestProduct } from '../../test/catalog-factories';
import { onlyOn } from '../../test/engine';
import { createTestUser, type TestUser } from '../../test/factories';
import { refreshForecastMonths } from './forecast.months';
import { getForecast } from './forecast.service';

/**
 * The booked months the forecast stores (decision 059) follow every change their schedule depends on, whatever
 * path makes it: the product's routes, or any other writer of the tables (the triggers of migration 0045 mark
 * the reps concerned). Each expectation is worked by hand from the contracts below, in dollars per month.
 */
let ctx: TestContext;
let ann: TestUser;
let ben: TestUser;
let manager: TestUser;
let annContract: { id: string };
let benSent: { id: string };

beforeAll(async () => {
  ctx = await buildTestApp();
  ann = await createTestUser(ctx.db, { role: 'sales', firstName: 'Ann', lastName: 'Booked' });
  ben = await createTestUser(ctx.db, { role: 'sales', firstName: 'Ben', lastName: 'Booked' });
  manager = await ctx.as('sales_manager');
  // Ann: active from Jan 1, 2027, $1,000.00 a month, no end.
  ({ contract: annContract } = await createBillableContract(ctx.db, {
    startDate: '2027-01-01',
    termMonths: null,
    salesRepId: ann.id,
    lines: [{ unitPriceCents: 1000_00 }],
  }));

  // Ben: sent, not signed: nothing booked yet; $300.00 a month.
  ({ contract: benSent } = await createBillableContract(ctx.db, {
    startDate: '2027-01-01',
    termMonths: null,
    status: 'sent',
    salesRepId: ben.id,
    lines: [{ unitPriceCents: 300_00 }],
  }));

  // Ben: active since Oct 1, 2026 for 5 months (to Feb 28, 2027), $200.00 a month.
  await createBillableContract(ctx.db, {
    startDate: '2026-10-01',
    termMonths: 5,
    salesRepId: ben.id,
    lines: [{ unitPriceCents: 200_00 }],
  });
});
afterAll(() => ctx.close());

/** Booked dollars of Jan, Feb and Mar 2027 (or the three months from `today`), by rep. */
async function booked(today = '2027-01-05') {
  const forecast = await getForecast(ctx.db, manager, { months: 3 }, today);
  const of = (user: TestUser) =>
    forecast.rows.find((row) => row.ownerId === user.id)?.months.map((m) => m.booked) ?? [0, 0, 0];
  return { ann: of(ann), ben: of(ben) };
}

describe('the booked months', () => {
  it('are computed once, then read until something changes', async () => {
    expect(await booked()).toEqual({ ann: [1000, 1000, 1000], ben: [200, 200, 0] });
    expect(await refreshForecastMonths(ctx.db, '2027-01')).toBe('none');
  });

  it('follow a line written by any writer, for that rep only', async () => {
    const product = await createTestProduct(ctx.db, { name: 'Sidebar', defaultPriceCents: 250_00 });
    await ctx.db.execute(sql`
      insert into contract_line_items (contract_id, product_id, quantity, unit_price_cents, line_total_cents, flight_start)
      values (${annContract.id}, ${product.id}, 1, 25000, 25000, '2027-02-01')`);
    expect(await refreshForecastMonths(ctx.db, '2027-01')).toBe(1);
    expect(await booked()).toEqual({ ann: [1000, 1250, 1250], ben: [200, 200, 0] });
  });

  it('follow a contract signed, moved to another rep and canceled', async () => {
    await ctx.db.execute(sql`update contracts set status = 'active' where id = ${benSent.id}`);
    expect(await booked()).toEqual({ ann: [1000, 1250, 1250], ben: [500, 500, 300] });

    await ctx.db.execute(sql`update contracts set sales_rep_id = ${ann.id} where id = ${benSent.id}`);
    // One contract recomputed: its months leave Ben's sums and join Ann's.
    expect(await refreshForecastMonths(ctx.db, '2027-01')).toBe(1);
    expect(await booked()).toEqual({ ann: [1300, 1550, 1550], ben: [200, 200, 0] });

    const canceled = await ctx.injectAs('admin', {
      method: 'POST',
      url: `/api/contracts/${annContract.id}/cancel`,
      payload: { reason: 'Budget cut' },
    });
    expect(canceled.statusCode, canceled.body).toBe(200);
    expect(await booked()).toEqual({ ann: [300, 300, 300], ben: [200, 200, 0] });
  });

  it('follow the deals: one opened, moved to another stage, then lost', async () => {
    const settings = (await ctx.injectAs('admin', { method: 'GET', url: '/api/settings/pipeline' })).json();
    const stage = (name: string) => settings.stages.find((s: { name: string }) => s.name === name).id;
    const { id: customerId } = await createTestCustomer(ctx.db, { name: 'Harbor Bakery' });
    // $3,100.00 over Jan 21 - Feb 10 (11 + 10 days): $1,623.81 / $1,476.19 by days.
    const opened = await ctx.injectAs('sales_manager', {
      method: 'POST',
      url: '/api/deals',
      payload: {
        customerId,
        title: 'Winter banners',
        ownerId: ann.id,
        amount: 3100,
        stageId: stage('Qualified'),
        flightStart: '2027-01-21',
        flightEnd: '2027-02-10',
      },
    });
    expect(opened.statusCode, opened.body).toBe(201);
    const pipeline = async () => {
      const forecast = await getForecast(ctx.db, manager, { months: 3 }, '2027-01-05');
      const row = forecast.rows.find((r) => r.ownerId === ann.id)!;
      return row.months.map((m) => [m.weighted, m.bestCase - m.booked]);
    };
    // Qualified, 25%: $775.00 weighted, $405.95 / $369.05 (the cent left over to the larger remainder).
    expect(await pipeline()).toEqual([
      [405.95, 1623.81],
      [369.05, 1476.19],
      [0, 0],
    ]);
    const moved = await ctx.injectAs('sales_manager', {
      method: 'POST',
      url: `/api/deals/${opened.json().id}/move`,
      payload: { stageId: stage('Proposal'), version: opened.json().version },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    // Proposal, 50%: $1,550.00 weighted, $811.90 / $738.10.
    expect(await pipeline()).toEqual([
      [811.9, 1623.81],
      [738.1, 1476.19],
      [0, 0],
    ]);
    const lost = await ctx.injectAs('sales_manager', {
      method: 'POST',
      url: `/api/deals/${opened.json().id}/lose`,
      payload: { reason: 'Budget', version: moved.json().version },
    });
    expect(lost.statusCode, lost.body).toBe(200);
    expect(await pipeline()).toEqual([
      [0, 0],
      [0, 0],
      [0, 0],
    ]);
  });

  it('follow the contract settings: billing on after the term end books March too', async () => {
    const current = (await ctx.injectAs('admin', { method: 'GET', url: '/api/settings/contracts' })).json();
    const saved = await ctx.injectAs('admin', {
      method: 'PUT',
      url: '/api/settings/contracts',
      payload: { ...current, pausePaymentsAfterExpiry: false },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await refreshForecastMonths(ctx.db, '2027-01')).toBe('everything');
    expect(await booked()).toEqual({ ann: [300, 300, 300], ben: [200, 200, 200] });
  });

  it('start again at the month of the forecast asked for', async () => {
    // Ben's term contract ended Feb 28: from March on it is no longer booked at all.
    expect(await booked('2027-03-02')).toEqual({ ann: [300, 300, 300], ben: [0, 0, 0] });
    expect(await refreshForecastMonths(ctx.db, '2027-03')).toBe('none');
  });
});

onlyOn('postgres', 'forecasts really run in parallel there, on several connections')(
  'forecasts asked at once after a change',
  () => {
    it('refresh the rows once and all answer the same figures', async () => {
      await ctx.db.execute(
        sql`update contract_line_items set unit_price_cents = 40000 where contract_id = ${benSent.id}`,
      );
      const answers = await Promise.all(Array.from({ length: 6 }, () => booked('2027-03-02')));
      expect(answers).toEqual(Array.from({ length: 6 }, () => ({ ann: [400, 400, 400], ben: [0, 0, 0] })));
      // Stored once: a row per month of the 24 kept, whatever the number of forecasts that refreshed them.
      const stored = await ctx.db.execute(sql`
        select count(*)::int as n from forecast_months where rep_id = ${ann.id}`);
      expect(rowsOf(stored)).toEqual([{ n: 24 }]);
    });
  },
);
