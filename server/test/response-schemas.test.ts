import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { checkoutSessions, contractLineItems, contracts, insertionOrders, users } from '../db/schema';
import { seedDemo } from '../demo/seed';
import { type AnswerSchema, answerMismatches } from './answer-check';
import { buildTestApp, type TestContext } from './app';
import type { TestUser } from './factories';
import { card, nextAddress } from './payment-factories';
import { multipartBody, PNG } from './upload-fixtures';

/**
 * Every JSON answer is declared (lib/response-schema.ts): what is not declared is never sent, so a new
 * column cannot leak. The routes that answer something else (a file, a CSV, a PDF, a page) are listed here.
 * The declared schemas are the API document's (plugins/openapi.ts), and the answers the demo business gets are
 * what the document says: each required field present, nothing else, every type and null as written.
 */
const NOT_JSON = [
  'GET /api/invoices/:id/pdf',
  // Receipts: a payment's (staff, the client) and a checkout's (its token's holder).
  'GET /api/invoices/:id/receipt',
  'GET /api/checkout/:token/receipt/pdf',
  'GET /api/credit-notes/:id/pdf',
  'GET /api/commissions/export',
  'GET /api/reports/export',
  'GET /api/forecast/export',
  'GET /api/receivables/export',
  'GET /api/accounting/exports/:id/file',
  'GET /api/accounting/exports/:id/zip',
  'GET /api/creatives/:id/download',
  // The company's logo, as it was uploaded (a PNG or JPEG).
  'GET /api/settings/company/logo',
  // Insertion orders' PDFs, as sent and as signed (an older version's link answers a 410 JSON body).
  'GET /api/io/:token/pdf',
  'GET /api/io/:token/signed-pdf',
  'GET /api/contracts/:id/io/:version/pdf',
  'GET /api/contracts/:id/io/:version/signed-pdf',
  // The API reference (plugins/openapi.ts): Swagger UI's page, scripts and styles, and the document as it serves it.
  'GET /api/docs',
  'GET /api/docs/json',
  'GET /api/docs/yaml',
  'GET /api/docs/static/*',
  'GET /api/docs/static/index.html',
  'GET /api/docs/static/swagger-initializer.js',
];

/** The demo business is seeded as of this moment (its dates count from today). */
const NOW = new Date('2026-11-10T15:00:00Z');

type Operation = { responses: Record<string, { content?: Record<string, { schema: AnswerSchema }> }> };
type Document = { paths: Record<string, Record<string, Operation>> };

/** "GET /api/contracts/:id" -> the document's "/api/contracts/{id}" and "get". */
const inDocument = (method: string, url: string) =>
  [url.replace(/:([A-Za-z0-9_]+)/g, '{$1}'), method.toLowerCase()] as const;

/** OpenAPI 3.0's `nullable: true` (which fast-json-stringify reads) as the document writes it: a null type. */
function asDocumented(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(asDocumented);
  if (typeof schema !== 'object' || schema === null) return schema;
  const { nullable, ...rest } = schema as Record<string, unknown>;
  const copy = Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, asDocumented(value)]));
  if (nullable === true) copy.type = [...[copy.type].flat(), 'null'];
  return copy;
}

/** Where a parsed answer holds a field its document does not declare ("answer[0].secret: not in the document"). */
function undeclared(schema: AnswerSchema, value: unknown, at = 'answer'): string[] {
  if (schema.anyOf) {
    const tries = schema.anyOf.map((member) => undeclared(member, value, at));
    return tries.some((found) => found.length === 0) ? [] : tries.flat();
  }
  if (Array.isArray(value))
    return schema.items ? value.flatMap((item, i) => undeclared(schema.items!, item, `${at}[${i}]`)) : [];
  if (typeof value !== 'object' || value === null || !schema.properties) return [];
  return Object.entries(value).flatMap(([key, item]) => {
    const property = schema.properties![key];
    if (property) return undeclared(property, item, `${at}.${key}`);
    return schema.additionalProperties ? [] : [`${at}.${key}: not in the document`];
  });
}

