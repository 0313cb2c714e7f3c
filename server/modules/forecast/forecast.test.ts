import type { PipelineSettings } from '@shared/contracts/deals';
import type { Forecast } from '@shared/contracts/forecast';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestContext } from '../../test/app';
import { createBillableContract } from '../../test/billing-factories';
import { createTestCustomer } from '../../test/catalog-factories';
import { createTestUser, type TestUser } from '../../test/factories';
import { getForecast } from './forecast.service';

/**
 * The forecast against a table worked by hand (product.md section 19): booked from a contract's schedule, the
 * pipeline spread over flight days and weighted, the best case, a target and its attainment, a rep's scope.
 */
let ctx: TestContext;
let rep: TestUser & { token: string };
let settings: PipelineSettings;

beforeAll(async () => {
  ctx = await buildTestApp();
  rep = await ctx.signIn(await createTestUser(ctx.db, { role: 'sales', firstName: 'Rita', lastName: 'Forecast' }));
  settings = (await ctx.injectAs(rep, { method: 'GET', url: '/api/settings/pipeline' })).json();
  const stage = (name: string) => settings.stages.find((s) => s.name === name)!.id;
  const { id: customerId } = await createTestCustomer(ctx.db, { name: 'Lakeside Honda' });

  // Booked: active from Jan 1, 2027 for 3 months, $1,000.00 a month and a $100.00 setup fee on the first invoice.
  await createBillableContract(ctx.db, {
    startDate: '2027-01-01',
    termMonths: 3,
    salesRepId: rep.id,
    setupFeeCents: 100_00,
    lines: [{ unitPriceCents: 1000_00 }],
  });
  // A draft bills nothing booked.
  await createBillableContract(ctx.db, {
    startDate: '2027-01-01',
    status: 'draft',
    salesRepId: rep.id,
    lines: [{ unitPriceCents: 9_999_00 }],
  });

  const deal = async (fields: Record<string, unknown>) => {
    const response = await ctx.injectAs(rep, {
      method: 'POST',
      url: '/api/deals',
      payload: { customerId, title: 'Deal', ...fields },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as { id: string };
  };
  // Qualified (25%): $2,200.00 over Jan 20 - Feb 10 (12 + 10 days): $1,200.00 / $1,000.00; weighted $550.00: $300.00 / $250.00.
  await deal({ amount: 2200, stageId: stage('Qualified'), flightStart: '2027-01-20', flightEnd: '2027-02-10' });
  // Lead (10%) with only a close date: $100.00 in March, weighted $10.00.
  await deal({ amount: 100, expectedCloseDate: '2027-03-15' });
  // Lost: out of the pipeline.
  const lost = await deal({ amount: 50_000, flightStart: '2027-01-01', flightEnd: '2027-03-31' });
  expect(
    (await ctx.injectAs(rep, { method: 'POST', url: `/api/deals/${lost.id}/lose`, payload: { reason: 'Budget' } }))
      .statusCode,
  ).toBe(200);
  // Landing after the window: out.
  await deal({ amount: 7_000, expectedCloseDate: '2027-06-01' });

  const targets = await ctx.injectAs('sales_manager', {
    method: 'PUT',
    url: '/api/forecast/targets',
    payload: { targets: [{ ownerId: rep.id, month: '2027-02', amount: 4000 }] },
  });
  expect(targets.statusCode, targets.body).toBe(200);
});
afterAll(() => ctx.close());

describe('the forecast', () => {
  it('gives each month booked, weighted, best case, target and attainment, as worked by hand', async () => {
    const forecast = await getForecast(ctx.db, rep, { months: 4 }, '2027-01-05');
    expect(forecast.months).toEqual(['2027-01', '2027-02', '2027-03', '2027-04']);
    expect(forecast.rows.map((row) => row.ownerName)).toEqual(['Rita Forecast']);
    expect(
      forecast.rows[0].months.map((m) => [m.month, m.booked, m.weighted, m.bestCase, m.target, m.attainment]),
    ).toEqual([
      ['2027-01', 1100, 300, 2300, null, null],
      ['2027-02', 1000, 250, 2000, 4000, 25],
      ['2027-03', 1000, 10, 1100, null, null],
      ['2027-04', 0, 0, 0, null, null],
    ]);
  });

  it('shows a manager every rep and the totals; a rep only their own row whatever ownerId says', async () => {
    const manager = await ctx.as('sales_manager');
    const all = await getForecast(ctx.db, manager, { months: 2 }, '2027-01-05');
    const rita = all.rows.find((row) => row.ownerId === rep.id)!;
    expect(rita.months[0].booked).toBe(1100);
    expect(all.totals.map((m) => m.booked)).toEqual([1100, 1000]);

    const other = await ctx.as('sales');
    const own: Forecast = (await ctx.injectAs(other, { method: 'GET', url: `/api/forecast?ownerId=${rep.id}` })).json();
    expect(own.rows.map((row) => row.ownerId)).toEqual([other.id]);
  });

  it('exports CSV, refuses bad input and targets from reps', async () => {
    const csv = await ctx.injectAs('sales_manager', {
      method: 'GET',
      url: `/api/forecast/export?months=1&ownerId=${rep.id}`,
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.body.split('\n')[0]).toBe('Rep,Month,Booked,Weighted pipeline,Best case,Target,Attainment %');

    const months = await ctx.injectAs('sales_manager', { method: 'GET', url: '/api/forecast?months=25' });
    expect(months.statusCode).toBe(400);
    expect(months.json().message).toBe('months must be a whole number from 1 to 24');
    const byRep = await ctx.injectAs(rep, {
      method: 'PUT',
      url: '/api/forecast/targets',
      payload: { targets: [{ ownerId: rep.id, month: '2027-02', amount: 1 }] },
    });
    expect(byRep.statusCode).toBe(403);
    const finance = await ctx.as('finance');
    const notRep = await ctx.injectAs('sales_manager', {
      method: 'PUT',
      url: '/api/forecast/targets',
      payload: { targets: [{ ownerId: finance.id, month: '2027-13', amount: -1 }] },
    });
    expect(notRep.statusCode).toBe(400);
    expect(Object.keys(notRep.json().fieldErrors).sort()).toEqual(['targets.0.amount', 'targets.0.month']);
  });

  it('removes a target given as null and leaves the others', async () => {
    const put = (targets: unknown[]) =>
      ctx.injectAs('sales_manager', { method: 'PUT', url: '/api/forecast/targets', payload: { targets } });
    expect((await put([{ ownerId: rep.id, month: '2027-03', amount: 3000 }])).statusCode).toBe(200);
    const before = await getForecast(ctx.db, rep, { months: 3 }, '2027-01-05');
    expect(before.rows[0].months.map((m) => m.target)).toEqual([null, 4000, 3000]);

    const removed = await put([{ ownerId: rep.id, month: '2027-03', amount: null }]);
    expect(removed.statusCode, removed.body).toBe(200);
    const after = await getForecast(ctx.db, rep, { months: 3 }, '2027-01-05');
    expect(after.rows[0].months.map((m) => [m.target, m.attainment])).toEqual([
      [null, null],
      [4000, 25],
      [null, null],
    ]);
  });
});
