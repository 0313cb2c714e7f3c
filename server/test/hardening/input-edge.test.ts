import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, customers } from '../../db/schema';
import { buildTestApp, type TestContext } from '../app';
import { createTestCustomer } from '../catalog-factories';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(() => ctx.close());

const INVALID_UNICODE = 'Text must be valid Unicode (it contains a lone surrogate character)';
const NOT_FOUND = { message: 'Not found', code: 'NOT_FOUND' };

/** A JSON body written by hand: JSON.stringify would escape a lone surrogate the same way, but be explicit. */
const rawJson = (text: string) => ({ payload: text, headers: { 'content-type': 'application/json' } });

async function stored() {
  const [[c], [a]] = await Promise.all([
    ctx.db.select({ n: count() }).from(customers),
    ctx.db.select({ n: count() }).from(auditEvents),
  ]);
  return { customers: c.n, audit: a.n };
}

describe('lone UTF-16 surrogates', () => {
  it.each([
    ['a high surrogate', '\\ud800'],
    ['a low surrogate', '\\udfff'],
    ['a reversed pair', '\\ude00\\ud83d'],
  ])('in a text field (%s) answer 400 naming the field, and nothing is stored', async (_name, escaped) => {
    const before = await stored();
    const response = await ctx.injectAs('admin', {
      method: 'PUT',
      url: '/api/settings/tax',
      ...rawJson(`{"defaultTaxRate":5,"taxIncluded":false,"taxLabel":"VAT ${escaped}"}`),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      message: INVALID_UNICODE,
      code: 'VALIDATION',
      fieldErrors: { taxLabel: [INVALID_UNICODE] },
    });
    const created = await ctx.injectAs('admin', {
      method: 'POST',
      url: '/api/customers',
      ...rawJson(`{"name":"Acme ${escaped}","email":"acme-${randomUUID()}@example.test"}`),
    });
    expect(created.statusCode).toBe(400);
    expect(created.json().fieldErrors).toEqual({ name: [INVALID_UNICODE] });
    expect(await stored()).toEqual(before);
  });

  it('in an object key or a nested array are refused too', async () => {
    const key = await ctx.injectAs('admin', {
      method: 'POST',
      url: '/api/customers',
      ...rawJson(`{"name":"Acme","email":"a@example.test","\\ud800":1}`),
    });
    expect(key.statusCode).toBe(400);
    expect(key.json().code).toBe('VALIDATION');
    const nested = await ctx.injectAs('admin', {
      method: 'POST',
      url: '/api/contracts',
      ...rawJson(`{"lineItems":[{"description":"x"},{"description":"\\udc00"}]}`),
    });
    expect(nested.statusCode).toBe(400);
    expect(nested.json().fieldErrors).toEqual({ 'lineItems.1.description': [INVALID_UNICODE] });
  });

  it('a deeply nested body is checked without exhausting the stack', async () => {
    const depth = 50_000;
    const response = await ctx.injectAs('admin', {
      method: 'PUT',
      url: '/api/settings/tax',
      ...rawJson(`${'['.repeat(depth)}"\\ud800"${']'.repeat(depth)}`),
    });
    expect(response.statusCode).toBe(400);
  });

  it('well-formed pairs (emoji) and accents are stored as sent', async () => {
    const name = 'Café 😀 Ñandú';
    const response = await ctx.injectAs('admin', {
      method: 'POST',
      url: '/api/customers',
      payload: { name, email: `emoji-${randomUUID()}@example.test` },
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().name).toBe(name);
  });

  it('the UTF-8 bytes of a surrogate in the query string are not decoded into one (no 500)', async () => {
    const response = await ctx.injectAs('admin', { method: 'GET', url: '/api/customers?q=%ED%A0%80' });
    expect(response.statusCode).toBe(200);
  });
});

describe('malformed and over-long ids', () => {
  const ids = ['not-an-id', '1', `${randomUUID()}x`, 'a'.repeat(99), 'a'.repeat(101), 'b'.repeat(5000), '%20'];
  const routes = [
    ['GET', '/api/customers/:id'],
    ['PATCH', '/api/customers/:id'],
    ['DELETE', '/api/customers/:id'],
    ['GET', '/api/contracts/:id'],
    ['PATCH', '/api/contracts/:id'],
    ['POST', '/api/contracts/:id/send'],
    ['PUT', '/api/packages/:id'],
  ] as const;

  it.each(routes)('%s %s answers 404 { message, code } for every one', async (method, route) => {
    for (const id of ids) {
      const response = await ctx.injectAs('admin', {
        method,
        url: route.replace(':id', id),
        ...(method === 'GET' || method === 'DELETE' ? {} : { payload: {} }),
      });
      expect(response.statusCode, `${method} ${route} with ${id.slice(0, 20)}`).toBe(404);
      expect(response.json()).toEqual(NOT_FOUND);
    }
  });

  it('an existing id still works (the guard is about the shape only)', async () => {
    const customer = await createTestCustomer(ctx.db);
    const response = await ctx.injectAs('admin', { method: 'GET', url: `/api/customers/${customer.id}` });
    expect(response.statusCode).toBe(200);
  });
});

describe("Fastify's own errors have the same body shape", () => {
  it('broken percent-encoding in the path: 400', async () => {
    const response = await ctx.injectAs('admin', { method: 'GET', url: '/api/customers/%E0%A4%A' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      message: 'The address is not valid: it has broken percent-encoding',
      code: 'BAD_REQUEST',
    });
  });

  it('a body over 1 MB: 413', async () => {
    const response = await ctx.injectAs('admin', {
      method: 'POST',
      url: '/api/customers',
      ...rawJson(JSON.stringify({ name: 'x'.repeat(1_100_000) })),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ message: 'The request body is too large', code: 'PAYLOAD_TOO_LARGE' });
  });

  it('invalid JSON and a wrong content type: 400 and 415', async () => {
    const bad = await ctx.injectAs('admin', { method: 'POST', url: '/api/customers', ...rawJson('{"name": ') });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ message: 'The request body is not valid JSON', code: 'BAD_REQUEST' });
    const type = await ctx.injectAs('admin', {
      method: 'POST',
      url: '/api/customers',
      payload: 'name=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(type.statusCode).toBe(415);
    expect(type.json()).toEqual({ message: 'Unsupported content type: send JSON', code: 'UNSUPPORTED_MEDIA_TYPE' });
  });

  describe('over a real socket', () => {
    let port = 0;
    beforeAll(async () => {
      await ctx.app.listen({ port: 0, host: '127.0.0.1' });
      port = (ctx.app.server.address() as net.AddressInfo).port;
    });

    /** Sends raw bytes and returns the status line and the body of the answer. */
    function raw(request: string): Promise<{ status: number; body: unknown }> {
      return new Promise((resolve, reject) => {
        const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
        let data = '';
        socket.on('data', (chunk) => {
          data += chunk;
        });
        socket.on('error', reject);
        socket.on('close', () => {
          const [head, body] = data.split('\r\n\r\n');
          resolve({ status: Number(head.split(' ')[1]), body: JSON.parse(body) });
        });
      });
    }

    it('headers too large: 431', async () => {
      const answer = await raw(`GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'y'.repeat(20_000)}\r\n\r\n`);
      expect(answer).toEqual({
        status: 431,
        body: { message: 'The request headers are too large', code: 'HEADERS_TOO_LARGE' },
      });
    });

    it('a URL too long for the parser: 431 as well (Node counts it with the headers)', async () => {
      const answer = await raw(`GET /api/customers/${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
      expect(answer.status).toBe(431);
      expect(answer.body).toEqual({ message: 'The request headers are too large', code: 'HEADERS_TOO_LARGE' });
    });

    it('a malformed request: 400', async () => {
      const answer = await raw('GET /api/health HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n');
      expect(answer).toEqual({ status: 400, body: { message: 'The request is malformed', code: 'BAD_REQUEST' } });
    });
  });
});
