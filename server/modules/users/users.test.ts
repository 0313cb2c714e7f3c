import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, customers, sessions, users } from '../../db/schema';
import { buildTestApp, type TestContext } from '../../test/app';
import { createTestUser } from '../../test/factories';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(() => ctx.close());

const valid = (overrides: Record<string, unknown> = {}) => ({
  firstName: 'Riley',
  lastName: 'Stone',
  email: `riley-${Math.random().toString(36).slice(2, 8)}@example.test`,
  password: 'secret1',
  role: 'sales',
  commissionRate: 0.075,
  ...overrides,
});

describe('users API', () => {
  it('creates a user with the defaults of the form, hashes the password and audits the change', async () => {
    const admin = await ctx.as('admin');
    const body = valid({ role: undefined, commissionRate: undefined });
    const response = await ctx.injectAs(admin, { method: 'POST', url: '/api/users', payload: body });
    expect(response.statusCode).toBe(201);
    const user = response.json();
    expect(user).toMatchObject({ email: body.email, role: 'sales', commissionRate: 0.05, isActive: true });
    expect(user.password).toBeUndefined();
    const [row] = await ctx.db.select().from(users).where(eq(users.id, user.id));
    expect(row.passwordHash).toMatch(/^scrypt\$/);
    const audit = await ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entity, 'user'), eq(auditEvents.entityId, user.id)));
    expect(audit.map((a) => a.action)).toEqual(['user.created']);
    expect(JSON.stringify(audit[0].after)).not.toContain('scrypt');
  });

  it('keeps a commission rate with a tenth of a percent exactly', async () => {
    const response = await ctx.injectAs('admin', {
      method: 'POST',
      url: '/api/users',
      payload: valid({ commissionRate: 0.075 }),
    });
    expect(response.json().commissionRate).toBe(0.075);
  });

  it.each([
    [{ firstName: '' }, 'firstName', 'First name is required'],
    [{ lastName: '   ' }, 'lastName', 'Last name is required'],
    [{ email: 'nope' }, 'email', 'Valid email is required'],
    [{ password: '12345' }, 'password', 'Password must be at least 6 characters'],
    [{ role: 'owner' }, 'role', 'Role must be one of'],
    [{ commissionRate: -0.01 }, 'commissionRate', 'Commission rate must be positive'],
    [{ commissionRate: 1.5 }, 'commissionRate', 'Commission rate cannot exceed 100%'],
    [{ commissionRate: '5' }, 'commissionRate', 'Commission rate must be a number'],
    [{ firstName: 'x'.repeat(101) }, 'firstName', 'First name cannot be longer than 100 characters'],
  ])('refuses %j with 400 and stores nothing', async (overrides, field, message) => {
    const body = valid(overrides);
    const response = await ctx.injectAs('admin', { method: 'POST', url: '/api/users', payload: body });
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors[field].join(' ')).toContain(message);
    expect(
      await ctx.db
        .select()
        .from(users)
        .where(eq(users.email, String(body.email))),
    ).toHaveLength(0);
  });

  it('links a client account to an existing customer only', async () => {
    const [customer] = await ctx.db
      .insert(customers)
      .values({ name: 'Linked Co', email: 'linked@example.test' })
      .returning();
    const linked = await ctx.injectAs('admin', {
      method: 'POST',
      url: '/api/users',
      payload: valid({ role: 'client', customerId: customer.id }),
    });
    expect(linked.statusCode).toBe(201);
    expect(linked.json().customerId).toBe(customer.id);
    const unknown = await ctx.injectAs('admin', {
      method: 'POST',
      url: '/api/users',
      payload: valid({ role: 'client', customerId: '6f1c1d2e-0000-4000-8000-000000000000' }),
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe('The chosen customer does not exist');
  });

  it('refuses a duplicate e-mail with 409, whatever its case', async () => {
    const existing = await createTestUser(ctx.db);
    const response = await ctx.injectAs('admin', {
      method: 'POST',
      url: '/api/users',
      payload: valid({ email: existing.email.toUpperCase() }),
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe('A user with this email already exists');
  });

  it('lists with search, role filter, paging and X-Total-Count', async () => {
    const tag = `zq${Math.random().toString(36).slice(2, 7)}`;
    for (const role of ['finance', 'finance', 'sales'] as const) {
      await createTestUser(ctx.db, { role, lastName: `${tag} ${role}` });
    }
    const all = await ctx.injectAs('admin', { method: 'GET', url: `/api/users?q=${tag}` });
    expect(all.json()).toHaveLength(3);
    expect(all.headers['x-total-count']).toBe('3');
    const finance = await ctx.injectAs('admin', { method: 'GET', url: `/api/users?q=${tag}&role=finance&limit=1` });
    expect(finance.json()).toHaveLength(1);
    expect(finance.headers['x-total-count']).toBe('2');
    const bad = await ctx.injectAs('admin', { method: 'GET', url: '/api/users?limit=0' });
    expect(bad.statusCode).toBe(400);
  });

  it('shows a sales manager the team read-only: staff accounts, never client accounts', async () => {
    const tag = `zt${Math.random().toString(36).slice(2, 7)}`;
    const rep = await createTestUser(ctx.db, { role: 'sales', lastName: `${tag} rep` });
    const client = await createTestUser(ctx.db, { role: 'client', lastName: `${tag} client` });
    const team = await ctx.injectAs('sales_manager', { method: 'GET', url: `/api/users?q=${tag}` });
    expect(team.statusCode).toBe(200);
    expect(team.json().map((u: { id: string }) => u.id)).toEqual([rep.id]);
    expect(team.headers['x-total-count']).toBe('1');
    const clients = await ctx.injectAs('sales_manager', { method: 'GET', url: `/api/users?q=${tag}&role=client` });
    expect(clients.json()).toEqual([]);
    expect((await ctx.injectAs('sales_manager', { method: 'GET', url: `/api/users/${rep.id}` })).statusCode).toBe(200);
    const hidden = await ctx.injectAs('sales_manager', { method: 'GET', url: `/api/users/${client.id}` });
    expect(hidden.statusCode).toBe(404);
    // An admin sees both.
    const all = await ctx.injectAs('admin', { method: 'GET', url: `/api/users?q=${tag}` });
    expect(all.json()).toHaveLength(2);
    // Read-only: no changes.
    const create = await ctx.injectAs('sales_manager', { method: 'POST', url: '/api/users', payload: valid() });
    expect(create.statusCode).toBe(403);
    const edit = await ctx.injectAs('sales_manager', {
      method: 'PATCH',
      url: `/api/users/${rep.id}`,
      payload: { firstName: 'Changed' },
    });
    expect(edit.statusCode).toBe(403);
  });

  it('updates a user partially; deactivation ends their sessions', async () => {
    const target = await ctx.signIn(await createTestUser(ctx.db));
    const response = await ctx.injectAs('admin', {
      method: 'PATCH',
      url: `/api/users/${target.id}`,
      payload: { commissionRate: 0.1, isActive: false },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ commissionRate: 0.1, isActive: false, firstName: target.firstName });
    expect(await ctx.db.select().from(sessions).where(eq(sessions.userId, target.id))).toHaveLength(0);
  });

  it("keeps an admin's own session when they set their own password here, and ends the others", async () => {
    const admin = await createTestUser(ctx.db, { role: 'admin' });
    const current = await ctx.signIn(admin);
    const other = await ctx.signIn(admin);
    const response = await ctx.injectAs(current, {
      method: 'PATCH',
      url: `/api/users/${admin.id}`,
      payload: { password: 'brandnew1' },
    });
    expect(response.statusCode).toBe(200);
    expect((await ctx.injectAs(current, { method: 'GET', url: '/api/auth/me' })).statusCode).toBe(200);
    expect((await ctx.injectAs(other, { method: 'GET', url: '/api/auth/me' })).statusCode).toBe(401);
  });

  it('refuses to delete or deactivate oneself', async () => {
    const admin = await ctx.as('admin');
    const del = await ctx.injectAs(admin, { method: 'DELETE', url: `/api/users/${admin.id}` });
    expect(del.statusCode).toBe(403);
    expect(del.json().message).toBe('You cannot delete your own account');
    const deactivate = await ctx.injectAs(admin, {
      method: 'PATCH',
      url: `/api/users/${admin.id}`,
      payload: { isActive: false },
    });
    expect(deactivate.statusCode).toBe(409);
  });

  it('lets only a super admin touch super admin accounts', async () => {
    const superAdmin = await createTestUser(ctx.db, { role: 'super_admin' });
    for (const request of [
      { method: 'PATCH' as const, url: `/api/users/${superAdmin.id}`, payload: { firstName: 'X' } },
      { method: 'DELETE' as const, url: `/api/users/${superAdmin.id}` },
      { method: 'POST' as const, url: '/api/users', payload: valid({ role: 'super_admin' }) },
    ]) {
      const response = await ctx.injectAs('admin', request);
      expect(response.statusCode, `${request.method} ${request.url}`).toBe(403);
    }
    const promote = await createTestUser(ctx.db);
    expect(
      (
        await ctx.injectAs('admin', {
          method: 'PATCH',
          url: `/api/users/${promote.id}`,
          payload: { role: 'super_admin' },
        })
      ).statusCode,
    ).toBe(403);
    const bySuper = await ctx.injectAs('super_admin', {
      method: 'PATCH',
      url: `/api/users/${superAdmin.id}`,
      payload: { firstName: 'Y' },
    });
    expect(bySuper.statusCode).toBe(200);
    expect(
      (await ctx.injectAs('super_admin', { method: 'DELETE', url: `/api/users/${superAdmin.id}` })).statusCode,
    ).toBe(200);
  });

  it('answers 404 for an unknown or malformed id', async () => {
    expect(
      (await ctx.injectAs('admin', { method: 'GET', url: '/api/users/6f1c1d2e-0000-4000-8000-000000000000' }))
        .statusCode,
    ).toBe(404);
    expect((await ctx.injectAs('admin', { method: 'GET', url: '/api/users/not-an-id' })).statusCode).toBe(404);
  });
});
