import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAttempts } from '../../db/schema';
import { buildTestApp, type TestContext } from '../app';
import { createTestUser, TEST_PASSWORD } from '../factories';

/**
 * Password guesses are counted in one atomic step: requests sent all at once (really in parallel on
 * PostgreSQL) cannot all be evaluated before the counter moves. Limits (LOGIN_THROTTLE): 5 failures per
 * account and 20 per address in 15 minutes.
 */
const PER_ACCOUNT = 5;
const PER_ADDRESS = 20;

let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(() => ctx.close());

const login = (email: string, password: string, ip: string) =>
  ctx.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress: ip });

function tally(statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

describe('sign-in throttle under a burst', () => {
  it('50 wrong passwords and the right one at once: at most 5 are evaluated, the rest answer 429', async () => {
    const user = await createTestUser(ctx.db);
    const burst = Array.from({ length: 51 }, (_, i) =>
      login(user.email, i === 25 ? TEST_PASSWORD : `wrong-${i}`, `10.50.0.${i}`),
    );
    const statuses = (await Promise.all(burst)).map((r) => r.statusCode);
    const counts = tally(statuses);
    const evaluated = (counts[401] ?? 0) + (counts[200] ?? 0);
    expect(evaluated, JSON.stringify(counts)).toBeLessThanOrEqual(PER_ACCOUNT);
    expect(counts[429], JSON.stringify(counts)).toBeGreaterThanOrEqual(51 - PER_ACCOUNT);
    expect(
      statuses.every((s) => s === 200 || s === 401 || s === 429),
      JSON.stringify(counts),
    ).toBe(true);
    const [{ n }] = await ctx.db.select({ n: count() }).from(loginAttempts).where(eq(loginAttempts.email, user.email));
    expect(n).toBe(evaluated);
    // The account stays locked for the window, whatever the password.
    expect((await login(user.email, TEST_PASSWORD, '10.51.0.1')).statusCode).toBe(429);
  });

  it('50 different accounts from one address at once: at most 20 are evaluated', async () => {
    const burst = Array.from({ length: 50 }, (_, i) => login(`nobody-${i}@burst.example.test`, 'wrong', '10.60.0.1'));
    const counts = tally((await Promise.all(burst)).map((r) => r.statusCode));
    expect(counts).toEqual({ 401: PER_ADDRESS, 429: 50 - PER_ADDRESS });
  });

  it('right passwords do not count: six sign-ins in a row, then a wrong one is still a plain 401', async () => {
    const user = await createTestUser(ctx.db);
    for (let i = 0; i < PER_ACCOUNT + 1; i++)
      expect((await login(user.email, TEST_PASSWORD, '10.70.0.1')).statusCode).toBe(200);
    expect((await login(user.email, 'wrong', '10.70.0.1')).statusCode).toBe(401);
  });
});

describe('current-password guesses on PUT /api/profile/password', () => {
  it('are throttled like sign-ins, per account, even when sent all at once', async () => {
    const user = await ctx.signIn(await createTestUser(ctx.db));
    const change = (currentPassword: string) =>
      ctx.injectAs(user, {
        method: 'PUT',
        url: '/api/profile/password',
        payload: { currentPassword, newPassword: 'brand-new-pass-1', confirmPassword: 'brand-new-pass-1' },
        remoteAddress: '10.80.0.1',
      });
    const burst = await Promise.all(Array.from({ length: 20 }, (_, i) => change(`guess-${i}`)));
    const counts = tally(burst.map((r) => r.statusCode));
    expect(counts).toEqual({ 400: PER_ACCOUNT, 429: 20 - PER_ACCOUNT });
    const refused = burst.find((r) => r.statusCode === 429)!;
    expect(refused.json()).toEqual({
      message: 'Too many wrong passwords. Please wait 15 minutes and try again.',
      code: 'RATE_LIMITED',
    });
    expect(refused.headers['retry-after']).toBe('900');
    // Even the right current password waits now; and the guesses counted against signing in too.
    expect((await change(TEST_PASSWORD)).statusCode).toBe(429);
    expect((await login(user.email, TEST_PASSWORD, '10.81.0.1')).statusCode).toBe(429);
  });

  it('the right current password still changes it (and does not count as a failure)', async () => {
    const user = await ctx.signIn(await createTestUser(ctx.db));
    const response = await ctx.injectAs(user, {
      method: 'PUT',
      url: '/api/profile/password',
      payload: { currentPassword: TEST_PASSWORD, newPassword: 'brand-new-pass-2', confirmPassword: 'brand-new-pass-2' },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect((await login(user.email, 'brand-new-pass-2', '10.82.0.1')).statusCode).toBe(200);
  });
});
