import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notifications, outboxEmails } from '../../db/schema';
import { buildTestApp, type TestContext } from '../../test/app';
import { createTestCustomer, createTestProduct } from '../../test/catalog-factories';
import { createTestUser, type TestUser } from '../../test/factories';

let ctx: TestContext;
let productId: string;
let customerId: string;
const BASE = 'https://crm.example.test';

beforeAll(async () => {
  ctx = await buildTestApp({ config: { PUBLIC_URL: BASE } });
  productId = (await createTestProduct(ctx.db)).id;
  customerId = (await createTestCustomer(ctx.db, { name: 'Northwind Radio' })).id;
});
afterAll(() => ctx.close());

const now = new Date();
/** A day relative to today (UTC), YYYY-MM-DD. */
const dayFromToday = (days: number, yearsBack = 0) =>
  new Date(Date.UTC(now.getUTCFullYear() - yearsBack, now.getUTCMonth(), now.getUTCDate() + days))
    .toISOString()
    .slice(0, 10);

async function createContract(
  who: Parameters<TestContext['injectAs']>[0],
  extra: Record<string, unknown>,
): Promise<{ id: string; autoStopDate: string | null; status: string }> {
  const response = await ctx.injectAs(who, {
    method: 'POST',
    url: '/api/contracts',
    payload: {
      customerId,
      startDate: dayFromToday(0),
      termMonths: 12,
      description: 'Drive-time spots',
      setupFee: 0,
      paymentMode: 'portal',
      packageId: null,
      sendToCustomer: false,
      makeActive: false,
      lineItems: [{ productId, quantity: 1, unitPrice: 500, discount: 0 }],
      ...extra,
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

async function noticesOf(user: TestUser, type: string) {
  return ctx.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, user.id), eq(notifications.type, type as never)));
}

describe('contract activated', () => {
  it('tells the rep when someone else activates their contract, with a link and an e-mail copy', async () => {
    const rep = await ctx.signIn(await createTestUser(ctx.db, { role: 'sales' }));
    const contract = await createContract(rep, {});
    const activated = await ctx.injectAs('sales_manager', {
      method: 'POST',
      url: `/api/contracts/${contract.id}/activate`,
    });
    expect(activated.statusCode, activated.body).toBe(200);

    const [notice, ...more] = await noticesOf(rep, 'contract_activated');
    expect(more).toEqual([]);
    expect(notice).toMatchObject({
      title: 'Contract activated',
      body: 'Drive-time spots for Northwind Radio is now active.',
      link: `/contracts/${contract.id}`,
      entity: 'contract',
      entityId: contract.id,
      readAt: null,
    });
    const mails = await ctx.db.select().from(outboxEmails).where(eq(outboxEmails.to, rep.email));
    expect(mails.map((m) => m.subject)).toEqual(['Contract activated: Drive-time spots']);
    expect(mails[0].text).toContain(`${BASE}/contracts/${contract.id}`);

    // The bell shows it.
    const bell = (await ctx.injectAs(rep, { method: 'GET', url: '/api/notifications' })).json();
    expect(bell.unreadCount).toBe(1);
    expect(bell.items[0]).toMatchObject({ type: 'contract_activated', link: `/contracts/${contract.id}` });
  });

  it('tells the rep when a manager creates an active contract for them, and nobody when reps activate their own', async () => {
    const rep = await ctx.signIn(await createTestUser(ctx.db, { role: 'sales' }));
    await createContract('admin', { salesRepId: rep.id, makeActive: true });
    expect(await noticesOf(rep, 'contract_activated')).toHaveLength(1);

    const own = await createContract(rep, {});
    expect((await ctx.injectAs(rep, { method: 'POST', url: `/api/contracts/${own.id}/activate` })).statusCode).toBe(
      200,
    );
    await createContract(rep, { makeActive: true });
    expect(await noticesOf(rep, 'contract_activated')).toHaveLength(1);
  });

  it('a refused activation notifies nobody', async () => {
    const rep = await ctx.signIn(await createTestUser(ctx.db, { role: 'sales' }));
    const contract = await createContract(rep, {});
    await ctx.injectAs('admin', { method: 'POST', url: `/api/contracts/${contract.id}/activate` });
    const again = await ctx.injectAs('admin', { method: 'POST', url: `/api/contracts/${contract.id}/activate` });
    expect(again.statusCode).toBe(409);
    expect(await noticesOf(rep, 'contract_activated')).toHaveLength(1);
  });
});
