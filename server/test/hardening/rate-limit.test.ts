import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestContext } from '../app';

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
const pay = (ip: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({
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
