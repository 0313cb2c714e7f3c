import type { AddressInfo } from 'node:net';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { loginAttempts } from '../../db/schema';
import { publicOrigin } from '../../lib/public-url';
import { buildTestApp, type TestContext } from '../app';
import { createTestUser, TEST_PASSWORD } from '../factories';

/** The address the server recorded for the last sign-in attempt with this e-mail. */
async function recordedAddress(ctx: TestContext, email: string): Promise<string> {
  const [row] = await ctx.db
    .select({ ip: loginAttempts.ip })
    .from(loginAttempts)
    .where(eq(loginAttempts.email, email))
    .orderBy(desc(loginAttempts.id))
    .limit(1);
  return row.ip;
}

const attempt = (ctx: TestContext, email: string, headers: Record<string, string>, remoteAddress = '127.0.0.1') =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password: 'wrong-password' },
    headers,
    remoteAddress,
  });

describe('TRUST_PROXY', () => {
  it('reads unset as "trust nothing", a number as hops, a list as addresses; refuses "true" and nonsense', () => {
    const parse = (TRUST_PROXY?: string) => loadConfig({ NODE_ENV: 'test', TRUST_PROXY }).TRUST_PROXY;
    expect(parse(undefined)).toBe(false);
    expect(parse('')).toBe(false);
    expect(parse('1')).toBe(1);
    expect(parse('2')).toBe(2);
    expect(parse('10.0.0.1, 192.168.0.0/16 ,loopback,::1')).toEqual(['10.0.0.1', '192.168.0.0/16', 'loopback', '::1']);
    expect(() => parse('true')).toThrow(/TRUST_PROXY=true would trust forwarded addresses from anyone/);
    expect(() => parse('proxy.internal')).toThrow(/not: proxy\.internal/);
    expect(() => parse('10.0.0.0/33')).toThrow(/TRUST_PROXY must be/);
  });

  describe('unset (the default)', () => {
    let ctx: TestContext;
    beforeAll(async () => {
      ctx = await buildTestApp();
    });
    afterAll(() => ctx.close());

    it('ignores X-Forwarded-For: invented addresses do not escape the per-address throttle', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 24; i++) {
        const response = await attempt(ctx, `nobody-${i}@example.test`, { 'x-forwarded-for': `203.0.113.${i + 1}` });
        statuses.push(response.statusCode);
      }
      // 20 failures per address in the window (LOGIN_THROTTLE.perAddress), all from the one real address.
      expect(statuses.slice(0, 20)).toEqual(Array(20).fill(401));
      expect(statuses.slice(20)).toEqual(Array(4).fill(429));
      expect(await recordedAddress(ctx, 'nobody-0@example.test')).toBe('127.0.0.1');
    });

    it('ignores X-Forwarded-Proto for the cookie and HSTS', async () => {
      const user = await createTestUser(ctx.db);
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: user.email, password: TEST_PASSWORD },
        headers: { 'x-forwarded-proto': 'https' },
        remoteAddress: '10.9.0.1',
      });
      expect(response.statusCode).toBe(200);
      expect(response.cookies.find((c) => c.name === 'sid')?.secure).toBeUndefined();
      expect(response.headers['strict-transport-security']).toBeUndefined();
    });
  });

  describe('a hop count', () => {
    let ctx: TestContext;
    beforeAll(async () => {
      ctx = await buildTestApp({ config: { TRUST_PROXY: 1 } });
    });
    afterAll(() => ctx.close());

    it('takes the address the trusted proxy appended, not the ones the client sent before it', async () => {
      await attempt(ctx, 'hop@example.test', { 'x-forwarded-for': '198.51.100.7, 203.0.113.9' });
      expect(await recordedAddress(ctx, 'hop@example.test')).toBe('203.0.113.9');
    });
  });

  describe('a list of proxy addresses', () => {
    let ctx: TestContext;
    beforeAll(async () => {
      ctx = await buildTestApp({ config: { TRUST_PROXY: ['10.0.0.0/8'] } });
    });
    afterAll(() => ctx.close());

    it('believes X-Forwarded-For only from those addresses', async () => {
      await attempt(ctx, 'via-proxy@example.test', { 'x-forwarded-for': '203.0.113.50' }, '10.1.2.3');
      expect(await recordedAddress(ctx, 'via-proxy@example.test')).toBe('203.0.113.50');
      await attempt(ctx, 'direct@example.test', { 'x-forwarded-for': '203.0.113.50' }, '198.51.100.20');
      expect(await recordedAddress(ctx, 'direct@example.test')).toBe('198.51.100.20');
    });
  });
});

describe('PUBLIC_URL on https', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await buildTestApp({ config: { PUBLIC_URL: 'https://crm.example.com' } });
  });
  afterAll(() => ctx.close());

  it('sends HSTS and a Secure session cookie even on a plain-http request', async () => {
    const user = await createTestUser(ctx.db);
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: TEST_PASSWORD },
      headers: { 'x-forwarded-proto': 'http' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.cookies.find((c) => c.name === 'sid')).toMatchObject({ secure: true, httpOnly: true });
    expect(response.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    const page = await ctx.app.inject({ method: 'GET', url: '/api/health' });
    expect(page.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });
});

describe('PUBLIC_URL on http', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await buildTestApp({ config: { PUBLIC_URL: 'http://crm.internal:8080' } });
  });
  afterAll(() => ctx.close());

  it('sends no HSTS and no Secure flag', async () => {
    const user = await createTestUser(ctx.db);
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: TEST_PASSWORD },
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(response.cookies.find((c) => c.name === 'sid')?.secure).toBeUndefined();
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });
});

describe('no PUBLIC_URL: links from the listen address', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await buildTestApp();
  });
  afterAll(() => ctx.close());

  it('keeps a specific address as it is (another name for it would be another origin, without the session)', async () => {
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = ctx.app.server.address() as AddressInfo;
    expect(publicOrigin(ctx.app)).toBe(`http://127.0.0.1:${port}`);
    await ctx.app.server.close();
  });

  it('names an unspecified address (listening everywhere) localhost', () => {
    for (const address of ['0.0.0.0', '::']) {
      const everywhere = { config: {}, server: { address: () => ({ address, port: 8123, family: 'IPv4' }) } };
      expect(publicOrigin(everywhere as unknown as typeof ctx.app)).toBe('http://localhost:8123');
    }
  });
});
