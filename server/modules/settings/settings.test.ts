import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestContext } from '../../test/app';
import { createTestUser, TEST_PASSWORD } from '../../test/factories';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(() => ctx.close());

describe('business settings', () => {
  it('reads the defaults before anything is saved', async () => {
    expect((await ctx.injectAs('sales', { method: 'GET', url: '/api/settings/tax' })).json()).toEqual({
      defaultTaxRate: 0,
      taxIncluded: false,
      taxLabel: 'Tax',
    });
    expect((await ctx.injectAs('finance', { method: 'GET', url: '/api/settings/contracts' })).json()).toEqual({
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
      // Insertion orders (product.md section 15) print standard terms until the business writes its own.
      ioTerms: expect.stringMatching(/^This insertion order is an agreement between the advertiser/),
      autopayChargeOn: 'due_date',
    });
  });

  it('keeps the terms printed on insertion orders, up to 20,000 characters', async () => {
    const put = (ioTerms: unknown) =>
      ctx.injectAs('admin', {
        method: 'PUT',
        url: '/api/settings/contracts',
        payload: { pausePaymentsAfterExpiry: true, gracePeriodsEndOfDays: 7, ioTerms },
      });
    expect((await put('Net 15. Makegoods within 30 days.')).statusCode).toBe(200);
    expect((await ctx.injectAs('sales', { method: 'GET', url: '/api/settings/contracts' })).json().ioTerms).toBe(
      'Net 15. Makegoods within 30 days.',
    );
    const tooLong = await put('x'.repeat(20_001));
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().message).toBe('Insertion order terms cannot exceed 20,000 characters');
    expect((await put('   ')).statusCode).toBe(400);
    expect((await put('y'.repeat(20_000))).statusCode).toBe(200);
  });

  it('saves tax and contract settings for admins and reads them back', async () => {
    const tax = { defaultTaxRate: 8.25, taxIncluded: true, taxLabel: 'Sales tax' };
    expect((await ctx.injectAs('admin', { method: 'PUT', url: '/api/settings/tax', payload: tax })).statusCode).toBe(
      200,
    );
    expect((await ctx.injectAs('sales_manager', { method: 'GET', url: '/api/settings/tax' })).json()).toEqual(tax);
    const contracts = {
      pausePaymentsAfterExpiry: false,
      gracePeriodsEndOfDays: 30,
      firstReminderDays: 5,
      secondReminderDays: 14,
      pauseAfterOverdueDays: 0,
      holdDays: 10,
      deliveryGraceDays: 0,
      ioTerms: 'Standard terms apply.',
      autopayChargeOn: 'issue_date',
    };
    expect(
      (await ctx.injectAs('super_admin', { method: 'PUT', url: '/api/settings/contracts', payload: contracts }))
        .statusCode,
    ).toBe(200);
    expect((await ctx.injectAs('admin', { method: 'GET', url: '/api/settings/contracts' })).json()).toEqual(contracts);
  });

  it.each([
    [
      '/api/settings/tax',
      { defaultTaxRate: 100.01, taxIncluded: false, taxLabel: 'Tax' },
      'Tax rate cannot exceed 100%',
    ],
    ['/api/settings/tax', { defaultTaxRate: -1, taxIncluded: false, taxLabel: 'Tax' }, 'Tax rate cannot be negative'],
    ['/api/settings/tax', { defaultTaxRate: 1.234, taxIncluded: false, taxLabel: 'Tax' }, 'at most two decimals'],
    ['/api/settings/tax', { defaultTaxRate: 5, taxIncluded: false, taxLabel: '' }, 'Tax label is required'],
    [
      '/api/settings/contracts',
      { pausePaymentsAfterExpiry: true, gracePeriodsEndOfDays: 31 },
      'Grace period cannot exceed 30 days',
    ],
    ['/api/settings/contracts', { pausePaymentsAfterExpiry: true, gracePeriodsEndOfDays: 2.5 }, 'whole number'],
    [
      '/api/settings/contracts',
      { pausePaymentsAfterExpiry: true, gracePeriodsEndOfDays: 7, deliveryGraceDays: 32 },
      'Delivery grace days cannot exceed 31 days',
    ],
  ])('PUT %s refuses %j', async (url, payload, message) => {
    const response = await ctx.injectAs('admin', { method: 'PUT', url, payload });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(message);
  });
});

