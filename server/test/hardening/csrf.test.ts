import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestContext } from '../app';

/**
 * A change authenticated by the session cookie must show that one of our own pages sent it (decision 003):
 * the browser's `Origin`, `Sec-Fetch-Site` and `Referer` each point at us when present, and at least one is
 * present. A bearer token cannot be attached by another site, so bearer calls need none of them.
 */
const HOST = 'crm.local';
const PUBLIC_URL = 'https://crm.example.test';

let ctx: TestContext;
let behindProxy: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
  behindProxy = await buildTestApp({ config: { PUBLIC_URL } });
});
afterAll(async () => {
  await ctx.close();
  await behindProxy.close();
});

type Headers = Record<string, string>;

// Written out by hand: what each combination of origin evidence must get.
const CASES: [string, Headers, 200 | 403][] = [
  ['no origin evidence at all', {}, 403],
  ['Origin of our host', { origin: `http://${HOST}` }, 200],
  ['Origin of another site', { origin: 'https://evil.example' }, 403],
  ['Origin "null" (a sandboxed frame or a file)', { origin: 'null' }, 403],
  ['Origin of our host on another port', { origin: `http://${HOST}:8080` }, 403],
  ['Sec-Fetch-Site same-origin', { 'sec-fetch-site': 'same-origin' }, 200],
  ['Sec-Fetch-Site none (typed by the user)', { 'sec-fetch-site': 'none' }, 200],
  ['Sec-Fetch-Site same-site', { 'sec-fetch-site': 'same-site' }, 403],
  ['Sec-Fetch-Site cross-site', { 'sec-fetch-site': 'cross-site' }, 403],
  ['Referer on our host only', { referer: `http://${HOST}/settings` }, 200],
  ['Referer on another site only', { referer: 'https://evil.example/page' }, 403],
  ['Referer that is not a URL', { referer: 'nonsense' }, 403],
  ['our Origin but a cross-site Sec-Fetch-Site', { origin: `http://${HOST}`, 'sec-fetch-site': 'cross-site' }, 403],
  ['our Origin but another Referer', { origin: `http://${HOST}`, referer: 'https://evil.example/' }, 403],
  [
    'all three ours',
    { origin: `http://${HOST}`, 'sec-fetch-site': 'same-origin', referer: `http://${HOST}/settings` },
    200,
  ],
];

describe('cookie-authenticated changes (CSRF)', () => {
  it.each(CASES)('%s: %j answers %i', async (_name, headers, status) => {
    const admin = await ctx.as('admin');
    const response = await ctx.app.inject({
      method: 'PUT',
      url: '/api/profile',
      cookies: { sid: admin.token },
      headers: { host: HOST, ...headers },
      payload: { firstName: 'Ann', lastName: 'Lee', email: admin.email },
    });
    expect(response.statusCode).toBe(status);
    if (status === 403) expect(response.json()).toMatchObject({ message: 'Cross-site request refused' });
  });

  it('a refused change changes nothing', async () => {
    const sales = await ctx.as('sales');
    const refused = await ctx.app.inject({
      method: 'PUT',
      url: '/api/profile',
      cookies: { sid: sales.token },
      headers: { host: HOST, origin: 'https://evil.example' },
      payload: { firstName: 'Mallory', lastName: 'Lee', email: sales.email },
    });
    expect(refused.statusCode).toBe(403);
    const me = await ctx.injectAs(sales, { method: 'GET', url: '/api/auth/me' });
    expect(me.json()).toMatchObject({ id: sales.id, firstName: sales.firstName });
  });

  it('bearer calls need no origin evidence; reads by cookie need none either', async () => {
    const admin = await ctx.as('admin');
    const write = await ctx.app.inject({
      method: 'PUT',
      url: '/api/profile',
      headers: { host: HOST, authorization: `Bearer ${admin.token}` },
      payload: { firstName: 'Ann', lastName: 'Lee', email: admin.email },
    });
    expect(write.statusCode).toBe(200);
    const read = await ctx.app.inject({ method: 'GET', url: '/api/auth/me', cookies: { sid: admin.token } });
    expect(read.statusCode).toBe(200);
  });

  it('behind a proxy that rewrites the host, PUBLIC_URL is our origin', async () => {
    const admin = await behindProxy.as('admin');
    const send = (headers: Headers) =>
      behindProxy.app.inject({
        method: 'PUT',
        url: '/api/profile',
        cookies: { sid: admin.token },
        headers: { host: '10.0.0.7:3000', ...headers },
        payload: { firstName: 'Ann', lastName: 'Lee', email: admin.email },
      });
    expect((await send({ origin: PUBLIC_URL })).statusCode).toBe(200);
    expect((await send({ referer: `${PUBLIC_URL}/settings` })).statusCode).toBe(200);
    expect((await send({ origin: 'http://crm.example.test' })).statusCode).toBe(403);
    expect((await send({ origin: 'https://crm.example.test.evil.example' })).statusCode).toBe(403);
  });
});
