import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestContext } from './app';

/**
 * Every JSON answer is declared (lib/response-schema.ts): what is not declared is never sent, so a new
 * column cannot leak. The routes that answer something else (a file, a CSV, a PDF, a page) are listed here.
 */
const NOT_JSON = [
  'GET /api/invoices/:id/pdf',
  'GET /api/credit-notes/:id/pdf',
  'GET /api/commissions/export',
  'GET /api/reports/export',
  'GET /api/receivables/export',
  'GET /api/accounting/exports/:id/file',
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

let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(() => ctx.close());

describe('response schemas', () => {
  it('every /api route declares its JSON answers, but for the files it lists', () => {
    const undeclared = ctx.app.routeRules
      .filter((rule) => !(rule.schema as { response?: unknown } | undefined)?.response)
      .map((rule) => `${rule.method} ${rule.url}`);
    expect(undeclared.sort()).toEqual([...NOT_JSON].sort());
  });
});