describe('personal settings', () => {
  it('keeps notification preferences per user, merging partial updates', async () => {
    const user = await ctx.signIn(await createTestUser(ctx.db, { role: 'client' }));
    const initial = (await ctx.injectAs(user, { method: 'GET', url: '/api/settings/notifications' })).json();
    expect(initial).toEqual({
      emailContractUpdates: true,
      emailPaymentNotifications: true,
      emailCommissionAlerts: true,
      emailSystemMaintenance: false,
      emailAccountSecurity: true,
    });
    await ctx.injectAs(user, {
      method: 'PUT',
      url: '/api/settings/notifications',
      payload: { ...initial, emailSystemMaintenance: true },
    });
    await ctx.injectAs(user, {
      method: 'PUT',
      url: '/api/settings/notifications',
      payload: { emailCommissionAlerts: false },
    });
    const after = (await ctx.injectAs(user, { method: 'GET', url: '/api/settings/notifications' })).json();
    expect(after).toMatchObject({ emailSystemMaintenance: true, emailCommissionAlerts: false });
    const other = (await ctx.injectAs('sales', { method: 'GET', url: '/api/settings/notifications' })).json();
    expect(other.emailSystemMaintenance).toBe(false);
  });

  it('updates the profile and refuses an e-mail that another user has', async () => {
    const user = await ctx.signIn(await createTestUser(ctx.db));
    const taken = await createTestUser(ctx.db);
    const ok = await ctx.injectAs(user, {
      method: 'PUT',
      url: '/api/profile',
      payload: { firstName: 'Pat', lastName: 'Quinn', email: user.email },
    });
    expect(ok.json()).toMatchObject({ firstName: 'Pat', lastName: 'Quinn' });
    const clash = await ctx.injectAs(user, {
      method: 'PUT',
      url: '/api/profile',
      payload: { firstName: 'Pat', lastName: 'Quinn', email: taken.email },
    });
    expect(clash.statusCode).toBe(409);
    const invalid = await ctx.injectAs(user, {
      method: 'PUT',
      url: '/api/profile',
      payload: { firstName: '', lastName: 'Q', email: 'x' },
    });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().fieldErrors).toMatchObject({
      firstName: ['First name is required'],
      email: ['Invalid email address'],
    });
  });

  it('changes the password after checking the current one and signs out other sessions', async () => {
    const user = await createTestUser(ctx.db);
    const current = await ctx.signIn(user);
    const other = await ctx.signIn(user);
    const mismatch = await ctx.injectAs(current, {
      method: 'PUT',
      url: '/api/profile/password',
      payload: { currentPassword: TEST_PASSWORD, newPassword: 'newpass1', confirmPassword: 'newpass2' },
    });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().fieldErrors.confirmPassword).toEqual(["Passwords don't match"]);
    const wrong = await ctx.injectAs(current, {
      method: 'PUT',
      url: '/api/profile/password',
      payload: { currentPassword: 'nope', newPassword: 'newpass1', confirmPassword: 'newpass1' },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe('Current password is incorrect');
    const ok = await ctx.injectAs(current, {
      method: 'PUT',
      url: '/api/profile/password',
      payload: { currentPassword: TEST_PASSWORD, newPassword: 'newpass1', confirmPassword: 'newpass1' },
    });
    expect(ok.statusCode).toBe(200);
    expect((await ctx.injectAs(current, { method: 'GET', url: '/api/auth/me' })).statusCode).toBe(200);
    expect((await ctx.injectAs(other, { method: 'GET', url: '/api/auth/me' })).statusCode).toBe(401);
    const login = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: 'newpass1' },
    });
    expect(login.statusCode).toBe(200);
  });
});
