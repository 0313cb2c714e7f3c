import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { apiKeys, auditEvents, users } from '../../db/schema';
import { rowsOf } from '../../lib/db-rows';
import { buildTestApp, type TestContext, testConfig } from '../../test/app';
import { createTestUser } from '../../test/factories';
import { generateApiKey, isWellFormedApiKey } from './api-key-token';

/**
 * API keys (product.md section 16, decision 038): made by admins, shown once, only their SHA-256 kept; a key
 * acts with its scope's rights in the name of its maker, is refused once revoked or expired, counts against
 * its per-minute limit on every instance, and each change made with it names it in the audit trail.
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp({ config: { API_KEY_RATE_LIMIT: 1000 } });
});
afterAll(() => ctx.close());

type Created = { id: string; secret: string; hint: string; status: string; scope: string; role: string | null };

async function makeKey(body: Record<string, unknown>, who: 'admin' | 'super_admin' = 'admin'): Promise<Created> {
  const response = await ctx.injectAs(who, { method: 'POST', url: '/api/api-keys', payload: body });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

const withKey = (key: string, options: { method?: 'GET' | 'POST' | 'PUT'; url: string; payload?: unknown }) =>
  ctx.app.inject({
    method: options.method ?? 'GET',
    url: options.url,
    headers: { authorization: `Bearer ${key}` },
    ...(options.payload === undefined ? {} : { payload: options.payload as object }),
  });

describe('the key format', () => {
  it('is adcrm_ with 32 random base62 characters and a 6-character CRC32 checksum of them', () => {
    // The checksums below were computed apart from the product (Python's zlib.crc32 in base 62).
    expect(isWellFormedApiKey(`adcrm_${'0'.repeat(32)}2wjyrI`)).toBe(true);
    expect(isWellFormedApiKey('adcrm_AbCdEfGhIjKlMnOpQrStUvWxYz0123451HTd0k')).toBe(true);
    expect(isWellFormedApiKey('adcrm_AbCdEfGhIjKlMnOpQrStUvWxYz0123461HTd0k'), 'one character mistyped').toBe(false);
    expect(isWellFormedApiKey('adcrm_AbCdEfGhIjKlMnOpQrStUvWxYz0123451HTd0'), 'one character short').toBe(false);
    expect(isWellFormedApiKey('adcrm-AbCdEfGhIjKlMnOpQrStUvWxYz0123451HTd0k'), 'another prefix').toBe(false);

    const keys = Array.from({ length: 2000 }, generateApiKey);
    expect(new Set(keys).size).toBe(2000);
    for (const key of keys) {
      expect(key).toMatch(/^adcrm_[0-9A-Za-z]{38}$/);
      expect(isWellFormedApiKey(key)).toBe(true);
    }
    // Every one of the 62 characters turns up in every position over 2,000 keys (no character is left out).
    const firstChars = new Set(keys.map((key) => key[6]));
    expect(firstChars.size).toBe(62);
  });
});

describe('making, listing and revoking keys', () => {
  it('shows the secret once, keeps only its SHA-256 and lists the key with its maker and hint', async () => {
    const admin = await ctx.as('admin');
    const key = await makeKey({ name: 'Ad server', scope: 'delivery' });
    expect(key).toMatchObject({ name: 'Ad server', scope: 'delivery', role: null, status: 'active' });
    expect(key.secret).toMatch(/^adcrm_[0-9A-Za-z]{38}$/);
    expect(key.hint).toBe(`adcrm_…${key.secret.slice(-4)}`);

    const [stored] = await ctx.db.select().from(apiKeys).where(eq(apiKeys.id, key.id));
    expect(stored.tokenHash).toBe(createHash('sha256').update(key.secret).digest('hex'));
    expect(JSON.stringify(stored)).not.toContain(key.secret);

    const list = await ctx.injectAs('admin', { method: 'GET', url: '/api/api-keys' });
    expect(list.statusCode).toBe(200);
    const listed = list.json().find((k: { id: string }) => k.id === key.id);
    expect(listed).toMatchObject({
      name: 'Ad server',
      createdBy: { id: admin.id, name: `${admin.firstName} ${admin.lastName}` },
      lastUsedAt: null,
      expiresAt: null,
    });
    expect(listed).not.toHaveProperty('secret');
    expect(list.body).not.toContain(key.secret);

    const [audit] = await ctx.db.select().from(auditEvents).where(eq(auditEvents.entityId, key.id));
    expect(audit).toMatchObject({ action: 'api_key.created', actorId: admin.id, entity: 'api_key' });
    expect(JSON.stringify(audit)).not.toContain(key.secret);
    expect(JSON.stringify(audit)).not.toContain(stored.tokenHash);
  });

  it('refuses bad input with the form messages and people who are not admins', async () => {
    const post = (payload: object, who: 'admin' | 'finance' = 'admin') =>
      ctx.injectAs(who, { method: 'POST', url: '/api/api-keys', payload });
    const noName = await post({ name: ' ', scope: 'read' });
    expect(noName.statusCode).toBe(400);
    expect(noName.json().fieldErrors).toEqual({ name: ['Name is required'] });
    expect((await post({ name: 'x', scope: 'role' })).json().fieldErrors).toEqual({
      role: ['Choose the role whose rights the key has'],
    });
    expect((await post({ name: 'x', scope: 'role', role: 'super_admin' })).statusCode).toBe(400);
    expect((await post({ name: 'x', scope: 'role', role: 'sales' })).statusCode).toBe(400);
    expect((await post({ name: 'x', scope: 'write' })).json().fieldErrors).toEqual({
      scope: ['Choose what the key may do'],
    });
    const today = new Date().toISOString().slice(0, 10);
    const expiresToday = await post({ name: 'x', scope: 'read', expiresOn: today });
    expect(expiresToday.statusCode).toBe(400);
    expect(expiresToday.json().message).toBe('The expiry date must be after today');
    expect((await post({ name: 'x', scope: 'read' }, 'finance')).statusCode).toBe(403);
    const [{ n }] = rowsOf<{ n: number }>(
      await ctx.db.execute(sql`select count(*)::int as n from api_keys where name = 'x'`),
    );
    expect(n).toBe(0);
  });

  it('a revoked key is refused at once, and revoking it again is a conflict', async () => {
    const key = await makeKey({ name: 'BI tool', scope: 'read' });
    expect((await withKey(key.secret, { url: '/api/contracts' })).statusCode).toBe(200);
    const revoke = await ctx.injectAs('admin', { method: 'POST', url: `/api/api-keys/${key.id}/revoke` });
    expect(revoke.statusCode, revoke.body).toBe(200);
    expect(revoke.json()).toMatchObject({ id: key.id, status: 'revoked' });
    const refused = await withKey(key.secret, { url: '/api/contracts' });
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({ message: 'This API key has been revoked', code: 'UNAUTHENTICATED' });
    const again = await ctx.injectAs('admin', { method: 'POST', url: `/api/api-keys/${key.id}/revoke` });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('This API key is already revoked');
  });

  it('an expired key, a key of a deactivated admin and an unknown key are refused with what is wrong', async () => {
    const inTwoDays = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const expiring = await makeKey({ name: 'Temporary', scope: 'read', expiresOn: inTwoDays });
    expect((await withKey(expiring.secret, { url: '/api/contracts' })).statusCode).toBe(200);
    const before = (await ctx.injectAs('admin', { method: 'GET', url: '/api/api-keys' }))
      .json()
      .find((k: { id: string }) => k.id === expiring.id);
    expect(before).toMatchObject({ status: 'active', expiresOn: inTwoDays });
    await ctx.db
      .update(apiKeys)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(apiKeys.id, expiring.id));
    const expired = await withKey(expiring.secret, { url: '/api/contracts' });
    expect(expired.statusCode).toBe(401);
    expect(expired.json().message).toBe('This API key has expired');
    const listed = (await ctx.injectAs('admin', { method: 'GET', url: '/api/api-keys' }))
      .json()
      .find((k: { id: string }) => k.id === expiring.id);
    expect(listed.status).toBe('expired');

    const otherAdmin = await ctx.signIn(await createTestUser(ctx.db, { role: 'admin' }));
    const response = await ctx.injectAs(otherAdmin, {
      method: 'POST',
      url: '/api/api-keys',
      payload: { name: 'Left with them', scope: 'read' },
    });
    const orphan: Created = response.json();
    await ctx.db.update(users).set({ isActive: false }).where(eq(users.id, otherAdmin.id));
    const inactive = await withKey(orphan.secret, { url: '/api/contracts' });
    expect(inactive.statusCode).toBe(401);
    expect(inactive.json().message).toBe('This API key belongs to a deactivated user');

    const demotedAdmin = await ctx.signIn(await createTestUser(ctx.db, { role: 'admin' }));
    const demotedKey: Created = (
      await ctx.injectAs(demotedAdmin, {
        method: 'POST',
        url: '/api/api-keys',
        payload: { name: 'Made before a move', scope: 'read' },
      })
    ).json();
    expect((await withKey(demotedKey.secret, { url: '/api/contracts' })).statusCode).toBe(200);
    await ctx.db.update(users).set({ role: 'sales' }).where(eq(users.id, demotedAdmin.id));
    const demoted = await withKey(demotedKey.secret, { url: '/api/contracts' });
    expect(demoted.statusCode).toBe(401);
    expect(demoted.json().message).toBe('This API key belongs to a user who no longer manages API keys');

    const unknown = await withKey(`adcrm_${'0'.repeat(32)}2wjyrI`, { url: '/api/contracts' });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toEqual({ message: 'Invalid API key', code: 'UNAUTHENTICATED' });
    const typo = await withKey(`adcrm_${'0'.repeat(32)}2wjyrJ`, { url: '/api/contracts' });
    expect(typo.statusCode).toBe(401);
    expect(typo.json()).toEqual({ message: 'Malformed API key', code: 'UNAUTHENTICATED' });
  });
});

describe('what a key may do', () => {
  it('a read-only key reads what an admin reads and changes nothing', async () => {
    const key = await makeKey({ name: 'Reader', scope: 'read' });
    expect((await withKey(key.secret, { url: '/api/audit' })).statusCode).toBe(200);
    const write = await withKey(key.secret, {
      method: 'POST',
      url: '/api/customers',
      payload: { name: 'Nope Ltd', email: 'nope@example.test' },
    });
    expect(write.statusCode).toBe(403);
    expect(write.json()).toEqual({ message: 'This API key is read-only', code: 'FORBIDDEN' });
  });

  it('a delivery key records delivery only', async () => {
    const key = await makeKey({ name: 'Ad server', scope: 'delivery' });
    const read = await withKey(key.secret, { url: '/api/contracts' });
    expect(read.statusCode).toBe(403);
    expect(read.json().message).toBe('This API key may only record delivery figures');
    const push = await ctx.app.inject({
      method: 'POST',
      url: '/api/delivery/import',
      headers: { authorization: `Bearer ${key.secret}`, 'content-type': 'text/csv' },
      payload: 'contract,line,month,impressions\n',
    });
    expect([401, 403]).not.toContain(push.statusCode);
  });

  it('a role key acts as that role, never on a person’s own account or on the keys', async () => {
    const key = await makeKey({ name: 'Finance sync', scope: 'role', role: 'finance' });
    expect((await withKey(key.secret, { url: '/api/receivables' })).statusCode).toBe(200);
    // Finance may not create customers: the role's own rule.
    const customer = await withKey(key.secret, {
      method: 'POST',
      url: '/api/customers',
      payload: { name: 'Nope Ltd', email: 'nope@example.test' },
    });
    expect(customer.statusCode).toBe(403);
    expect(customer.json().message).toBe("You don't have permission to do this");
    const me = await withKey(key.secret, { url: '/api/auth/me' });
    expect(me.statusCode).toBe(200);
    expect(me.json().role).toBe('finance');

    const admin = await makeKey({ name: 'Admin sync', scope: 'role', role: 'admin' });
    for (const [method, url, payload] of [
      ['POST', '/api/api-keys', { name: 'Another', scope: 'read' }],
      ['PUT', '/api/profile', { firstName: 'Key', lastName: 'Holder', email: 'x@example.test' }],
      ['PUT', '/api/profile/password', { currentPassword: 'secret123', newPassword: 'secret456' }],
    ] as const) {
      const refused = await withKey(admin.secret, { method, url, payload });
      expect(refused.statusCode, url).toBe(403);
      expect(refused.json().message).toBe('An API key cannot be used for this: it is for signed-in people only');
    }
    expect((await withKey(admin.secret, { url: '/api/api-keys' })).statusCode).toBe(403);
  });

  it('each change made with a key names the key in the audit trail, with its maker as the actor', async () => {
    const admin = await ctx.as('admin');
    const key = await makeKey({ name: 'CRM sync', scope: 'role', role: 'admin' });
    const created = await withKey(key.secret, {
      method: 'POST',
      url: '/api/customers',
      payload: { name: 'Keyed Customer Ltd', email: 'keyed@example.test' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const customerId = created.json().id;
    const [event] = await ctx.db.select().from(auditEvents).where(eq(auditEvents.entityId, customerId));
    expect(event).toMatchObject({ actorId: admin.id, apiKeyId: key.id, action: 'customer.created' });

    // The same change by the person has no key.
    const byHand = await ctx.injectAs('admin', {
      method: 'POST',
      url: '/api/customers',
      payload: { name: 'Typed In Ltd', email: 'typed@example.test' },
    });
    const [manual] = await ctx.db.select().from(auditEvents).where(eq(auditEvents.entityId, byHand.json().id));
    expect(manual.apiKeyId).toBeNull();

    const trail = await ctx.injectAs('admin', {
      method: 'GET',
      url: `/api/audit?entity=customer&entityId=${customerId}`,
    });
    expect(trail.json()[0]).toMatchObject({ actorId: admin.id, apiKeyName: 'CRM sync' });
  });

  it('records when and from where a key was last used', async () => {
    const key = await makeKey({ name: 'Watcher', scope: 'read' });
    await ctx.app.inject({
      method: 'GET',
      url: '/api/contracts',
      remoteAddress: '198.51.100.7',
      headers: { authorization: `Bearer ${key.secret}` },
    });
    const listed = (await ctx.injectAs('admin', { method: 'GET', url: '/api/api-keys' }))
      .json()
      .find((k: { id: string }) => k.id === key.id);
    expect(listed.lastUsedIp).toBe('198.51.100.7');
    expect(Date.now() - Date.parse(listed.lastUsedAt)).toBeLessThan(60_000);
  });
});

describe('the per-key limit', () => {
  it('counts each key on its own across instances, with RateLimit headers and 429 with Retry-After', async () => {
    const limited = await buildTestApp({ config: { API_KEY_RATE_LIMIT: 5 } });
    const other = await buildApp({ config: testConfig({ API_KEY_RATE_LIMIT: 5 }), db: limited.db, logger: false });
    await other.ready();
    try {
      const make = async (name: string) =>
        (
          await limited.injectAs('admin', { method: 'POST', url: '/api/api-keys', payload: { name, scope: 'read' } })
        ).json().secret as string;
      const [first, second] = [await make('First'), await make('Second')];
      const call = (app: typeof other, key: string) =>
        app.inject({ method: 'GET', url: '/api/products', headers: { authorization: `Bearer ${key}` } });

      const remaining: string[] = [];
      for (let i = 0; i < 5; i++) {
        const response = await call(i % 2 === 0 ? limited.app : other, first);
        expect(response.statusCode).toBe(200);
        expect(response.headers['ratelimit-limit']).toBe('5');
        remaining.push(String(response.headers['ratelimit-remaining']));
      }
      expect(remaining).toEqual(['4', '3', '2', '1', '0']);
      const refused = await call(other, first);
      expect(refused.statusCode).toBe(429);
      expect(refused.json().code).toBe('RATE_LIMITED');
      const retryAfter = Number(refused.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(Number(refused.headers['ratelimit-reset'])).toBe(retryAfter);
      // Another key has its own budget.
      expect((await call(limited.app, second)).statusCode).toBe(200);
    } finally {
      await other.close();
      await limited.close();
    }
  });
});

describe('a malformed key', () => {
  it('is refused without a database read: it is refused even while the database is closed', async () => {
    const own = await buildTestApp();
    await own.database.close();
    const response = await own.app.inject({
      method: 'GET',
      url: '/api/contracts',
      headers: { authorization: `Bearer adcrm_${'0'.repeat(32)}2wjyrX` },
    });
    expect(response.statusCode).toBe(401);
    expect(response.json().message).toBe('Malformed API key');
    await own.app.close();
  });
});