let ctx: TestContext;
let dataDir: string;
let doc: Document;
beforeAll(async () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
  // The demo's insertion-order PDFs and the creative below are stored under DATA_DIR.
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'adcrm-answers-'));
  ctx = await buildTestApp({ config: { DATA_DIR: dataDir } });
  doc = (await ctx.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
}, 120_000);
afterAll(async () => {
  await ctx.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  vi.useRealTimers();
});

describe('response schemas', () => {
  it('every /api route declares its JSON answers, but for the files it lists', () => {
    const undeclaredRoutes = ctx.app.routeRules
      .filter((rule) => !(rule.schema as { response?: unknown } | undefined)?.response)
      .map((rule) => `${rule.method} ${rule.url}`);
    expect(undeclaredRoutes.sort()).toEqual([...NOT_JSON].sort());
  });

  it("the serialiser's schemas are the document's: the same fields, required lists and types", () => {
    const compared: string[] = [];
    const differ: string[] = [];
    for (const rule of ctx.app.routeRules) {
      const response = (rule.schema as { response?: Record<string, unknown> } | undefined)?.response ?? {};
      for (const [status, schema] of Object.entries(response)) {
        // Zod answers are converted by fastify-type-provider-zod, and serialised by zod: one source, by construction.
        if (schema instanceof z.core.$ZodType) continue;
        const [url, method] = inDocument(rule.method, rule.url);
        const documented = doc.paths[url]?.[method]?.responses[status]?.content?.['application/json']?.schema;
        compared.push(`${rule.method} ${rule.url} ${status}`);
        if (JSON.stringify(documented) !== JSON.stringify(asDocumented(schema))) {
          differ.push(`${rule.method} ${rule.url} ${status}`);
        }
      }
    }
    expect(differ).toEqual([]);
    expect(compared.length).toBeGreaterThan(120);
    // One written out: the serialiser's nullable object with its required fields, and the document's.
    const contract = ctx.app.routeRules.find((rule) => rule.method === 'GET' && rule.url === '/api/contracts/:id')!;
    const served = (contract.schema as { response: Record<string, { properties: Record<string, unknown> }> }).response;
    expect(served[200].properties.customer).toEqual({
      type: 'object',
      nullable: true,
      properties: {
        id: { type: 'string' },
        name: { type: 'string' },
        email: { type: 'string' },
        company: { type: ['string', 'null'] },
      },
      required: ['id', 'name', 'email', 'company'],
    });
  });
});

