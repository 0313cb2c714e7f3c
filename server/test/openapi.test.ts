import fs from 'node:fs';
import path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv2020 from 'ajv/dist/2020.js';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { authorizePlugin } from '../plugins/authorize';
import { registerOpenApi } from '../plugins/openapi';
import { buildTestApp, type TestContext } from './app';

/**
 * The OpenAPI document at /api/openapi.json (plugins/openapi.ts): a valid OpenAPI 3.1 document that lists every
 * registered /api route, each with the permission it needs, and the browsable reference at /api/docs.
 */

/** Swagger UI's own page and assets: routes of the reference, not of the API, so not in the document. */
const REFERENCE_ROUTES = [
  'GET /api/docs',
  'GET /api/docs/json',
  'GET /api/docs/static/*',
  'GET /api/docs/static/index.html',
  'GET /api/docs/static/swagger-initializer.js',
  'GET /api/docs/yaml',
];

/** A Schema Object, as far as the checks below read one. */
type Schema = {
  type?: unknown;
  required?: string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  [key: string]: unknown;
};
type Media = Record<string, { schema: Schema }>;

type Operation = {
  operationId?: string;
  summary?: string;
  tags?: string[];
  description?: string;
  security?: unknown[];
  'x-permissions'?: unknown;
  parameters?: { name: string; in: string; required?: boolean; schema: Schema }[];
  requestBody?: { content: Media };
  responses: Record<string, { description: string; headers?: Record<string, unknown>; content?: Media }>;
};
type Document = {
  openapi: string;
  info: { title: string; version: string; description: string };
  servers: { url: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
  security: unknown[];
};

/** "GET /api/contracts/:id" -> the document's "/api/contracts/{id}" and "get". */
const inDocument = (route: string) => {
  const [method, url] = route.split(' ');
  return [url.replace(/:([A-Za-z0-9_]+)/g, '{$1}'), method.toLowerCase()] as const;
};

/**
 * Every object schema of a success answer that has properties, each with where it is in the document
 * ("GET /api/contracts/{id} 200 application/json.lineItems[]"): inside properties, items, unions and maps.
 */
function successObjects(document: Document): [string, Schema][] {
  const found: [string, Schema][] = [];
  const walk = (schema: Schema | undefined, at: string): void => {
    if (!schema || typeof schema !== 'object') return;
    if (schema.properties && Object.keys(schema.properties).length > 0) found.push([at, schema]);
    for (const [key, property] of Object.entries(schema.properties ?? {})) walk(property, `${at}.${key}`);
    walk(schema.items, `${at}[]`);
    if (typeof schema.additionalProperties === 'object') walk(schema.additionalProperties as Schema, `${at}{}`);
    for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems']) {
      for (const [i, member] of ((schema[key] as Schema[] | undefined) ?? []).entries()) walk(member, `${at}|${i}`);
    }
  };
  for (const [url, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      for (const [status, answer] of Object.entries(operation.responses)) {
        if (status >= '400') continue;
        for (const [type, media] of Object.entries(answer.content ?? {})) {
          walk(media.schema, `${method.toUpperCase()} ${url} ${status} ${type}`);
        }
      }
    }
  }
  return found;
}

let ctx: TestContext;
let doc: Document;
let op: (route: string) => Operation;
beforeAll(async () => {
  ctx = await buildTestApp();
  const response = await ctx.app.inject({ method: 'GET', url: '/api/openapi.json' });
  expect(response.statusCode, response.body).toBe(200);
  doc = response.json();
  op = (route) => {
    const [url, method] = inDocument(route);
    const found = doc.paths[url]?.[method];
    expect(found, `${route} in the document`).toBeDefined();
    return found;
  };
});
afterAll(() => ctx.close());

