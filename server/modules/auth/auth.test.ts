import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions, users } from '../../db/schema';
import { buildTestApp, type TestContext } from '../../test/app';
import { createTestUser, TEST_PASSWORD } from '../../test/factories';
import { LOGIN_THROTTLE } from './auth.service';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(() => ctx.close());

const login = (email: string, password: string, ip = '10.0.0.1') =>
  ctx.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress: ip });

describe('sign-in', () => {
  it('returns a token and the user, sets an httpOnly cookie, and stores only the token hash', async () => {
    const user = await createTestUser(ctx.db, { role: 'admin' });
    const response = await login(user.email.toUpperCase(), TEST_PASSWORD);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.user).toMatchObject({ id: user.id, email: user.email, role: 'admin', firstName: 'Test' });
    expect(body.user.passwordHash).toBeUndefined();
    const cookie = response.cookies.find((c) => c.name === 'sid');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', value: body.token });
    const stored = await ctx.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(stored).toHaveLength(1);
    expect(stored[0].tokenHash).not.toBe(body.token);

    const me = await ctx.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { authorization: `Bearer ${body.token}` },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ id: user.id, email: user.email });
    const byCookie = await ctx.app.inject({ method: 'GET', url: '/api/auth/me', cookies: { sid: body.token } });
    expect(byCookie.json().id).toBe(user.id);
  });

  it.each([
    [{ email: 'not-an-email', password: 'x' }, 'Please enter a valid email address'],
    [{ email: 'a@b.co', password: '' }, 'Password is required'],
    [{}, 'Please enter a valid email address'],
  ])('validates %j', async (payload, message) => {
    const response = await ctx.app.inject({ method: 'POST', url: '/api/auth/login', payload });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(message);
  });

  it('says the same for an unknown e-mail and a wrong password', async () => {
    const user = await createTestUser(ctx.db);
    const wrong = await login(user.email, 'wrong-password', '10.0.0.2');
    const unknown = await login('nobody@example.test', 'whatever', '10.0.0.2');
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json().message).toBe('Invalid email or password');
    expect(unknown.json().message).toBe('Invalid email or password');
  });

  it('refuses deactivated users and ends their sessions', async () => {
    const user = await createTestUser(ctx.db);
    const { token } = await ctx.signIn(user);
    await ctx.db.update(users).set({ isActive: false }).where(eq(users.id, user.id));
    const me = await ctx.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(me.statusCode).toBe(401);
    const response = await login(user.email, TEST_PASSWORD, '10.0.0.3');
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toMatch(/deactivated/);
  });

  it('throttles repeated failures per account with 429, even with the right password', async () => {
    const user = await createTestUser(ctx.db);
    for (let i = 0; i < LOGIN_THROTTLE.perAccount; i++) {
      expect((await login(user.email, 'nope', `10.1.0.${i}`)).statusCode).toBe(401);
    }
    const blocked = await login(user.email, TEST_PASSWORD, '10.1.1.1');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toMatch(/Too many failed sign-in attempts/);
    expect(blocked.headers['retry-after']).toBe(String(LOGIN_THROTTLE.windowMinutes * 60));
  });

  it('throttles repeated failures per address', async () => {
    for (let i = 0; i < LOGIN_THROTTLE.perAddress; i++) await login(`x${i}@example.test`, 'nope', '10.2.0.1');
    const user = await createTestUser(ctx.db);
    expect((await login(user.email, TEST_PASSWORD, '10.2.0.1')).statusCode).toBe(429);
    expect((await login(user.email, TEST_PASSWORD, '10.2.0.2')).statusCode).toBe(200);
  });
});

describe('sessions', () => {
  it('logout deletes the session', async () => {
    const { token } = await ctx.signIn(await createTestUser(ctx.db));
    const auth = { authorization: `Bearer ${token}` };
    expect((await ctx.app.inject({ method: 'POST', url: '/api/auth/logout', headers: auth })).statusCode).toBe(200);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/auth/me', headers: auth })).statusCode).toBe(401);
  });

  it('expires at the absolute limit and after idling', async () => {
    const a = await ctx.signIn(await createTestUser(ctx.db));
    const b = await ctx.signIn(await createTestUser(ctx.db));
    await ctx.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.userId, a.id));
    const idle = new Date(Date.now() - (ctx.app.sessionPolicy.idleMinutes + 1) * 60_000);
    await ctx.db.update(sessions).set({ lastUsedAt: idle }).where(eq(sessions.userId, b.id));
    for (const { token } of [a, b]) {
      const me = await ctx.app.inject({
        method: 'GET',
        url: '/api/auth/me',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(me.statusCode).toBe(401);
    }
    expect(await ctx.db.select().from(sessions).where(eq(sessions.userId, a.id))).toHaveLength(0);
  });

  it('refuses cookie-authenticated changes from another origin or none shown (CSRF), allows same-origin and bearer', async () => {
    const admin = await ctx.as('admin');
    const payload = { firstName: 'Ann', lastName: 'Lee', email: admin.email };
    const crossSite = await ctx.app.inject({
      method: 'PUT',
      url: '/api/profile',
      cookies: { sid: admin.token },
      headers: { origin: 'https://evil.example', host: 'crm.local' },
      payload,
    });
    expect(crossSite.statusCode).toBe(403);
    expect(crossSite.json().message).toBe('Cross-site request refused');
    const sameSite = await ctx.app.inject({
      method: 'PUT',
      url: '/api/profile',
      cookies: { sid: admin.token },
      headers: { origin: 'http://crm.local', host: 'crm.local' },
      payload,
    });
    expect(sameSite.statusCode).toBe(200);
    const fetchMetadata = await ctx.app.inject({
      method: 'PUT',
      url: '/api/profile',
      cookies: { sid: admin.token },
      headers: { 'sec-fetch-site': 'cross-site', host: 'crm.local' },
      payload,
    });
    expect(fetchMetadata.statusCode).toBe(403);
    const noEvidence = await ctx.app.inject({
      method: 'PUT',
      url: '/api/profile',
      cookies: { sid: admin.token },
      payload,
    });
    expect(noEvidence.statusCode).toBe(403);
  });
});

describe('responses', () => {
  it('sends security headers and JSON errors without stack traces', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'No such endpoint: GET /api/nothing-here', code: 'NOT_FOUND' });
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  });

  it('ignores the NUL character in search text and refuses it in bodies with 400', async () => {
    const query = await ctx.injectAs('admin', { method: 'GET', url: '/api/users?q=a%00b' });
    expect(query.statusCode).toBe(200);
    const body = await ctx.injectAs('admin', {
      method: 'PUT',
      url: '/api/profile',
      payload: { firstName: 'A\u0000', lastName: 'B', email: 'a@b.co' },
    });
    expect(body.statusCode).toBe(400);
    expect(body.json().message).toBe('Text cannot contain NUL characters');
  });

  it('answers malformed JSON with 400', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('The request body is not valid JSON');
  });
});
