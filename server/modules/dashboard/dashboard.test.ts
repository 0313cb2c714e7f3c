import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contracts, invoices, payments } from '../../db/schema';
import { buildTestApp, type TestContext } from '../../test/app';
import { createTestCustomer } from '../../test/catalog-factories';
import { createTestUser } from '../../test/factories';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(() => ctx.close());

async function insertContract(values: {
  customerId: string;
  salesRepId: string;
  status: string;
  monthlyAmountCents: number;
}) {
  const [row] = await ctx.db
    .insert(contracts)
    .values({ ...values, startDate: '2026-01-01', paymentMode: 'portal', totalCents: values.monthlyAmountCents })
    .returning();
  return row;
}

describe('dashboard stats', () => {
  it('adds up the contracts the caller may see, in one figure per card', async () => {
    const sales = await ctx.as('sales');
    const other = await createTestUser(ctx.db, { role: 'sales' });
    const customer = await createTestCustomer(ctx.db);
    await insertContract({
      customerId: customer.id,
      salesRepId: sales.id,
      status: 'active',
      monthlyAmountCents: 150_050,
    });
    await insertContract({
      customerId: customer.id,
      salesRepId: sales.id,
      status: 'draft',
      monthlyAmountCents: 99_900,
    });
    await insertContract({
      customerId: customer.id,
      salesRepId: other.id,
      status: 'active',
      monthlyAmountCents: 20_000,
    });

    const own = (await ctx.injectAs(sales, { method: 'GET', url: '/api/dashboard/stats' })).json();
    expect(own).toMatchObject({ activeContracts: 1, mrr: 1500.5, monthlyRevenue: 0, totalContracts: 2 });
    const all = (await ctx.injectAs('admin', { method: 'GET', url: '/api/dashboard/stats' })).json();
    expect(all).toMatchObject({ activeContracts: 2, mrr: 1700.5, totalContracts: 3, contractsThisMonth: 3 });
    const manager = await ctx.as('sales_manager');
    const managerOwn = (await ctx.injectAs(manager, { method: 'GET', url: '/api/dashboard/stats?mine=true' })).json();
    expect(managerOwn).toMatchObject({ activeContracts: 0, totalContracts: 0 });
  });
});

describe('dashboard Monthly Revenue', () => {
  it('is the cash received this calendar month, net of refunds, failed attempts left out', async () => {
    const rep = await ctx.signIn(await createTestUser(ctx.db, { role: 'sales' }));
    const customer = await createTestCustomer(ctx.db);
    const contract = await insertContract({
      customerId: customer.id,
      salesRepId: rep.id,
      status: 'active',
      monthlyAmountCents: 10_000,
    });
    const now = new Date();
    const thisMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1, 0, 0, 1));
    const lastMonth = new Date(thisMonth.getTime() - 2_000);
    const [invoice] = await ctx.db
      .insert(invoices)
      .values({
        number: `INV-DASH-${contract.id.slice(0, 8)}`,
        contractId: contract.id,
        customerId: customer.id,
        periodIndex: 0,
        periodStart: '2026-01-01',
        periodEnd: '2026-01-31',
        dueDate: '2026-01-10',
        subtotalCents: 100_000,
        taxCents: 0,
        taxLabel: 'Tax',
        taxRateBp: 0,
        taxIncluded: false,
        totalCents: 100_000,
      })
      .returning();
    const payment = (cents: number, paidAt: Date, extra: Partial<typeof payments.$inferInsert> = {}) => ({
      invoiceId: invoice.id,
      contractId: contract.id,
      customerId: customer.id,
      amountCents: cents,
      method: 'card',
      provider: 'test',
      paidAt,
      ...extra,
    });
    const before = (await ctx.injectAs('admin', { method: 'GET', url: '/api/dashboard/stats' })).json();
    await ctx.db
      .insert(payments)
      .values([
        payment(60_000, thisMonth),
        payment(25_050, new Date(), { kind: 'payment' }),
        payment(5_000, new Date(), { kind: 'refund' }),
        payment(99_000, new Date(), { status: 'failed' }),
        payment(70_000, lastMonth),
      ]);
    const mine = (await ctx.injectAs(rep, { method: 'GET', url: '/api/dashboard/stats' })).json();
    expect(mine.monthlyRevenue).toBe(600 + 250.5 - 50);
    expect(mine.mrr).toBe(100);
    const all = (await ctx.injectAs('admin', { method: 'GET', url: '/api/dashboard/stats' })).json();
    expect(Math.round((all.monthlyRevenue - before.monthlyRevenue) * 100)).toBe(60_000 + 25_050 - 5_000);
  });
});

describe('audit trail', () => {
  it('lists events newest first with the actor name, filtered by record', async () => {
    const created = await ctx.injectAs('admin', {
      method: 'POST',
      url: '/api/customers',
      payload: { name: 'Audit Me Inc', email: 'audit@example.test' },
    });
    const customerId = created.json().id;
    await ctx.injectAs('admin', { method: 'PATCH', url: `/api/customers/${customerId}`, payload: { city: 'Denver' } });
    const response = await ctx.injectAs('admin', {
      method: 'GET',
      url: `/api/audit?entity=customer&entityId=${customerId}`,
    });
    expect(response.headers['x-total-count']).toBe('2');
    const events = response.json();
    expect(events.map((e: { action: string }) => e.action)).toEqual(['customer.updated', 'customer.created']);
    expect(events[0].actorName).toMatch(/^Test User/);
  });
});

describe('client contracts', () => {
  it("shows a client their own customer's sent contracts only", async () => {
    const mine = await createTestCustomer(ctx.db);
    const theirs = await createTestCustomer(ctx.db);
    const rep = await createTestUser(ctx.db, { role: 'sales' });
    const client = await ctx.signIn(await createTestUser(ctx.db, { role: 'client', customerId: mine.id }));
    const active = await insertContract({
      customerId: mine.id,
      salesRepId: rep.id,
      status: 'active',
      monthlyAmountCents: 50_000,
    });
    await insertContract({ customerId: mine.id, salesRepId: rep.id, status: 'draft', monthlyAmountCents: 10_000 });
    await insertContract({ customerId: theirs.id, salesRepId: rep.id, status: 'active', monthlyAmountCents: 70_000 });

    const response = await ctx.injectAs(client, { method: 'GET', url: '/api/client/contracts' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([expect.objectContaining({ id: active.id, status: 'active', totalAmount: 500 })]);
    expect(response.headers['x-total-count']).toBe('1');

    const unlinked = await ctx.signIn(await createTestUser(ctx.db, { role: 'client' }));
    expect((await ctx.injectAs(unlinked, { method: 'GET', url: '/api/client/contracts' })).json()).toEqual([]);
  });
});
