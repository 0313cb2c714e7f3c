import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestContext } from '../../test/app';
import { createTestCustomer } from '../../test/catalog-factories';

// The contract list counts matching rows only up to 10,000 past the page's start: beyond that the total is
// a lower bound, said so by X-Total-Count-Lower-Bound. 10,050 contracts, 35 of them "Harbor ..." ones.
let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
  const admin = await ctx.as('admin');
  const customer = await createTestCustomer(ctx.db);
  await ctx.db.execute(sql`
    insert into contracts (customer_id, sales_rep_id, description, status, start_date, payment_mode,
                           monthly_amount_cents, total_cents, created_at)
    select ${customer.id}::uuid, ${admin.id}::uuid,
           case when g <= 35 then 'Harbor festival ' || g else 'Campaign ' || g end,
           case when g % 2 = 0 then 'active' else 'draft' end, date '2026-01-01', 'portal', 10000, 10000,
           timestamptz '2026-01-01 00:00:00+00' + g * interval '1 second'
    from generate_series(1, 10050) g`);
}, 120_000);
afterAll(() => ctx.close());

const page = async (query: string) => {
  const response = await ctx.injectAs('admin', { method: 'GET', url: `/api/contracts?${query}` });
  expect(response.statusCode).toBe(200);
  return {
    rows: response.json().length as number,
    total: response.headers['x-total-count'],
    lowerBound: response.headers['x-total-count-lower-bound'],
  };
};

describe('contract list totals', () => {
  it('says "at least 10,000" for the whole list instead of counting every row', async () => {
    expect(await page('limit=50')).toEqual({ rows: 50, total: '10000', lowerBound: 'true' });
  });

  it('counts exactly when fewer rows match', async () => {
    expect(await page('q=harbor&limit=20')).toEqual({ rows: 20, total: '35', lowerBound: undefined });
    expect(await page('status=active&limit=20')).toEqual({ rows: 20, total: '5025', lowerBound: undefined });
  });

  it('counts as far as the page reaches, so the last pages know their total', async () => {
    expect(await page('limit=50&offset=10000')).toEqual({ rows: 50, total: '10050', lowerBound: undefined });
    expect(await page('limit=50&offset=9990')).toEqual({ rows: 50, total: '10040', lowerBound: 'true' });
  });
});