describe('the answers of the demo business', () => {
  type Signed = TestUser & { token: string };
  const signedIn = new Map<string, Signed>();
  const demo = async (email: string): Promise<Signed> => {
    if (!signedIn.has(email)) {
      const [user] = await ctx.db.select().from(users).where(eq(users.email, email));
      signedIn.set(email, await ctx.signIn({ ...user, password: 'demo1234' }));
    }
    return signedIn.get(email)!;
  };
  const get = (who: Signed | null, url: string): Promise<LightMyRequestResponse> =>
    who
      ? ctx.injectAs(who, { method: 'GET', url })
      : ctx.app.inject({ method: 'GET', url, remoteAddress: nextAddress() });
  const ids = async (who: Signed, url: string, limit = 30): Promise<string[]> => {
    const response = await get(who, url);
    expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
    return (response.json() as { id: string }[]).slice(0, limit).map((row) => row.id);
  };

  beforeAll(async () => {
    await seedDemo(ctx.db, ctx.app.config);
    // What the demo has none of: a webhook endpoint with a delivery, an API key, a creative, an export batch.
    const admin = await demo('admin@demo.test');
    const created = [
      await ctx.injectAs(admin, {
        method: 'POST',
        url: '/api/webhooks',
        payload: { url: 'http://localhost:9/hooks', description: null, events: ['invoice.paid'] },
      }),
      await ctx.injectAs(admin, { method: 'POST', url: '/api/api-keys', payload: { name: 'Ledger', scope: 'read' } }),
      await ctx.injectAs(admin, {
        method: 'POST',
        url: '/api/accounting/exports',
        payload: { from: '2026-01-01', to: '2026-10-31', format: 'journal' },
      }),
    ];
    const webhook = created[0].json() as { id: string };
    created.push(await ctx.injectAs(admin, { method: 'POST', url: `/api/webhooks/${webhook.id}/test` }));
    const client = await demo('client@demo.test');
    const [running] = await ids(client, '/api/client/contracts');
    const upload = multipartBody([
      { name: 'contractId', value: running },
      { name: 'file', filename: 'Holiday banner.png', type: 'image/png', content: PNG },
    ]);
    created.push(await ctx.injectAs(client, { method: 'POST', url: '/api/client/creatives', ...upload }));
    // A deal with a line, and one with its contract drafted.
    const sales = await demo('sales@demo.test');
    const [customerId] = await ids(admin, '/api/customers?limit=1');
    const [product] = await ids(admin, '/api/products?limit=1');
    let dealId = '';
    for (const title of ['Spring banners', 'Summer pre-roll']) {
      const deal = await ctx.injectAs(sales, {
        method: 'POST',
        url: '/api/deals',
        payload: { customerId, title, amount: 1200, lines: [{ productId: product, quantity: 1, unitPrice: 1200 }] },
      });
      created.push(deal);
      if (title === 'Spring banners') dealId = deal.json().id;
      if (title === 'Summer pre-roll') {
        created.push(await ctx.injectAs(sales, { method: 'POST', url: `/api/deals/${deal.json().id}/contract` }));
      }
    }
    // Activities: a task of the first deal, and a call done with its outcome.
    created.push(
      await ctx.injectAs(sales, {
        method: 'POST',
        url: '/api/activities',
        payload: { type: 'task', subject: 'Send the proposal', dueAt: '2026-11-12T15:00:00Z', customerId, dealId },
      }),
      await ctx.injectAs(sales, {
        method: 'POST',
        url: '/api/activities',
        payload: {
          type: 'call',
          subject: 'Intro call',
          customerId,
          durationMinutes: 15,
          outcome: 'connected',
          done: true,
        },
      }),
    );
    // A billing contact of the first customer (product.md section 19).
    created.push(
      await ctx.injectAs(sales, {
        method: 'POST',
        url: `/api/customers/${customerId}/contacts`,
        payload: { name: 'Giulia Russo', role: 'Accounts payable', email: 'ap@demo.test', isBilling: true },
      }),
    );
    // An agency of record of the first customer (product.md section 20): the demo has no agencies.
    const agency = await ctx.injectAs(admin, {
      method: 'POST',
      url: '/api/customers',
      payload: { name: 'Cardinal Media', email: 'billing@cardinal.test', kind: 'agency' },
    });
    created.push(
      agency,
      await ctx.injectAs(admin, {
        method: 'PUT',
        url: `/api/customers/${customerId}/agency`,
        payload: { agencyId: agency.json().id, billingMode: 'net', from: '2026-01-01' },
      }),
    );
    for (const response of created) expect(response.statusCode, response.body).toBeLessThan(300);
  }, 120_000);

  it('every JSON GET route answers what the document says: each required field, nothing undeclared', async () => {
    const admin = await demo('admin@demo.test');
    const sales = await demo('sales@demo.test');
    const client = await demo('client@demo.test');
    const client2 = await demo('client2@demo.test');
    const calls: { route: string; who: Signed | null; url: string }[] = [];
    const add = (route: string, who: Signed | null, urls: string[]) => {
      for (const url of urls) calls.push({ route, who, url });
    };
    const each = (pattern: string, values: string[]) => values.map((value) => pattern.replace('*', value));

    const contractIds = await ids(admin, '/api/contracts?limit=500', 100);
    const invoiceIds = await ids(admin, '/api/invoices?limit=500', 60);
    const customerIds = await ids(admin, '/api/customers?limit=500');
    const productRows = (await get(admin, '/api/products?limit=500')).json() as {
      id: string;
      inventoryRequired: boolean;
    }[];
    const inventoryIds = productRows.filter((p) => p.inventoryRequired).map((p) => p.id);
    const clientContracts = await ids(client, '/api/client/contracts');
    const webhookIds = await ids(admin, '/api/webhooks');
    const tokens = (await ctx.db.select({ token: insertionOrders.token }).from(insertionOrders)).map((r) => r.token);
    const payLinks = await ctx.db
      .select({ token: contracts.payLinkToken })
      .from(contracts)
      .where(eq(contracts.paymentMode, 'pay_link'));
    const payTokens = payLinks.flatMap((row) => (row.token ? [row.token] : []));
    expect(payTokens.length).toBeGreaterThan(0);
    const checkout = await ctx.app.inject({
      method: 'POST',
      url: `/api/pay/${payTokens[0]}/checkout`,
      remoteAddress: nextAddress(),
    });
    const checkoutTokens =
      checkout.statusCode === 200 ? [new URL(checkout.json().checkoutUrl).pathname.split('/').pop()!] : [];
    expect(checkoutTokens, checkout.body).toHaveLength(1);

    add('GET /api/openapi.json', null, ['/api/openapi.json']);
    add('GET /api/health', null, ['/api/health']);
    add('GET /api/auth/me', admin, ['/api/auth/me']);
    add('GET /api/users', admin, ['/api/users?limit=500']);
    add('GET /api/users/:id', admin, each('/api/users/*', await ids(admin, '/api/users?limit=500')));
    add('GET /api/settings/tax', admin, ['/api/settings/tax']);
    add('GET /api/settings/contracts', admin, ['/api/settings/contracts']);
    add('GET /api/settings/company', admin, ['/api/settings/company']);
    add('GET /api/settings/notifications', admin, ['/api/settings/notifications']);
    add('GET /api/api-keys', admin, ['/api/api-keys']);
    add('GET /api/webhooks', admin, ['/api/webhooks']);
    add('GET /api/webhooks/:id', admin, each('/api/webhooks/*', webhookIds));
    add('GET /api/webhooks/:id/secret', admin, each('/api/webhooks/*/secret', webhookIds));
    add('GET /api/webhooks/:id/deliveries', admin, each('/api/webhooks/*/deliveries', webhookIds));
    add('GET /api/outbox', admin, ['/api/outbox?limit=500']);
    add('GET /api/outbox/:id', admin, each('/api/outbox/*', await ids(admin, '/api/outbox?limit=500', 20)));
    add('GET /api/customers', admin, ['/api/customers?limit=500']);
    add('GET /api/customers/:id', admin, each('/api/customers/*', customerIds));
    add('GET /api/customers/:id/contacts', admin, each('/api/customers/*/contacts', customerIds));
    add('GET /api/customers/:id/timeline', sales, each('/api/customers/*/timeline?limit=200', customerIds));
    add('GET /api/products', admin, ['/api/products?limit=500']);
    add(
      'GET /api/products/:id',
      admin,
      each(
        '/api/products/*',
        productRows.map((p) => p.id),
      ),
    );
    add(
      'GET /api/products/:id/availability',
      admin,
      each('/api/products/*/availability?from=2026-11-01&to=2026-12-31', inventoryIds),
    );
    add('GET /api/inventory', admin, ['/api/inventory?from=2026-11-01&to=2026-12-31']);
    add('GET /api/inventory/:productId/:date', admin, [
      ...each('/api/inventory/*/2026-11-27', inventoryIds),
      ...each('/api/inventory/*/2026-12-24', inventoryIds),
    ]);
    add('GET /api/deals', sales, ['/api/deals?limit=500']);
    add('GET /api/deals/:id', admin, each('/api/deals/*', await ids(admin, '/api/deals?limit=500')));
    add('GET /api/pipeline/summary', sales, ['/api/pipeline/summary']);
    add('GET /api/settings/pipeline', admin, ['/api/settings/pipeline']);
    add('GET /api/activities', sales, ['/api/activities?limit=500', '/api/activities?due=upcoming&done=false']);
    add('GET /api/activities', admin, ['/api/activities?limit=500']);
    add('GET /api/forecast', admin, ['/api/forecast', '/api/forecast?months=24']);
    add('GET /api/packages', admin, ['/api/packages?limit=500']);
    add('GET /api/packages/:id', admin, each('/api/packages/*', await ids(admin, '/api/packages?limit=500')));
    add('GET /api/contracts', admin, ['/api/contracts?limit=500']);
    add('GET /api/contracts/my', sales, ['/api/contracts/my?limit=500']);
    add('GET /api/contracts/:id', admin, each('/api/contracts/*', contractIds));
    add('GET /api/renewals', admin, ['/api/renewals?limit=500']);
    add('GET /api/io/:token', null, each('/api/io/*', tokens));
    add('GET /api/contracts/:id/io', admin, each('/api/contracts/*/io', contractIds));
    add('GET /api/dashboard/stats', admin, ['/api/dashboard/stats']);
    add('GET /api/dashboard/stats', sales, ['/api/dashboard/stats']);
    add('GET /api/audit', admin, ['/api/audit?limit=500']);
    // Both demo clients: their customers have different contracts (one of them CPM lines with delivery).
    for (const [who, own] of [
      [client, clientContracts],
      [client2, await ids(client2, '/api/client/contracts')],
    ] as const) {
      add('GET /api/client/summary', who, ['/api/client/summary']);
      add('GET /api/client/contracts', who, ['/api/client/contracts']);
      add('GET /api/client/contracts/:id', who, each('/api/client/contracts/*', own));
      add('GET /api/client/contracts/:id/schedule', who, each('/api/client/contracts/*/schedule', own));
      add('GET /api/client/performance', who, ['/api/client/performance']);
      add('GET /api/client/invoices', who, ['/api/client/invoices']);
    }
    add('GET /api/contracts/:id/delivery', admin, each('/api/contracts/*/delivery', contractIds));
    // Autopay (product.md section 18): the client's methods, a customer's as staff see them, a set-up page.
    add('GET /api/client/payment-methods', client, ['/api/client/payment-methods']);
    add('GET /api/customers/:id/payment-methods', admin, each('/api/customers/*/payment-methods', customerIds));
    const setup = await ctx.injectAs(client, { method: 'POST', url: '/api/client/payment-methods/setup' });
    expect(setup.statusCode, setup.body).toBe(200);
    add('GET /api/setup/:token', null, [`/api/setup/${new URL(setup.json().url).pathname.split('/').pop()}`]);
    add('GET /api/client/creatives', client, ['/api/client/creatives']);
    add('GET /api/contracts/:id/creatives', admin, each('/api/contracts/*/creatives', clientContracts));
    add('GET /api/invoices', admin, ['/api/invoices?limit=500']);
    add('GET /api/invoices/:id', admin, each('/api/invoices/*', invoiceIds));
    add('GET /api/invoices/:id/timeline', admin, each('/api/invoices/*/timeline', invoiceIds));
    add('GET /api/contracts/:id/schedule', admin, each('/api/contracts/*/schedule', contractIds));
    add('GET /api/pay/:token', null, each('/api/pay/*', payTokens));
    add('GET /api/checkout/:token', null, each('/api/checkout/*', checkoutTokens));
    // The receipts of checkouts the demo's customers completed, and of one paid here with the test card. (On
    // PostgreSQL a checkout's expiry is checked by the server's own clock, not the pinned one the demo was made
    // by, so the one paid here is first given an hour by that clock.)
    let paidHere: string | null = null;
    for (const payToken of payTokens.slice(1)) {
      const opened = await ctx.app.inject({
        method: 'POST',
        url: `/api/pay/${payToken}/checkout`,
        remoteAddress: nextAddress(),
      });
      if (opened.statusCode !== 200) continue;
      const token = new URL(opened.json().checkoutUrl).pathname.split('/').pop()!;
      await ctx.db
        .update(checkoutSessions)
        .set({ expiresAt: sql`now() + interval '1 hour'` })
        .where(eq(checkoutSessions.token, token));
      const paid = await ctx.app.inject({
        method: 'POST',
        url: `/api/checkout/${token}/pay`,
        payload: card(),
        remoteAddress: nextAddress(),
      });
      if (paid.statusCode === 200) {
        paidHere = token;
        break;
      }
    }
    expect(paidHere, 'a pay link of the demo could be paid').not.toBeNull();
    const paidCheckouts = [
      paidHere!,
      ...(
        await ctx.db
          .select({ token: checkoutSessions.token })
          .from(checkoutSessions)
          .where(eq(checkoutSessions.status, 'completed'))
          .limit(10)
      )
        .map((row) => row.token)
        .filter((token) => token !== paidHere),
    ];
    add('GET /api/checkout/:token/receipt', null, each('/api/checkout/*/receipt', paidCheckouts));
    add('GET /api/credit-notes', admin, ['/api/credit-notes?limit=500']);
    add(
      'GET /api/credit-notes/:id',
      admin,
      each('/api/credit-notes/*', await ids(admin, '/api/credit-notes?limit=500')),
    );
    add('GET /api/customers/:id/credit', admin, each('/api/customers/*/credit', customerIds));
    add('GET /api/customers/:id/agency', admin, each('/api/customers/*/agency', customerIds));
    const agencyIds = await ids(admin, '/api/customers?kind=agency&limit=500');
    add('GET /api/agencies/:id/advertisers', admin, each('/api/agencies/*/advertisers', agencyIds));
    add(
      'GET /api/agencies/:id/statement',
      admin,
      each('/api/agencies/*/statement?from=2026-01-01&to=2026-11-30', agencyIds),
    );
    add('GET /api/settings/agencies', admin, ['/api/settings/agencies']);
    add('GET /api/notifications', sales, ['/api/notifications?limit=100']);
    for (const range of ['current_month', 'current_year'])
      add('GET /api/reports', admin, [`/api/reports?range=${range}`]);
    add('GET /api/receivables', admin, ['/api/receivables?limit=500']);
    add('GET /api/receivables/summary', admin, ['/api/receivables/summary']);
    add('GET /api/receivables/outlook', admin, ['/api/receivables/outlook']);
    add('GET /api/receivables/customers/:id', admin, each('/api/receivables/customers/*', customerIds));
    add('GET /api/commissions/summary', sales, ['/api/commissions/summary']);
    add('GET /api/commissions', admin, ['/api/commissions?limit=500']);
    add('GET /api/commissions/reps', admin, ['/api/commissions/reps']);
    add('GET /api/payouts', admin, ['/api/payouts?limit=500']);
    add('GET /api/payouts/:id', admin, each('/api/payouts/*', await ids(admin, '/api/payouts?limit=500')));
    add('GET /api/accounting/settings', admin, ['/api/accounting/settings']);
    add('GET /api/accounting/exports', admin, ['/api/accounting/exports']);
    add(
      'GET /api/accounting/exports/:id',
      admin,
      each('/api/accounting/exports/*', await ids(admin, '/api/accounting/exports')),
    );

    const wrong: string[] = [];
    const answered = new Map<string, number>();
    const lists = new Set<string>();
    const filled = new Set<string>();
    for (const call of calls) {
      const response = await get(call.who, call.url);
      const [method, pattern] = call.route.split(' ');
      const [url, verb] = inDocument(method, pattern);
      const schema =
        doc.paths[url]?.[verb]?.responses[String(response.statusCode)]?.content?.['application/json']?.schema;
      // An insertion order's older version answers 410 with the newest one's link, as the document says.
      const expected = call.route === 'GET /api/io/:token' ? [200, 410] : [200];
      if (!expected.includes(response.statusCode) || !schema) {
        wrong.push(`${call.url}: ${response.statusCode} ${response.body.slice(0, 200)}`);
        continue;
      }
      const body = response.json();
      const found = [...answerMismatches(schema, body), ...undeclared(schema, body)];
      if (found.length > 0) wrong.push(`${call.url}: ${found.slice(0, 5).join('; ')}`);
      if (response.statusCode === 200) answered.set(call.route, (answered.get(call.route) ?? 0) + 1);
      if (Array.isArray(body)) lists.add(call.route);
      if (Array.isArray(body) && body.length > 0) filled.add(call.route);
    }
    expect(wrong).toEqual([]);

    // Every GET route of the document that answers JSON was called and answered 200 at least once.
    const documented = Object.entries(doc.paths).flatMap(([url, item]) =>
      Object.entries(item)
        .filter(([verb, operation]) => verb === 'get' && operation.responses['200']?.content?.['application/json'])
        .map(() => `GET ${url.replace(/\{([^}]+)\}/g, ':$1')}`),
    );
    expect(documented.filter((route) => !answered.has(route))).toEqual([]);
    // And every list held records whose fields were checked.
    expect([...lists].filter((route) => !filled.has(route))).toEqual([]);
    expect(calls.length).toBeGreaterThan(400);
  }, 300_000);

  it('the demo pipeline: each rep has deals in every stage, the renewal deals, and targets', async () => {
    const result = await ctx.db.execute(sql`
      select u.email, s.name as stage, d.source, d.lost_reason, d.contract_id is not null as has_contract,
             d.last_activity_at < ${new Date(Date.now() - 14 * 86_400_000).toISOString()}::timestamptz as stale
      from deals d join users u on u.id = d.owner_id join pipeline_stages s on s.id = d.stage_id`);
    const rows = (result as unknown as { rows: Record<string, unknown>[] }).rows;
    const taylor = rows.filter((row) => row.email === 'sales2@demo.test' && row.source !== 'renewal');
    const byStage = (list: typeof rows) =>
      Object.fromEntries(
        ['Lead', 'Qualified', 'Proposal', 'IO sent', 'Won', 'Lost'].map((stage) => [
          stage,
          list.filter((row) => row.stage === stage).length,
        ]),
      );
    expect(byStage(taylor)).toEqual({ Lead: 2, Qualified: 2, Proposal: 1, 'IO sent': 1, Won: 1, Lost: 2 });
    expect(taylor.filter((row) => row.stale)).toHaveLength(1);
    expect(taylor.flatMap((row) => (row.lost_reason ? [row.lost_reason] : [])).sort()).toEqual([
      'Budget',
      'Chose a competitor',
    ]);
    const renewals = rows.filter((row) => row.email === 'sales@demo.test' && row.source === 'renewal');
    // At least the renewals seed's three contracts at a notice step, each with its renewal deal, open in Lead.
    expect(renewals.length).toBeGreaterThanOrEqual(3);
    expect(renewals.every((row) => row.stage === 'Lead' && !row.has_contract)).toBe(true);
    const targets = await ctx.db.execute(sql`select count(*)::int as n from forecast_targets`);
    expect((targets as unknown as { rows: { n: number }[] }).rows[0].n).toBe(12);
  });

  it("DELETE /api/products/:id: the product's fields only when it is archived, as the document's optional fields say", async () => {
    const admin = await demo('admin@demo.test');
    const unused = await ctx.injectAs(admin, {
      method: 'POST',
      url: '/api/products',
      payload: { name: 'Never sold', adType: 'pre_roll', defaultPrice: '100.00' },
    });
    expect(unused.statusCode).toBe(201);
    const removed = await ctx.injectAs(admin, { method: 'DELETE', url: `/api/products/${unused.json().id}` });
    expect(removed.statusCode).toBe(200);
    expect(Object.keys(removed.json()).sort()).toEqual(['archived', 'message']);
    expect(removed.json().archived).toBe(false);

    // A product that contracts use is archived instead, and answers with every field of a product.
    const [line] = await ctx.db.select({ productId: contractLineItems.productId }).from(contractLineItems).limit(1);
    const archived = await ctx.injectAs(admin, { method: 'DELETE', url: `/api/products/${line.productId}` });
    expect(archived.statusCode).toBe(200);
    const schema = doc.paths['/api/products/{id}'].delete.responses['200'].content!['application/json'].schema;
    expect(Object.keys(archived.json()).sort()).toEqual(Object.keys(schema.properties!).sort());
    expect(archived.json()).toMatchObject({ id: line.productId, archived: true, isActive: false });
  });

  it("GET /api/accounting/settings: the agency accounts only once saved, as the document's optional fields say", async () => {
    const admin = await demo('admin@demo.test');
    const before = (await ctx.injectAs(admin, { method: 'GET', url: '/api/accounting/settings' })).json();
    expect(before).not.toHaveProperty('agencyCommissionAccount');
    expect(before).not.toHaveProperty('agencyPayableAccount');
    const saved = await ctx.injectAs(admin, {
      method: 'PUT',
      url: '/api/accounting/settings',
      payload: { ...before, agencyCommissionAccount: '5100', agencyPayableAccount: null },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const after = (await ctx.injectAs(admin, { method: 'GET', url: '/api/accounting/settings' })).json();
    expect(after).toMatchObject({ agencyCommissionAccount: '5100', agencyPayableAccount: null });
  });
});
