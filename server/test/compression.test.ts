import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contracts } from '../db/schema';
import { buildTestApp, type TestContext } from './app';
import { createTestCustomer } from './catalog-factories';

let ctx: TestContext;
let clientDir: string;
const script = `export const greeting = ${JSON.stringify('hello '.repeat(400))};\n`;
// Written at the highest quality, as the build does: an answer compressed on the fly would differ in its bytes.
const scriptBr = brotliCompressSync(script, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });
const scriptGz = gzipSync(script, { level: 9 });

beforeAll(async () => {
  clientDir = fs.mkdtempSync(path.join(os.tmpdir(), 'adcrm-client-'));
  fs.mkdirSync(path.join(clientDir, 'assets'));
  fs.writeFileSync(path.join(clientDir, 'index.html'), '<!doctype html><title>AdCRM</title><div id="root"></div>');
  fs.writeFileSync(path.join(clientDir, 'assets', 'app-abc123.js'), script);
  fs.writeFileSync(path.join(clientDir, 'assets', 'app-abc123.js.br'), scriptBr);
  fs.writeFileSync(path.join(clientDir, 'assets', 'app-abc123.js.gz'), scriptGz);
  ctx = await buildTestApp({ config: { CLIENT_DIST: clientDir } });
  const admin = await ctx.as('admin');
  const customer = await createTestCustomer(ctx.db);
  await ctx.db.insert(contracts).values(
    Array.from({ length: 60 }, (_, i) => ({
      customerId: customer.id,
      salesRepId: admin.id,
      description: `Compressed campaign ${i}`,
      startDate: '2026-01-01',
      paymentMode: 'portal',
      monthlyAmountCents: 10_000 + i,
      totalCents: 10_000 + i,
    })),
  );
});
afterAll(async () => {
  await ctx.close();
  fs.rmSync(clientDir, { recursive: true, force: true });
});

const list = (acceptEncoding?: string) =>
  ctx.injectAs('admin', {
    method: 'GET',
    url: '/api/contracts?limit=50',
    headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {},
  });

describe('API compression', () => {
  it('answers a 50-row list in gzip or brotli when asked, with the same JSON inside', async () => {
    const plain = await list();
    expect(plain.headers['content-encoding']).toBeUndefined();
    const rows = plain.json();
    expect(rows).toHaveLength(50);

    const gzip = await list('gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(String(gzip.headers.vary)).toMatch(/accept-encoding/i);
    expect(JSON.parse(gunzipSync(gzip.rawPayload).toString())).toEqual(rows);
    expect(gzip.rawPayload.length).toBeLessThan(plain.rawPayload.length / 4);

    const br = await list('gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(rows);
    expect(br.headers['x-total-count']).toBe('60');
  });

  it('sends answers under 1 KiB as they are', async () => {
    const me = await ctx.injectAs('admin', {
      method: 'GET',
      url: '/api/auth/me',
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(me.statusCode).toBe(200);
    expect(me.rawPayload.length).toBeLessThan(1024);
    expect(me.headers['content-encoding']).toBeUndefined();
    expect(me.json()).toMatchObject({ role: 'admin' });
  });

  it('leaves the answer alone for a client that accepts no compression', async () => {
    const identity = await list('identity');
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.json()).toHaveLength(50);
  });
});

describe('precompressed assets', () => {
  it('serves the .br or .gz file built beside an asset, by what the browser accepts', async () => {
    const url = '/assets/app-abc123.js';
    const br = await ctx.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(String(br.headers.vary)).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(Buffer.compare(br.rawPayload, scriptBr)).toBe(0);

    const gzip = await ctx.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(Buffer.compare(gzip.rawPayload, scriptGz)).toBe(0);

    const plain = await ctx.app.inject({ method: 'GET', url });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });
});