describe('the OpenAPI document', () => {
  it('is served to anyone at /api/openapi.json, as OpenAPI 3.1 with the version of package.json', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    const version = JSON.parse(
      fs.readFileSync(path.resolve(import.meta.dirname, '../../package.json'), 'utf8'),
    ).version;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.title).toBe('AdCRM API');
    expect(doc.info.version).toBe(version);
    for (const words of ['Authorization: Bearer', 'adcrm_', 'Idempotency-Key', 'RateLimit-Remaining', 'Retry-After']) {
      expect(doc.info.description).toContain(words);
    }
    expect(doc.components.securitySchemes).toEqual({
      bearer: { type: 'http', scheme: 'bearer', description: expect.stringContaining('adcrm_') },
      cookie: { type: 'apiKey', in: 'cookie', name: 'sid', description: expect.any(String) },
    });
    expect(doc.security).toEqual([{ bearer: [] }, { cookie: [] }]);
  });

  it('passes an OpenAPI 3.1 validator', async () => {
    const validator = new Validator();
    // A copy each time: the validator keeps the object and resolving its references changes it.
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('holds only JSON Schema 2020-12 that compiles in strict mode (no OpenAPI 3.0 leftovers such as nullable)', async () => {
    const validator = new Validator();
    await validator.validate(structuredClone(doc));
    const resolved = validator.resolveRefs() as unknown as Document;
    // The keywords OpenAPI 3.1 adds to JSON Schema; formats are annotations here (binary, uuid ...).
    const ajv = new Ajv2020({ strict: true, validateFormats: false, allowUnionTypes: true });
    ajv.addVocabulary(['discriminator', 'xml', 'externalDocs', 'example']);
    const schemas: [string, unknown][] = [];
    for (const [url, item] of Object.entries(resolved.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const at = `${method.toUpperCase()} ${url}`;
        for (const p of operation.parameters ?? []) schemas.push([`${at} ${p.in} ${p.name}`, p.schema]);
        for (const [type, media] of Object.entries(operation.requestBody?.content ?? {})) {
          schemas.push([`${at} body ${type}`, media.schema]);
        }
        for (const [status, answer] of Object.entries(operation.responses)) {
          for (const [type, media] of Object.entries(answer.content ?? {})) {
            schemas.push([`${at} ${status} ${type}`, media.schema]);
          }
        }
      }
    }
    expect(schemas.length).toBeGreaterThan(300);
    const refused = schemas.flatMap(([where, schema]) => {
      try {
        ajv.compile(schema as object);
        return [];
      } catch (error) {
        return [`${where}: ${(error as Error).message}`];
      }
    });
    expect(refused).toEqual([]);
  });

  it('lists every registered /api route, and nothing else, with the access it declares', () => {
    const registered = ctx.app.routeRules.map((rule) => `${rule.method} ${rule.url}`);
    expect(registered.filter((route) => route.startsWith('GET /api/docs')).sort()).toEqual(REFERENCE_ROUTES);
    const api = ctx.app.routeRules.filter((rule) => !REFERENCE_ROUTES.includes(`${rule.method} ${rule.url}`));
    expect(api.length).toBeGreaterThan(100);

    const missing = api
      .map((rule) => `${rule.method} ${rule.url}`)
      .filter((route) => {
        const [url, method] = inDocument(route);
        return !doc.paths[url]?.[method];
      });
    expect(missing, 'registered routes missing from the document').toEqual([]);

    const documented = Object.entries(doc.paths).flatMap(([url, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${url}`),
    );
    const expected = api
      .map((rule) => inDocument(`${rule.method} ${rule.url}`))
      .map(([u, m]) => `${m.toUpperCase()} ${u}`);
    expect(documented.filter((route) => !expected.includes(route))).toEqual([]);

    for (const rule of api) {
      const operation = op(`${rule.method} ${rule.url}`);
      const where = `${rule.method} ${rule.url}`;
      expect(operation['x-permissions'], where).toEqual(rule.access);
      const sentence =
        rule.access === 'public'
          ? 'Public.'
          : rule.access === 'signed-in'
            ? 'Any signed-in user.'
            : rule.access.length === 1
              ? `Requires ${rule.access[0]}.`
              : `Requires one of: ${rule.access.join(', ')}.`;
      expect(operation.description?.endsWith(sentence), `${where}: ${operation.description}`).toBe(true);
      expect(operation.tags, where).toEqual([rule.url.split('/')[2]]);
      // A public route needs no credentials; the others take the document's (bearer or the session cookie).
      expect(operation.security, where).toEqual(rule.access === 'public' ? [] : undefined);
      if (rule.access !== 'public') expect(operation.responses['401'], where).toBeDefined();
      if (Array.isArray(rule.access)) expect(operation.responses['403'], where).toBeDefined();
      // Every operation has a success answer with its content type, or says it has no body.
      expect(
        Object.keys(operation.responses).some((status) => status < '400'),
        where,
      ).toBe(true);
    }
    const ids = api.map((rule) => op(`${rule.method} ${rule.url}`).operationId);
    expect(new Set(ids).size).toBe(api.length);
  });

  it('POST /api/contracts: its body, its answer, and the permissions of contracts.routes.ts', () => {
    const operation = op('POST /api/contracts');
    expect(operation['x-permissions']).toEqual(['contract:write:any', 'contract:write:own']);
    expect(operation.description).toBe('Requires one of: contract:write:any, contract:write:own.');
    expect(operation.tags).toEqual(['contracts']);
    const body = operation.requestBody!.content['application/json'].schema;
    expect(body.type).toBe('object');
    // Required as shared/contracts/contract-api.ts says; lineItems defaults to [] (a package may stand for it).
    expect(body.required).toEqual(['customerId', 'startDate', 'paymentMode']);
    expect(body.properties?.paymentMode).toEqual({ type: 'string', enum: ['portal', 'pay_link'] });
    expect(body.properties?.lineItems.type).toBe('array');
    // contractResponse is a plain JSON Schema (lib/response-schema.ts), not zod: it is there too.
    const created = operation.responses['201'];
    expect(created.description).toBe('Created.');
    expect(created.content!['application/json'].schema.properties?.customerId).toBeDefined();
    // A money POST (decision 040): the optional Idempotency-Key, and its 409 and 422.
    expect(Object.keys(operation.responses).sort()).toEqual(['201', '400', '401', '403', '409', '422']);
    expect(operation.parameters?.some((p) => p.name === 'Idempotency-Key')).toBe(true);
    expect(operation.responses['400'].content!['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Error',
    });
  });

  it('every money POST of the app documents Idempotency-Key, and no other route does', () => {
    const documented = Object.entries(doc.paths)
      .flatMap(([url, methods]) =>
        Object.entries(methods as Record<string, Operation>)
          .filter(([, operation]) => (operation.parameters ?? []).some((p) => p.name === 'Idempotency-Key'))
          .map(([method]) => `${method.toUpperCase()} ${url}`),
      )
      .sort();
    expect(documented).toEqual(
      ctx.app.idempotentRoutes
        .map((route) => inDocument(route))
        .map(([url, method]) => `${method.toUpperCase()} ${url}`)
        .sort(),
    );
    expect(documented).toContain('POST /api/invoices/{id}/payments');
  });

  it("plain JSON Schema answers keep their fields and only those; OpenAPI 3.0's nullable becomes a null type", () => {
    const users = op('GET /api/users').responses['200'];
    const user = users.content!['application/json'].schema.items!;
    expect(Object.keys(user.properties!)).toContain('email');
    expect(Object.keys(user.properties!)).not.toContain('passwordHash');
    // A page of a list: the total travels in X-Total-Count.
    expect(Object.keys(users.headers!)).toEqual(['X-Total-Count', 'X-Total-Count-Lower-Bound']);
    expect(JSON.stringify(doc)).not.toContain('"nullable"');
  });

  it('path and query parameters come from the route schemas', () => {
    const schedule = op('GET /api/contracts/:id/schedule');
    expect(schedule.parameters).toContainEqual(expect.objectContaining({ name: 'id', in: 'path', required: true }));
    const list = op('GET /api/contracts');
    const names = list.parameters!.filter((p) => p.in === 'query').map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining(['limit', 'offset', 'q']));
    const delivery = op('PUT /api/contracts/:id/delivery/:lineId/:month');
    expect(delivery.parameters!.filter((p) => p.in === 'path').map((p) => p.name)).toEqual(['id', 'lineId', 'month']);
  });

  it('answers that are files, and bodies that are not JSON, have their own content types', () => {
    const pdf = op('GET /api/invoices/:id/pdf').responses['200'];
    expect(pdf.content).toEqual({
      'application/pdf': { schema: { type: 'string', format: 'binary', description: 'The PDF.' } },
    });
    expect(Object.keys(op('GET /api/credit-notes/:id/pdf').responses['200'].content!)).toEqual(['application/pdf']);
    for (const route of [
      'GET /api/reports/export',
      'GET /api/commissions/export',
      'GET /api/receivables/export',
      'GET /api/forecast/export',
    ]) {
      expect(Object.keys(op(route).responses['200'].content!), route).toEqual(['text/csv']);
    }
    expect(Object.keys(op('GET /api/creatives/:id/download').responses['200'].content!)).toEqual([
      'application/octet-stream',
    ]);
    // An accounting batch: a part's CSV (which part in the query), and all of its parts in one zip.
    const part = op('GET /api/accounting/exports/:id/file');
    expect(Object.keys(part.responses['200'].content!)).toEqual(['text/csv']);
    expect(part.parameters).toContainEqual(expect.objectContaining({ name: 'part', in: 'query', required: false }));
    expect(Object.keys(part.responses)).toEqual(expect.arrayContaining(['400', '401', '403', '404']));
    const zip = op('GET /api/accounting/exports/:id/zip');
    expect(zip.responses['200'].content).toEqual({
      'application/zip': { schema: { type: 'string', format: 'binary', description: 'The file.' } },
    });
    expect(zip['x-permissions']).toEqual(['accounting:export']);
    const csv = op('POST /api/delivery/import').requestBody!.content;
    expect(Object.keys(csv)).toEqual(['text/csv']);
    expect(csv['text/csv'].schema.type).toBe('string');
    const upload = op('POST /api/client/creatives').requestBody!.content['multipart/form-data'].schema;
    expect(upload.required).toEqual(['contractId', 'file']);
    expect(upload.properties?.file).toMatchObject({ type: 'string', format: 'binary' });
    expect(Object.keys(op('POST /api/webhooks/stripe').requestBody!.content)).toEqual(['application/json']);
  });

  it('public, signed-in and rate-limited routes say so', () => {
    const health = op('GET /api/health');
    expect(health['x-permissions']).toBe('public');
    expect(health.description).toBe('Public.');
    expect(health.security).toEqual([]);
    expect(health.responses['401']).toBeUndefined();
    const me = op('GET /api/auth/me');
    expect(me['x-permissions']).toBe('signed-in');
    expect(me.description).toBe('Any signed-in user.');
    expect(me.responses['403']).toBeUndefined();
    // The pay link's checkout is limited per client address (config.rateLimit).
    const checkout = op('POST /api/pay/:token/checkout').responses['429'];
    expect(checkout.headers).toEqual({ 'Retry-After': expect.objectContaining({ schema: { type: 'integer' } }) });
    expect(op('GET /api/contracts').responses['429']).toBeUndefined();
    expect(op('GET /api/openapi.json')['x-permissions']).toBe('public');
  });
});

describe('a typed API for generated clients', () => {
  it('every operation has a summary: a short sentence of its own, beside the description naming its permission', () => {
    const operations = Object.entries(doc.paths).flatMap(([url, item]) =>
      Object.entries(item).map(([method, operation]) => [`${method.toUpperCase()} ${url}`, operation] as const),
    );
    expect(operations.length).toBeGreaterThan(140);
    const unfit = operations
      .filter(([, operation]) => {
        const summary = operation.summary ?? '';
        // A short sentence: a capital first, no full stop, one line, not the description over again.
        return !/^[A-Z][^\n]{2,69}$/.test(summary) || summary.endsWith('.') || summary === operation.description;
      })
      .map(([route, operation]) => `${route}: ${JSON.stringify(operation.summary)}`);
    expect(unfit, 'operations without a fitting summary').toEqual([]);
    const summaries = operations.map(([, operation]) => operation.summary);
    expect(new Set(summaries).size, 'summaries are each their own').toBe(operations.length);
    // Examples as written on their routes.
    expect(op('GET /api/invoices').summary).toBe('List invoices');
    expect(op('POST /api/invoices/:id/payments').summary).toBe('Record a manual payment');
    expect(op('POST /api/invoices/:id/payments').description).toBe('Requires invoice:manage.');
    expect(op('POST /api/contracts/:id/activate').summary).toBe('Activate a contract');
    expect(op('GET /api/openapi.json')).toMatchObject({
      summary: 'Get the OpenAPI document',
      description: 'This document.\n\nPublic.',
    });
  });

  it('every object of a success answer that has properties lists those always present in required', () => {
    const objects = successObjects(doc);
    expect(objects.length).toBeGreaterThan(390);
    const without = objects.filter(([, schema]) => !Array.isArray(schema.required)).map(([at]) => at);
    expect(without, 'objects with properties but no required').toEqual([]);
    const strangers = objects.flatMap(([at, schema]) =>
      (schema.required ?? []).filter((key) => !(key in schema.properties!)).map((key) => `${at}.${key}`),
    );
    expect(strangers, 'required fields that are not properties').toEqual([]);
    // A nullable field that is always sent is required and nullable.
    const contract = op('GET /api/contracts/:id').responses['200'].content!['application/json'].schema;
    expect(contract.required).toContain('customerName');
    expect(contract.properties!.customerName).toEqual({ type: ['string', 'null'] });
    expect(contract.properties!.customer).toMatchObject({
      type: ['object', 'null'],
      required: ['id', 'name', 'email', 'company'],
    });
  });

  it('a field is left out of required only where the server omits it (this list, each checked in response-schemas.test.ts)', () => {
    const optional = successObjects(doc).flatMap(([at, schema]) => {
      const omitted = Object.keys(schema.properties!).filter((key) => !schema.required?.includes(key));
      return omitted.length > 0 ? [`${at}: ${omitted.join(', ')}`] : [];
    });
    expect(optional).toEqual([
      // Deleted: { message, archived: false }; archived because something uses it: the product too.
      'DELETE /api/products/{id} 200 application/json: id, name, description, adType, defaultPrice, priceMetric, ' +
        'defaultDuration, seasonalPrice, inventoryRequired, capacity, isActive, createdAt, updatedAt',
      // The agency accounts, once saved (before: their defaults, decision 060).
      'GET /api/accounting/settings 200 application/json: agencyCommissionAccount, agencyPayableAccount',
      'PUT /api/accounting/settings 200 application/json: agencyCommissionAccount, agencyPayableAccount',
    ]);
  });

  it('names its server: the origin that serves it, under which every path is absolute', () => {
    expect(doc.servers).toEqual([{ url: '/', description: expect.any(String) }]);
    expect(Object.keys(doc.paths).every((url) => url.startsWith('/api/'))).toBe(true);
  });

  it('says how amounts travel, as the answers show: dollars in the API, integer cents in webhook deliveries', async () => {
    const text = doc.info.description.replace(/\s+/g, ' ');
    expect(text).not.toContain('Amounts are integer cents');
    expect(text).toContain('**Amounts.** Money is in dollars in requests and answers');
    expect(text).toContain('(`1480.5` is $1,480.50)');
    expect(text).toContain('the `data` of an event carries integer cents, in fields named `...Cents`');
    const created = await ctx.injectAs('admin', {
      method: 'POST',
      url: '/api/products',
      payload: { name: 'Amounts in the reference', adType: 'pre_roll', defaultPrice: '1480.50' },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().defaultPrice).toBe(1480.5);
  });
});

describe('the API reference', () => {
  it('is served to anyone at /api/docs, its scripts too, under the security headers', async () => {
    const page = await ctx.app.inject({ method: 'GET', url: '/api/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('<div id="swagger-ui"></div>');
    expect(page.body).toContain('<title>AdCRM API reference</title>');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    const script = await ctx.app.inject({ method: 'GET', url: '/api/docs/static/swagger-ui-bundle.js' });
    expect(script.statusCode).toBe(200);
    const initializer = await ctx.app.inject({ method: 'GET', url: '/api/docs/static/swagger-initializer.js' });
    expect(initializer.body).toContain("resolveUrl('./json')");
    const json = await ctx.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(json.json().paths['/api/contracts']).toBeDefined();
  });
});

describe('a route that answers 409', () => {
  it('says when, in its own words, beside an idempotent route\'s "still in progress"', async () => {
    const app = Fastify({ logger: false });
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    await app.register(authorizePlugin);
    await registerOpenApi(app);
    const r = app.withTypeProvider<ZodTypeProvider>();
    const access = ['invoice:manage'] as const;
    const answer = { 200: z.object({ id: z.string() }) };
    r.post(
      '/api/refusing',
      { config: { access, conflict: 'The thing is closed.' }, schema: { response: answer } },
      async () => ({ id: 'a' }),
    );
    r.post(
      '/api/refusing-money',
      { config: { access, idempotent: true, conflict: 'The thing is paid.' }, schema: { response: answer } },
      async () => ({ id: 'b' }),
    );
    r.post('/api/plain', { config: { access }, schema: { response: answer } }, async () => ({ id: 'c' }));
    await app.ready();
    const document = app.swagger() as unknown as Document;
    await app.close();

    expect(document.paths['/api/refusing'].post.responses['409'].description).toBe('The thing is closed (CONFLICT).');
    expect(document.paths['/api/refusing-money'].post.responses['409'].description).toBe(
      'The thing is paid (CONFLICT). Also: A request with this Idempotency-Key is still in progress.',
    );
    expect(document.paths['/api/plain'].post.responses['409']).toBeUndefined();
  });
});

describe('an idempotent route', () => {
  it('documents the optional Idempotency-Key header and its 409 and 422', async () => {
    // The real plugins on a bare app with two routes, one of them marked idempotent as money POSTs are.
    const app = Fastify({ logger: false });
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    await app.register(authorizePlugin);
    await registerOpenApi(app);
    const r = app.withTypeProvider<ZodTypeProvider>();
    const body = z.object({ amount: z.number().int() });
    const answer = { 201: z.object({ id: z.string() }) };
    const config = { access: ['invoice:manage'] as const };
    // `idempotent` is read from the route's config as the money POSTs will declare it.
    const idempotent = { ...config, idempotent: true } as typeof config;
    r.post('/api/things', { config: idempotent, schema: { body, response: answer } }, async () => ({ id: 'a' }));
    r.post('/api/others', { config, schema: { body, response: answer } }, async () => ({ id: 'b' }));
    await app.ready();
    const document = app.swagger() as unknown as Document;
    await app.close();

    const things = document.paths['/api/things'].post;
    expect(things.parameters).toEqual([
      {
        in: 'header',
        name: 'Idempotency-Key',
        required: false,
        description: expect.stringContaining('24 hours'),
        schema: { type: 'string', minLength: 1, maxLength: 255 },
      },
    ]);
    expect(Object.keys(things.responses).sort()).toEqual(['201', '400', '401', '403', '409', '422']);
    const others = document.paths['/api/others'].post;
    expect(others.parameters).toBeUndefined();
    expect(Object.keys(others.responses).sort()).toEqual(['201', '400', '401', '403']);
    expect((await new Validator().validate(document as never)).valid).toBe(true);
  });
});
