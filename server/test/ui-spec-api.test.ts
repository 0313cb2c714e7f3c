import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBilling } from '../modules/billing/billing-run';
import { buildTestApp, type TestContext } from './app';
import { createTestCustomer, createTestProduct } from './catalog-factories';
import { createTestUser, TEST_PASSWORD } from './factories';

/**
 * The calls of ui-spec.md section 7, made with the payloads it lists, and the response fields its screens
 * read (plus the names product.md section 10 gives). Each field name is written out here, so a renamed
 * field fails this suite even when the module's own tests were changed with it.
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(() => ctx.close());

const json = { 'content-type': 'application/json' };
type Who = Parameters<TestContext['injectAs']>[0];
async function call(who: Who, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: object) {
  return ctx.injectAs(who, { method, url, ...(payload ? { headers: json, payload } : {}) });
}

/** A date `months` calendar months before today, as YYYY-MM-DD (first of that month). */
function monthsAgo(months: number): string {
  const now = new Date();
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - months, 1));
  return d.toISOString().slice(0, 10);
}

describe('auth', () => {
  it('POST /api/auth/login answers { token, user }; the token is a bearer for /api/auth/me; logout ends it', async () => {
    const user = await createTestUser(ctx.db, { role: 'finance' });
    const login = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: json,
      payload: { email: user.email, password: TEST_PASSWORD },
    });
    expect(login.statusCode).toBe(200);
    const body = login.json();
    expect(Object.keys(body).sort()).toEqual(['token', 'user']);
    expect(typeof body.token).toBe('string');
    expect(body.user).toMatchObject({
      id: user.id,
      email: user.email,
      firstName: user.firstName,
      lastName: user.lastName,
      role: 'finance',
    });
    expect(body.user).not.toHaveProperty('password');
    expect(body.user).not.toHaveProperty('passwordHash');

    const bearer = { authorization: `Bearer ${body.token}` };
    const me = await ctx.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ id: user.id, firstName: user.firstName, role: 'finance' });

    expect((await ctx.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer })).statusCode).toBe(200);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer })).statusCode).toBe(401);
  });

  it('a wrong password answers 401 "Invalid email or password"', async () => {
    const user = await createTestUser(ctx.db, { role: 'sales' });
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: json,
      payload: { email: user.email, password: 'not-the-password' },
    });
    expect(response.statusCode).toBe(401);
    expect(response.json().message).toBe('Invalid email or password');
  });
});

describe('users', () => {
  it('POST /api/users takes commissionRate divided by 100 (5% is 0.05) and GET /api/users lists it so', async () => {
    const created = await call('admin', 'POST', '/api/users', {
      firstName: 'Rita',
      lastName: 'Rate',
      email: 'rita.rate@example.test',
      password: 'secret12',
      role: 'sales',
      commissionRate: 0.075,
      isActive: true,
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      firstName: 'Rita',
      lastName: 'Rate',
      email: 'rita.rate@example.test',
      role: 'sales',
      commissionRate: 0.075,
      isActive: true,
    });
    expect(created.json()).toHaveProperty('createdAt');
    const list = await call('admin', 'GET', '/api/users?q=rita.rate');
    expect(list.json().map((u: { commissionRate: number }) => u.commissionRate)).toEqual([0.075]);

    // The form's "Commission rate cannot exceed 100%": a percent sent undivided is refused.
    const undivided = await call('admin', 'POST', '/api/users', {
      firstName: 'Per',
      lastName: 'Cent',
      email: 'per.cent@example.test',
      password: 'secret12',
      role: 'sales',
      commissionRate: 5,
      isActive: true,
    });
    expect(undivided.statusCode).toBe(400);
    expect(undivided.json().fieldErrors.commissionRate).toEqual(['Commission rate cannot exceed 100%']);

    const removed = await call('admin', 'DELETE', `/api/users/${created.json().id}`);
    expect(removed.statusCode).toBe(200);
  });

  it('the role filter: one role, or "all" and an empty value for every role', async () => {
    await ctx.as('finance');
    await ctx.as('sales');
    const roles = async (query: string) => {
      const response = await call('admin', 'GET', `/api/users${query}`);
      expect(response.statusCode, query).toBe(200);
      return new Set((response.json() as { role: string }[]).map((u) => u.role));
    };
    expect(await roles('?role=finance')).toEqual(new Set(['finance']));
    const every = await roles('');
    expect(every.has('finance') && every.has('sales')).toBe(true);
    expect(await roles('?role=all')).toEqual(every);
    expect(await roles('?role=')).toEqual(every);
    const unknown = await call('admin', 'GET', '/api/users?role=boss');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe(
      'Role must be one of super_admin, admin, sales_manager, sales, finance, client',
    );
  });
});

