import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestContext } from './app';

/**
 * Every JSON answer is declared (lib/response-schema.ts): what is not declared is never sent, so a new
 * column cannot leak. The routes that answer something else (a file, a CSV, a PDF) are listed here.
 */
const NOT_JSON = [
  'GET /api/invoices/:id/pdf',
  'GET /api/credit-notes/:id/pdf',
  'GET /api/commissions/export',
  'GET /api/reports/export',
  'GET /api/receivables/export',
  'GET /api/creatives/:id/download',
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
