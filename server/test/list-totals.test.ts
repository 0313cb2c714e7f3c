import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestContext } from './app';
import { createTestCustomer } from './catalog-factories';

// The searchable lists count their matches only up to 1,000 past the page's start: beyond that the total is
// a lower bound, said so by X-Total-Count-Lower-Bound. Each list gets 1,050 rows, 35 of them "Harbor ...".
const ROWS = 1050;
let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
  const admin = await ctx.as('admin');
  const customer = await createTestCustomer(ctx.db, { name: 'Quay Traders' });
  await ctx.db.execute(sql`
    insert into contracts (customer_id, sales_rep_id, description, status, start_date, payment_mode,
                           monthly_amount_cents, total_cents, created_at)
    select ${customer.id}::uuid, ${admin.id}::uuid,
           case when g <= 35 then 'Harbor festival ' || g else 'Campaign ' || g end,
           case when g % 2 = 0 then 'active' else 'draft' end, date '2026-01-01', 'portal', 10000, 10000,
           timestamptz '2026-01-01 00:00:00+00' + g * interval '1 second'
    from generate_series(1, ${ROWS}) g`);
  await ctx.db.execute(sql`
    insert into customers (name, email)
    select case when g <= 35 then 'Harbor Foods ' || g else 'Customer ' || g end, 'buyer' || g || '@example.test'
    from generate_series(1, ${ROWS}) g`);
  await ctx.db.execute(sql`
    insert into invoices (number, contract_id, customer_id, period_index, period_start, period_end, due_date,
                          status, subtotal_cents, tax_cents, tax_label, tax_rate_bp, tax_included, total_cents)
    select case when g <= 35 then 'INV-2019-' else 'INV-2026-' end || lpad(g::text, 6, '0'),
           c.id, c.customer_id, 0, date '2026-01-01', date '2026-01-31', date '2026-01-08',
           case when g % 2 = 0 then 'paid' else 'pending' end, 10000, 0, 'Tax', 0, false, 10000
    from (select id, customer_id, row_number() over (order by created_at) as g from contracts) c`);
  await ctx.db.execute(sql`
    insert into outbox_emails ("to", subject, text, status)
    select 'buyer' || g || '@example.test', 'Message ' || g, 'Hello', 'sent' from generate_series(1, ${ROWS}) g`);
}, 120_000);
afterAll(() => ctx.close());

const page = async (url: string) => {
  const response = await ctx.injectAs('admin', { method: 'GET', url });
  expect(response.statusCode).toBe(200);
  return {
    rows: response.json().length as number,
    total: response.headers['x-total-count'],
    lowerBound: response.headers['x-total-count-lower-bound'],
  };
};

describe.each([
  ['contracts', '/api/contracts', 'harbor', 'status=active', '525'],
  ['customers', '/api/customers', 'harbor', null, null],
  ['invoices', '/api/invoices', '2019', 'status=paid', '525'],
])('%s list totals', (_name, path, search, filter, filtered) => {
  it('says "at least 1,000" for the whole list instead of counting every row', async () => {
    expect(await page(`${path}?limit=50`)).toEqual({ rows: 50, total: '1000', lowerBound: 'true' });
  });

  it('counts exactly when fewer rows match', async () => {
    expect(await page(`${path}?q=${search}&limit=20`)).toEqual({ rows: 20, total: '35', lowerBound: undefined });
    if (filter)
      expect(await page(`${path}?${filter}&limit=20`)).toEqual({ rows: 20, total: filtered, lowerBound: undefined });
  });

  it('counts as far as the page reaches, so the last pages know their total', async () => {
    // The customers list holds the test's own customer too: 1,051 rows.
    const all = path === '/api/customers' ? ROWS + 1 : ROWS;
    expect(await page(`${path}?limit=100&offset=1000`)).toEqual({
      rows: all - 1000,
      total: String(all),
      lowerBound: undefined,
    });
    expect(await page(`${path}?limit=50&offset=940`)).toEqual({ rows: 50, total: '1000', lowerBound: 'true' });
  });
});

describe('outbox list totals', () => {
  it('stops counting at 1,000 and knows the total of its last page', async () => {
    expect(await page('/api/outbox?limit=50')).toEqual({ rows: 50, total: '1000', lowerBound: 'true' });
    expect(await page('/api/outbox?limit=50&offset=1000')).toEqual({ rows: 50, total: '1050', lowerBound: undefined });
  });
});