describe('contracts', () => {
  it('create, edit, pay link and delete with the payload of ui-spec section 7', async () => {
    const rep = await ctx.as('sales');
    const customer = await createTestCustomer(ctx.db);
    const product = await createTestProduct(ctx.db, { defaultPriceCents: 500_00 });
    const payload = {
      customerId: customer.id,
      startDate: monthsAgo(-1),
      termMonths: 6,
      description: 'Spec payload',
      setupFee: '0',
      paymentMode: 'pay_link',
      packageId: null,
      sendToCustomer: false,
      makeActive: false,
      lineItems: [{ productId: product.id, quantity: 2, unitPrice: 500, discount: 50 }],
    };
    const created = await call(rep, 'POST', '/api/contracts', payload);
    expect(created.statusCode).toBe(201);
    const contract = created.json();
    expect(contract).toMatchObject({
      customerId: customer.id,
      customerName: customer.name,
      status: 'draft',
      description: 'Spec payload',
      termMonths: 6,
      paymentMode: 'pay_link',
      packageId: null,
      setupFee: 0,
      total: 950,
      totalAmount: 950,
      payLinkToken: null,
      stripeSubscriptionId: null,
      stripePaymentLinkId: null,
      stripeCustomerId: null,
    });
    expect(contract.lineItems).toMatchObject([{ productId: product.id, quantity: 2, unitPrice: 500, discount: 50 }]);
    for (const field of ['id', 'title', 'startDate', 'autoStopDate', 'customer', 'package']) {
      expect(contract).toHaveProperty(field);
    }

    const edited = await call(rep, 'PATCH', `/api/contracts/${contract.id}`, { ...payload, setupFee: '25' });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ setupFee: 25, total: 975, totalAmount: 975 });

    const link = await call(rep, 'POST', `/api/contracts/${contract.id}/generate-payment-link`);
    expect(link.statusCode).toBe(200);
    expect(Object.keys(link.json())).toEqual(['paymentUrl']);
    const token = (await call(rep, 'GET', `/api/contracts/${contract.id}`)).json().payLinkToken;
    expect(link.json().paymentUrl).toMatch(new RegExp(`/p/${token}$`));

    const list = await call(rep, 'GET', '/api/contracts?status=draft');
    expect(list.json().map((c: { id: string }) => c.id)).toContain(contract.id);
    // The filter's "All": 'all' or no value at all.
    for (const every of ['?status=all', '?status=']) {
      const response = await call(rep, 'GET', `/api/contracts${every}`);
      expect(response.statusCode, every).toBe(200);
      expect(response.headers['x-total-count']).toBe(
        (await call(rep, 'GET', '/api/contracts')).headers['x-total-count'],
      );
    }

    const removed = await call(rep, 'DELETE', `/api/contracts/${contract.id}`);
    expect(removed.statusCode).toBe(200);
    expect((await call(rep, 'GET', `/api/contracts/${contract.id}`)).statusCode).toBe(404);
  });

  it('makeActive with status active creates a live contract; sendToCustomer alone sends it', async () => {
    const customer = await createTestCustomer(ctx.db);
    const product = await createTestProduct(ctx.db, { defaultPriceCents: 100_00 });
    const base = {
      customerId: customer.id,
      startDate: monthsAgo(-1),
      termMonths: null,
      description: '',
      setupFee: '0',
      paymentMode: 'portal',
      packageId: null,
      lineItems: [{ productId: product.id, quantity: 1, unitPrice: 100, discount: 0 }],
    };
    const live = await call('sales_manager', 'POST', '/api/contracts', {
      ...base,
      sendToCustomer: false,
      makeActive: true,
      status: 'active',
    });
    expect(live.statusCode).toBe(201);
    expect(live.json()).toMatchObject({ status: 'active', termMonths: null, autoStopDate: null });
    const sent = await call('sales_manager', 'POST', '/api/contracts', {
      ...base,
      sendToCustomer: true,
      makeActive: false,
    });
    expect(sent.statusCode).toBe(201);
    expect(sent.json().status).toBe('sent');
  });

  it('GET /api/contracts/my, the sales view\'s "my" variant, lists only the caller\'s own contracts', async () => {
    const mine = await ctx.signIn(await createTestUser(ctx.db, { role: 'sales_manager' }));
    const customer = await createTestCustomer(ctx.db);
    const product = await createTestProduct(ctx.db, { defaultPriceCents: 100_00 });
    const payload = {
      customerId: customer.id,
      startDate: monthsAgo(-1),
      paymentMode: 'portal',
      setupFee: '0',
      lineItems: [{ productId: product.id, quantity: 1, unitPrice: 100, discount: 0 }],
    };
    const own = (await call(mine, 'POST', '/api/contracts', payload)).json();
    const other = (await call('admin', 'POST', '/api/contracts', payload)).json();

    const response = await call(mine, 'GET', '/api/contracts/my');
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-total-count']).toBe('1');
    expect(response.json().map((c: { id: string }) => c.id)).toEqual([own.id]);
    // The full list of a manager holds both.
    const all = (await call(mine, 'GET', `/api/contracts?customerId=${customer.id}`)).json();
    expect(all.map((c: { id: string }) => c.id).sort()).toEqual([own.id, other.id].sort());
    // The status filter applies to it too.
    expect((await call(mine, 'GET', '/api/contracts/my?status=active')).json()).toEqual([]);
    expect((await call('client', 'GET', '/api/contracts/my')).statusCode).toBe(403);
  });
});

