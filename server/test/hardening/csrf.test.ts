import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestContext } from '../app';

/**
 * A change authenticated by the session cookie must show that one of our own pages sent it (decision 003):
 * the browser's `Origin`, `Sec-Fetch-Site` and `Referer` each point at us when present, and at least one is
 * present. "Us" is a whole origin, scheme, host and port: PUBLIC_URL's when configured, otherwise the
 * request's own (its Host, and X-Forwarded-Proto/Host only from a proxy TRUST_PROXY trusts). A bearer token
 * cannot be attached by another site, so bearer calls need none of them.
 */
const HOST = 'crm.local';
const PUBLIC_URL = 'https://crm.example.test';
const PROXY = '10.0.0.7';

type Headers = Record<string, string>;
type Setup = 'plain' | 'publicUrl' | 'publicHttpUrl' | 'trustedProxy';

/** The servers the tables below talk to, each on its own database. */
const SETUPS: Record<Setup, Parameters<typeof buildTestApp>[0]> = {
  plain: {},
  publicUrl: { config: { PUBLIC_URL } },
  publicHttpUrl: { config: { PUBLIC_URL: 'http://crm.internal:8080' } },
  trustedProxy: { config: { TRUST_PROXY: ['10.0.0.0/8'] } },
};

const apps = {} as Record<Setup, TestContext>;
let ctx: TestContext;
beforeAll(async () => {
  for (const [setup, options] of Object.entries(SETUPS)) apps[setup as Setup] = await buildTestApp(options);
  ctx = apps.plain;
});
afterAll(async () => {
  for (const app of Object.values(apps)) await app.close();
});

// Written out by hand: what each combination of origin evidence must get from a server reached at
// http://crm.local without PUBLIC_URL and without a trusted proxy.
const CASES: [string, Headers, 200 | 403][] = [
  ['no origin evidence at all', {}, 403],
  ['Origin of our host', { origin: `http://${HOST}` }, 200],
  ['Origin of another site', { origin: 'https://evil.example' }, 403],
  ['Origin "null" (a sandboxed frame or a file)', { origin: 'null' }, 403],
  ['Origin of our host on another port', { origin: `http://${HOST}:8080` }, 403],
  ['Origin of our host over https (another scheme)', { origin: `https://${HOST}` }, 403],
  ['Origin of our host over https on port 80', { origin: `https://${HOST}:80` }, 403],
  ['Origin of our host with the default port spelled out', { origin: `http://${HOST}:80` }, 200],
  ['Origin of our host with a path (an origin is compared, not a prefix)', { origin: `http://${HOST}/x` }, 200],
  ['Origin of a longer host that starts with ours', { origin: `http://${HOST}.evil.example` }, 403],
  ['Origin of a subdomain of our host', { origin: `http://app.${HOST}` }, 403],
  ['Sec-Fetch-Site same-origin', { 'sec-fetch-site': 'same-origin' }, 200],
  ['Sec-Fetch-Site none (typed by the user)', { 'sec-fetch-site': 'none' }, 200],
  ['Sec-Fetch-Site same-site', { 'sec-fetch-site': 'same-site' }, 403],
  ['Sec-Fetch-Site cross-site', { 'sec-fetch-site': 'cross-site' }, 403],
  ['Referer on our host only', { referer: `http://${HOST}/settings` }, 200],
  ['Referer on our host with the default port spelled out', { referer: `http://${HOST}:80/settings` }, 200],
  ['Referer on our host over https', { referer: `https://${HOST}/settings` }, 403],
  ['Referer on our host on another port', { referer: `http://${HOST}:3000/settings` }, 403],
  ['Referer on another site only', { referer: 'https://evil.example/page' }, 403],
  ['Referer naming our host in its path only', { referer: `https://evil.example/http://${HOST}/` }, 403],
  ['Referer that is not a URL', { referer: 'nonsense' }, 403],
  ['our Origin but a cross-site Sec-Fetch-Site', { origin: `http://${HOST}`, 'sec-fetch-site': 'cross-site' }, 403],
  ['our Origin but another Referer', { origin: `http://${HOST}`, referer: 'https://evil.example/' }, 403],
  ['our Origin but a Referer over https', { origin: `http://${HOST}`, referer: `https://${HOST}/settings` }, 403],
  [
    'all three ours',
    { origin: `http://${HOST}`, 'sec-fetch-site': 'same-origin', referer: `http://${HOST}/settings` },
    200,
  ],
  // No proxy is trusted: what X-Forwarded-* claim changes nothing.
  ['X-Forwarded-Proto https and an https Origin', { 'x-forwarded-proto': 'https', origin: `https://${HOST}` }, 403],
  ['X-Forwarded-Proto https and our http Origin', { 'x-forwarded-proto': 'https', origin: `http://${HOST}` }, 200],
  ['X-Forwarded-Host naming the Origin', { 'x-forwarded-host': 'evil.example', origin: 'http://evil.example' }, 403],
];

