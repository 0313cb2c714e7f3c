import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestContext } from './app';

/** The security headers of every answer, written out: a header added, dropped or changed fails here. */
const EXPECTED = {
  'content-security-policy':
    "default-src 'self';script-src 'self';style-src 'self' 'unsafe-inline';img-src 'self' data: blob:;" +
    "font-src 'self' data:;connect-src 'self';frame-ancestors 'none';form-action 'self';base-uri 'self';" +
    "object-src 'none'",
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'SAMEORIGIN',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};
const HSTS = 'max-age=31536000; includeSubDomains';

/** Everything but the headers that describe the content, the connection or a list's total. */
const NOT_SECURITY =
  /^(date|connection|keep-alive|content-type|content-length|content-encoding|vary|cache-control|etag|last-modified|accept-ranges|set-cookie|x-total-count.*|x-ratelimit-.*|retry-after)$/;
const securityPart = (headers: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !NOT_SECURITY.test(name)));

let ctx: TestContext;
let https: TestContext;
let clientDir: string;
beforeAll(async () => {
  clientDir = fs.mkdtempSync(path.join(os.tmpdir(), 'adcrm-client-'));
  fs.mkdirSync(path.join(clientDir, 'assets'));
  fs.writeFileSync(path.join(clientDir, 'index.html'), '<!doctype html><title>AdCRM</title><div id="root"></div>');
  fs.writeFileSync(path.join(clientDir, 'assets', 'app-abc123.js'), 'console.log("app");');
  ctx = await buildTestApp({ config: { CLIENT_DIST: clientDir } });
  https = await buildTestApp({ config: { PUBLIC_URL: 'https://crm.example.test' } });
});
afterAll(async () => {
  await ctx.close();
  await https.close();
  fs.rmSync(clientDir, { recursive: true, force: true });
});

describe('security headers', () => {
  it('are exactly the same on API answers, errors, the page and its assets', async () => {
    const me = await ctx.injectAs('admin', { method: 'GET', url: '/api/auth/me' });
    const unauthenticated = await ctx.app.inject({ method: 'GET', url: '/api/auth/me' });
    const noRoute = await ctx.app.inject({ method: 'GET', url: '/api/no-such-route' });
    const invalid = await ctx.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'x' } });
    const page = await ctx.app.inject({ method: 'GET', url: '/contracts' });
    const asset = await ctx.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect([me, unauthenticated, noRoute, invalid, page, asset].map((r) => r.statusCode)).toEqual([
      200, 401, 404, 400, 200, 200,
    ]);
    for (const response of [me, unauthenticated, noRoute, invalid, page, asset]) {
      expect(securityPart(response.headers)).toEqual(EXPECTED);
    }
  });

  it('add HSTS only when the public URL is https', async () => {
    const plain = await ctx.app.inject({ method: 'GET', url: '/api/health' });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    const secure = await https.app.inject({ method: 'GET', url: '/api/health' });
    expect(securityPart(secure.headers)).toEqual({ ...EXPECTED, 'strict-transport-security': HSTS });
  });

  it('never include the server technology', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.headers['x-powered-by']).toBeUndefined();
    expect(response.headers.server).toBeUndefined();
  });
});

describe('the inline script of index.html', () => {
  let withScript: TestContext;
  let dir: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'adcrm-client-'));
    fs.writeFileSync(
      path.join(dir, 'index.html'),
      '<!doctype html><html><head><script type="module" crossorigin src="/assets/index-1.js"></script>' +
        '<script>startFirstLoad([])</script></head><body><div id="root"></div></body></html>',
    );
    withScript = await buildTestApp({ config: { CLIENT_DIST: dir } });
  });
  afterAll(async () => {
    await withScript.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('is allowed by its hash alone, on every answer (no unsafe-inline)', async () => {
    // sha256 of "startFirstLoad([])", base64 (openssl dgst -sha256 -binary | base64).
    const policy = EXPECTED['content-security-policy'].replace(
      "script-src 'self';",
      "script-src 'self' 'sha256-4fI1Qm0vHYanKwP29XoTV8Yny9wQQ4jWIXilFZ+bAJE=';",
    );
    const page = await withScript.app.inject({ method: 'GET', url: '/' });
    const api = await withScript.app.inject({ method: 'GET', url: '/api/health' });
    expect(page.statusCode).toBe(200);
    for (const response of [page, api]) {
      expect(securityPart(response.headers)).toEqual({ ...EXPECTED, 'content-security-policy': policy });
    }
  });
});