describe('the client portal', () => {
  it('GET /api/client/contracts and /api/client/invoices (and /api/invoices) carry the fields the screens read', async () => {
    const customer = await createTestCustomer(ctx.db);
    const product = await createTestProduct(ctx.db, { defaultPriceCents: 300_00 });
    const client = await ctx.signIn(await createTestUser(ctx.db, { role: 'client', customerId: customer.id }));
    const created = await call('admin', 'POST', '/api/contracts', {
      customerId: customer.id,
      startDate: monthsAgo(1),
      termMonths: 12,
      description: 'Portal contract',
      setupFee: '0',
      paymentMode: 'portal',
      packageId: null,
      sendToCustomer: false,
      makeActive: true,
      status: 'active',
      lineItems: [{ productId: product.id, quantity: 1, unitPrice: 300, discount: 0 }],
    });
    expect(created.statusCode).toBe(201);
    await runBilling(ctx.db, { contractId: created.json().id });

    const contracts = await call(client, 'GET', '/api/client/contracts');
    expect(contracts.statusCode).toBe(200);
    expect(contracts.json()).toHaveLength(1);
    expect(contracts.json()[0]).toMatchObject({
      id: created.json().id,
      status: 'active',
      title: null,
      totalAmount: 300,
    });

    const invoices = await call(client, 'GET', '/api/client/invoices');
    expect(invoices.statusCode).toBe(200);
    const rows = invoices.json() as { id: string; status: string; amount: number }[];
    expect(rows.length).toBeGreaterThanOrEqual(1);
    for (const row of rows) {
      expect(typeof row.id).toBe('string');
      expect(['pending', 'paid', 'failed', 'void']).toContain(row.status);
      expect(row.amount).toBe(300);
    }
    const second = await call(client, 'GET', '/api/invoices');
    expect(second.statusCode).toBe(200);
    expect((second.json() as { id: string }[]).map((i) => i.id).sort()).toEqual(rows.map((i) => i.id).sort());
  });
});