// The same evidence against other servers: [server, remote address, what the request shows, status].
const SETUP_CASES: [Setup, string, Headers, 200 | 403][] = [
  // The port in Host is part of the request's own origin; the default port is the same origin as none.
  ['plain', '127.0.0.1', { host: `${HOST}:8080`, origin: `http://${HOST}:8080` }, 200],
  ['plain', '127.0.0.1', { host: `${HOST}:8080`, origin: `http://${HOST}` }, 403],
  ['plain', '127.0.0.1', { host: `${HOST}:80`, origin: `http://${HOST}` }, 200],
  ['plain', '127.0.0.1', { host: `${HOST}:80`, referer: `http://${HOST}/settings` }, 200],
  ['plain', '127.0.0.1', { host: `${HOST}:443`, origin: `https://${HOST}` }, 403],
  // PUBLIC_URL https://crm.example.test behind a proxy that rewrites the host: PUBLIC_URL alone is ours.
  ['publicUrl', PROXY, { host: '10.0.0.7:3000', origin: PUBLIC_URL }, 200],
  ['publicUrl', PROXY, { host: '10.0.0.7:3000', origin: `${PUBLIC_URL}:443` }, 200],
  ['publicUrl', PROXY, { host: '10.0.0.7:3000', referer: `${PUBLIC_URL}/settings` }, 200],
  ['publicUrl', PROXY, { host: '10.0.0.7:3000', origin: 'http://crm.example.test' }, 403],
  ['publicUrl', PROXY, { host: '10.0.0.7:3000', origin: 'https://crm.example.test:8443' }, 403],
  ['publicUrl', PROXY, { host: '10.0.0.7:3000', origin: 'https://crm.example.test.evil.example' }, 403],
  ['publicUrl', PROXY, { host: '10.0.0.7:3000', referer: 'http://crm.example.test/settings' }, 403],
  ['publicUrl', PROXY, { host: '10.0.0.7:3000', origin: 'http://10.0.0.7:3000' }, 403],
  ['publicUrl', PROXY, { host: 'crm.example.test', origin: 'http://crm.example.test' }, 403],
  ['publicUrl', PROXY, { host: 'crm.example.test', origin: PUBLIC_URL, 'sec-fetch-site': 'same-origin' }, 200],
  // PUBLIC_URL http://crm.internal:8080: its port and scheme count.
  ['publicHttpUrl', '127.0.0.1', { host: 'crm.internal:8080', origin: 'http://crm.internal:8080' }, 200],
  ['publicHttpUrl', '127.0.0.1', { host: 'crm.internal:8080', origin: 'http://crm.internal' }, 403],
  ['publicHttpUrl', '127.0.0.1', { host: 'crm.internal:8080', origin: 'https://crm.internal:8080' }, 403],
  ['publicHttpUrl', '127.0.0.1', { host: 'crm.internal:8080', referer: 'http://crm.internal:8080/settings' }, 200],
  ['publicHttpUrl', '127.0.0.1', { host: 'crm.internal:8080', referer: 'http://crm.internal/settings' }, 403],
  // No PUBLIC_URL, TRUST_PROXY 10.0.0.0/8: a trusted proxy's X-Forwarded-Proto/Host make the request's origin.
  ['trustedProxy', PROXY, { host: HOST, 'x-forwarded-proto': 'https', origin: `https://${HOST}` }, 200],
  ['trustedProxy', PROXY, { host: HOST, 'x-forwarded-proto': 'https', origin: `https://${HOST}:443` }, 200],
  ['trustedProxy', PROXY, { host: HOST, 'x-forwarded-proto': 'https', origin: `http://${HOST}` }, 403],
  ['trustedProxy', PROXY, { host: HOST, 'x-forwarded-proto': 'https', referer: `https://${HOST}/settings` }, 200],
  ['trustedProxy', PROXY, { host: HOST, 'x-forwarded-proto': 'https', referer: `http://${HOST}/settings` }, 403],
  [
    'trustedProxy',
    PROXY,
    { host: '10.0.0.9:3000', 'x-forwarded-host': 'crm.example.test', 'x-forwarded-proto': 'https', origin: PUBLIC_URL },
    200,
  ],
  ['trustedProxy', PROXY, { host: HOST, origin: `http://${HOST}` }, 200],
  // The same headers from an address that is not a trusted proxy are ignored.
  ['trustedProxy', '198.51.100.20', { host: HOST, 'x-forwarded-proto': 'https', origin: `https://${HOST}` }, 403],
  ['trustedProxy', '198.51.100.20', { host: HOST, 'x-forwarded-proto': 'https', origin: `http://${HOST}` }, 200],
  [
    'trustedProxy',
    '198.51.100.20',
    { host: '10.0.0.9:3000', 'x-forwarded-host': 'crm.example.test', 'x-forwarded-proto': 'https', origin: PUBLIC_URL },
    403,
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

  it.each(SETUP_CASES)('%s server, from %s: %j answers %i', async (setup, remoteAddress, headers, status) => {
    const app = apps[setup];
    const admin = await app.as('admin');
    const response = await app.app.inject({
      method: 'PUT',
      url: '/api/profile',
      cookies: { sid: admin.token },
      headers,
      remoteAddress,
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
});
