import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { rowsOf } from '../../lib/db-rows';
import { purgeRateLimitHits } from '../../plugins/rate-limit.repo';
import { buildTestApp, type TestContext, testConfig } from '../app';

/**
 * The app-wide per-route limiter (server/plugins/rate-limit.ts) on a public route that opts in with
 * `config.rateLimit`: submitting a card on the checkout page (10 a minute per address).
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(() => ctx.close());

const token = randomBytes(24).toString('base64url');
const pay = (ip: string, headers: Record<string, string> = {}, app: FastifyInstance = ctx.app) =>
  app.inject({
    method: 'POST',
    url: `/api/checkout/${token}/pay`,
    payload: { cardNumber: '4242424242424242', expiry: '12/30', cvc: '123', name: 'A Payer' },
    headers,
    remoteAddress: ip,
  });

describe('public route rate limit', () => {
  it('counts per address and route; the 11th call in a minute answers 429 { message, code } with Retry-After', async () => {
    const first: number[] = [];
    for (let i = 0; i < 10; i++) first.push((await pay('203.0.113.77')).statusCode);
    expect(
      first.every((status) => status !== 429 && status < 500),
      String(first),
    ).toBe(true);
    const refused = await pay('203.0.113.77');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      message: expect.stringMatching(/^Too many requests\. Please try again in (1 minute|\d+ seconds)\.$/),
      code: 'RATE_LIMITED',
    });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // Another address is counted on its own; an invented X-Forwarded-For does not make one (no TRUST_PROXY).
    expect((await pay('203.0.113.78')).statusCode).not.toBe(429);
    expect((await pay('203.0.113.77', { 'x-forwarded-for': '198.51.100.1' })).statusCode).toBe(429);
  });
});

describe('the limit across app instances', () => {
  it('is one budget for every instance on the database, and starts again when its window has passed', async () => {
    // A second instance of the app on the same database, as behind a load balancer.
    const other = await buildApp({ config: testConfig(), db: ctx.db, logger: false });
    await other.ready();
    try {
      const ip = '203.0.113.90';
      const statuses: number[] = [];
      for (let i = 0; i < 10; i++) statuses.push((await pay(ip, {}, i % 2 === 0 ? ctx.app : other)).statusCode);
      expect(statuses.filter((s) => s === 429)).toEqual([]);
      expect((await pay(ip, {}, other)).statusCode).toBe(429);
      expect((await pay(ip, {}, ctx.app)).statusCode).toBe(429);

      // The window ran out (its start moved back past the minute): counting starts again at 1.
      await ctx.db.execute(
        sql`update rate_limit_hits set window_start = now() - interval '61 seconds' where key like ${`%${ip}`}`,
      );
      expect((await pay(ip, {}, other)).statusCode).not.toBe(429);
      const [row] = rowsOf<{ hits: number }>(
        await ctx.db.execute(sql`select hits from rate_limit_hits where key like ${`%${ip}`}`),
      );
      expect(row.hits).toBe(1);

      // Windows that ended over a day ago are purged; the current one stays.
      await ctx.db.execute(
        sql`update rate_limit_hits set window_start = now() - interval '2 days' where key like '%.77'`,
      );
      await purgeRateLimitHits(ctx.db);
      const keys = rowsOf<{ key: string }>(await ctx.db.execute(sql`select key from rate_limit_hits`)).map(
        (r) => r.key,
      );
      expect(keys.some((k) => k.endsWith('.77'))).toBe(false);
      expect(keys.some((k) => k.endsWith(ip))).toBe(true);
    } finally {
      await other.close();
    }
  });
});