describe('commissions and payouts', () => {
  it('GET /api/commissions/summary has available, pending, thisMonth, total, requested and disbursed', async () => {
    const summary = await call('sales', 'GET', '/api/commissions/summary');
    expect(summary.statusCode).toBe(200);
    for (const field of ['available', 'pending', 'thisMonth', 'total', 'requested', 'disbursed']) {
      expect(typeof summary.json()[field], field).toBe('number');
    }
    const list = await call('sales', 'GET', '/api/commissions?status=available');
    expect(list.statusCode).toBe(200);
    expect(Array.isArray(list.json())).toBe(true);
    const payouts = await call('sales', 'GET', '/api/payouts');
    expect(payouts.statusCode).toBe(200);
    expect(Array.isArray(payouts.json())).toBe(true);
    // The status filters' "All": 'all' or an empty value, on the history, its CSV export and the payouts.
    for (const url of ['/api/commissions', '/api/commissions/export', '/api/payouts']) {
      for (const every of ['all', '']) {
        const response = await call('finance', 'GET', `${url}?status=${every}`);
        expect(response.statusCode, `${url}?status=${every}`).toBe(200);
      }
    }
    expect((await call('finance', 'GET', '/api/commissions?status=paid')).statusCode).toBe(400);
    // requestedAmount is a number; with nothing earned yet the request is refused with a message.
    const refused = await call('sales', 'POST', '/api/payouts/request', { requestedAmount: 10 });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toEqual(expect.any(String));
    const missing = await call('sales', 'POST', '/api/payouts/request', {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fieldErrors.requestedAmount).toEqual(['Amount is required']);
  });
});

describe('catalog', () => {
  it('customers, products and packages take the fields of ui-spec section 7', async () => {
    const customer = await call('sales', 'POST', '/api/customers', {
      name: 'Spec Customer',
      email: 'spec.customer@example.test',
      company: 'Spec Co',
      phone: '',
      address: '',
      city: '',
      state: '',
      zipCode: '',
      country: '',
      contactPerson: '',
      website: '',
      industry: '',
      notes: '',
    });
    expect(customer.statusCode).toBe(201);
    expect(customer.json()).toMatchObject({ name: 'Spec Customer', company: 'Spec Co', phone: null });

    const product = await call('admin', 'POST', '/api/products', {
      name: 'Spec Banner',
      description: 'A banner',
      adType: 'banner',
      defaultPrice: 450,
      priceMetric: 'monthly',
      defaultDuration: 30,
      seasonalPrice: 600,
      inventoryRequired: false,
    });
    expect(product.statusCode).toBe(201);
    expect(product.json()).toMatchObject({
      name: 'Spec Banner',
      adType: 'banner',
      defaultPrice: 450,
      priceMetric: 'monthly',
      defaultDuration: 30,
      seasonalPrice: 600,
      inventoryRequired: false,
      isActive: true,
    });

    const items = [
      { productId: product.json().id, quantity: 2, customPrice: 400, customDescription: 'Two', notes: 'n' },
      { productName: 'Shout-out', quantity: 1, customPrice: 50 },
    ];
    const pkg = await call('sales', 'POST', '/api/packages', {
      name: 'Spec Package',
      description: 'd',
      price: 1000,
      items,
    });
    expect(pkg.statusCode).toBe(201);
    expect(pkg.json()).toMatchObject({ name: 'Spec Package', price: 1000 });
    expect(pkg.json().items).toMatchObject([
      { productId: product.json().id, productName: null, quantity: 2, customPrice: 400, notes: 'n' },
      { productId: null, productName: 'Shout-out', quantity: 1, customPrice: 50 },
    ]);
    const updated = await call('sales', 'PUT', `/api/packages/${pkg.json().id}`, {
      name: 'Spec Package 2',
      description: 'd',
      price: 1100,
      items: items.slice(0, 1),
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ name: 'Spec Package 2', price: 1100 });
    expect(updated.json().items).toHaveLength(1);
    const banners = await call('sales', 'GET', '/api/products?adType=banner');
    expect(banners.json().map((p: { id: string }) => p.id)).toContain(product.json().id);
    expect(new Set(banners.json().map((p: { adType: string }) => p.adType))).toEqual(new Set(['banner']));
    for (const every of ['all', '']) {
      const response = await call('sales', 'GET', `/api/products?adType=${every}`);
      expect(response.statusCode).toBe(200);
      expect(response.headers['x-total-count']).toBe(
        (await call('sales', 'GET', '/api/products')).headers['x-total-count'],
      );
    }
    expect((await call('sales', 'DELETE', `/api/packages/${pkg.json().id}`)).statusCode).toBe(200);
    expect((await call('admin', 'DELETE', `/api/customers/${customer.json().id}`)).statusCode).toBe(200);
  });
});

describe('settings and profile', () => {
  it('tax, contract and notification settings round-trip with the names of ui-spec section 7', async () => {
    expect((await call('sales', 'GET', '/api/settings/tax')).json()).toEqual({
      defaultTaxRate: 0,
      taxIncluded: false,
      taxLabel: 'Tax',
    });
    expect((await call('sales', 'GET', '/api/settings/contracts')).json()).toEqual({
      pausePaymentsAfterExpiry: true,
      gracePeriodsEndOfDays: 7,
      // Dunning (product.md section 14): reminders at due + 3 and + 10 days, the pause at due + 21.
      firstReminderDays: 3,
      secondReminderDays: 10,
      pauseAfterOverdueDays: 21,
      // Inventory (product.md section 13): a sent contract holds its slots for 7 days.
      holdDays: 7,
      // Pushed delivery (product.md section 16): final 3 days after its period ends.
      deliveryGraceDays: 3,
      // Insertion orders (product.md section 15): the terms every IO prints, until an admin writes their own.
      ioTerms: expect.stringMatching(/^This insertion order is an agreement between the advertiser/),
      autopayChargeOn: 'due_date',
    });
    const tax = { defaultTaxRate: 8.25, taxIncluded: true, taxLabel: 'Sales Tax' };
    expect((await call('admin', 'PUT', '/api/settings/tax', tax)).json()).toEqual(tax);
    expect((await call('finance', 'GET', '/api/settings/tax')).json()).toEqual(tax);
    const contracts = {
      pausePaymentsAfterExpiry: false,
      gracePeriodsEndOfDays: 30,
      firstReminderDays: 5,
      secondReminderDays: 14,
      pauseAfterOverdueDays: 0,
      holdDays: 10,
      deliveryGraceDays: 0,
      ioTerms: 'Payment within 30 days of each invoice. Either party may cancel with 30 days written notice.',
      autopayChargeOn: 'due_date',
    };
    expect((await call('admin', 'PUT', '/api/settings/contracts', contracts)).json()).toEqual(contracts);

    const flags = {
      emailContractUpdates: false,
      emailPaymentNotifications: true,
      emailCommissionAlerts: false,
      emailSystemMaintenance: true,
      emailAccountSecurity: true,
    };
    const saved = await call('client', 'PUT', '/api/settings/notifications', flags);
    expect(saved.statusCode).toBe(200);
    expect((await call('client', 'GET', '/api/settings/notifications')).json()).toEqual(flags);
  });

  it('PUT /api/profile and /api/profile/password take the fields of the forms', async () => {
    const user = await ctx.signIn(await createTestUser(ctx.db, { role: 'sales' }));
    const profile = await call(user, 'PUT', '/api/profile', {
      firstName: 'Pat',
      lastName: 'Profile',
      email: 'pat.profile@example.test',
    });
    expect(profile.statusCode).toBe(200);
    expect(profile.json()).toMatchObject({ firstName: 'Pat', lastName: 'Profile', email: 'pat.profile@example.test' });
    const mismatch = await call(user, 'PUT', '/api/profile/password', {
      currentPassword: TEST_PASSWORD,
      newPassword: 'newpass1',
      confirmPassword: 'newpass2',
    });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().fieldErrors.confirmPassword).toEqual(["Passwords don't match"]);
    const changed = await call(user, 'PUT', '/api/profile/password', {
      currentPassword: TEST_PASSWORD,
      newPassword: 'newpass1',
      confirmPassword: 'newpass1',
    });
    expect(changed.statusCode).toBe(200);
  });
});

describe('the outbox (product.md section 10)', () => {
  it('lists each e-mail with its recipient, subject, status, attempts and rendered body', async () => {
    const customer = await createTestCustomer(ctx.db, { email: 'outbox.reader@example.test' });
    const product = await createTestProduct(ctx.db, { defaultPriceCents: 100_00 });
    const sent = await call('admin', 'POST', '/api/contracts', {
      customerId: customer.id,
      startDate: monthsAgo(-1),
      paymentMode: 'pay_link',
      setupFee: '0',
      sendToCustomer: true,
      lineItems: [{ productId: product.id, quantity: 1, unitPrice: 100, discount: 0 }],
    });
    expect(sent.json().status).toBe('sent');
    const outbox = await call('admin', 'GET', '/api/outbox');
    expect(outbox.statusCode).toBe(200);
    const message = (outbox.json() as Record<string, unknown>[]).find((m) => m.recipient === customer.email);
    expect(message).toBeDefined();
    expect(message).toMatchObject({ status: 'queued', attempts: 0 });
    expect(typeof message?.subject).toBe('string');
    expect(String(message?.body)).toContain('/p/');
  });
});
