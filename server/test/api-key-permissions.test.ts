import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestContext } from './app';

/**
 * What an API key of each scope may call (product.md section 16, decision 038), written out by hand like the
 * route x role matrix (route-permissions.test.ts): one row per route, one column per kind of key.
 *
 *   ok   the key gets through (any answer but 401/403, never a 5xx)
 *   403  refused by the role's permissions ("You don't have permission to do this")
 *   ro   a read-only key asked to change something ("This API key is read-only")
 *   dl   a delivery key asked for anything but recording delivery ("This API key may only record delivery figures")
 *   me   a person's own account or the keys themselves, refused to every key
 *
 * Columns: `read` (an admin's reads), `admin`, `mgr` and `fin` (a staff role's rights), `delivery`.
 * A registered route without a row fails, and so does a row whose route does not exist.
 */
const ok = 'ok';
const ro = 'ro';
const dl = 'dl';
const me = 'me';
type Outcome = typeof ok | typeof ro | typeof dl | typeof me | 403;
type Row = [route: string, read: Outcome, admin: Outcome, mgr: Outcome, fin: Outcome, delivery: Outcome];

const MESSAGES: Record<Exclude<Outcome, typeof ok>, string> = {
  403: "You don't have permission to do this",
  ro: 'This API key is read-only',
  dl: 'This API key may only record delivery figures',
  me: 'An API key cannot be used for this: it is for signed-in people only',
};

// biome-ignore format: a table is easier to review with aligned columns
const MATRIX: Row[] = [
  // route                                              read  admin mgr   fin   delivery
  ['GET /api/openapi.json',                              ok,   ok,   ok,   ok,   ok],
  ['GET /api/docs',                                     ok,   ok,   ok,   ok,   ok],
  ['GET /api/docs/static/index.html',                   ok,   ok,   ok,   ok,   ok],
  ['GET /api/docs/static/swagger-initializer.js',       ok,   ok,   ok,   ok,   ok],
  ['GET /api/docs/json',                                ok,   ok,   ok,   ok,   ok],
  ['GET /api/docs/yaml',                                ok,   ok,   ok,   ok,   ok],
  ['GET /api/docs/static/*',                            ok,   ok,   ok,   ok,   ok],
  ['GET /api/health',                                   ok,   ok,   ok,   ok,   ok],
  ['POST /api/auth/login',                              ok,   ok,   ok,   ok,   ok],
  ['POST /api/auth/logout',                             ok,   ok,   ok,   ok,   ok],
  ['GET /api/auth/me',                                  ok,   ok,   ok,   ok,   dl],
  ['GET /api/users',                                    ok,   ok,   ok,   403,  dl],
  ['GET /api/users/:id',                                ok,   ok,   ok,   403,  dl],
  ['POST /api/users',                                   ro,   ok,   403,  403,  dl],
  ['PATCH /api/users/:id',                              ro,   ok,   403,  403,  dl],
  ['DELETE /api/users/:id',                             ro,   ok,   403,  403,  dl],
  ['GET /api/settings/tax',                             ok,   ok,   ok,   ok,   dl],
  ['PUT /api/settings/tax',                             ro,   ok,   403,  403,  dl],
  ['GET /api/settings/contracts',                       ok,   ok,   ok,   ok,   dl],
  ['PUT /api/settings/contracts',                       ro,   ok,   403,  403,  dl],
  ['GET /api/settings/company',                         ok,   ok,   403,  403,  dl],
  ['PUT /api/settings/company',                         ro,   ok,   403,  403,  dl],
  ['PUT /api/settings/company/logo',                    ro,   ok,   403,  403,  dl],
  ['GET /api/settings/company/logo',                    ok,   ok,   ok,   ok,   ok],
  ['GET /api/settings/notifications',                   me,   me,   me,   me,   me],
  ['PUT /api/settings/notifications',                   me,   me,   me,   me,   me],
  ['PUT /api/profile',                                  me,   me,   me,   me,   me],
  ['PUT /api/profile/password',                         me,   me,   me,   me,   me],
  ['GET /api/api-keys',                                 me,   me,   me,   me,   me],
  ['POST /api/api-keys',                                me,   me,   me,   me,   me],
  ['POST /api/api-keys/:id/revoke',                     me,   me,   me,   me,   me],
  ['GET /api/accounting/settings',                      ok,   ok,   403,  ok,   dl],
  ['PUT /api/accounting/settings',                      ro,   ok,   403,  403,  dl],
  ['GET /api/accounting/exports',                       ok,   ok,   403,  ok,   dl],
  ['POST /api/accounting/exports',                      ro,   ok,   403,  ok,   dl],
  ['GET /api/accounting/exports/:id',                   ok,   ok,   403,  ok,   dl],
  ['GET /api/accounting/exports/:id/file',              ok,   ok,   403,  ok,   dl],
  ['GET /api/accounting/exports/:id/zip',               ok,   ok,   403,  ok,   dl],
  ['GET /api/webhooks',                                 me,   me,   me,   me,   me],
  ['POST /api/webhooks',                                me,   me,   me,   me,   me],
  ['GET /api/webhooks/:id',                             me,   me,   me,   me,   me],
  ['PATCH /api/webhooks/:id',                           me,   me,   me,   me,   me],
  ['DELETE /api/webhooks/:id',                          me,   me,   me,   me,   me],
  ['POST /api/webhooks/:id/rotate-secret',              me,   me,   me,   me,   me],
  ['GET /api/webhooks/:id/secret',                      me,   me,   me,   me,   me],
  ['GET /api/webhooks/:id/deliveries',                  me,   me,   me,   me,   me],
  ['POST /api/webhooks/:id/deliveries/:deliveryId/resend',me,   me,   me,   me,   me],
  ['POST /api/webhooks/:id/test',                       me,   me,   me,   me,   me],
  ['GET /api/outbox',                                   ok,   ok,   403,  403,  dl],
  ['GET /api/outbox/:id',                               ok,   ok,   403,  403,  dl],
  ['GET /api/dashboard/stats',                          ok,   ok,   ok,   ok,   dl],
  ['GET /api/audit',                                    ok,   ok,   403,  403,  dl],
  ['GET /api/client/contracts',                         403,  403,  403,  403,  dl],
  ['GET /api/notifications',                            me,   me,   me,   me,   me],
  ['POST /api/notifications/:id/read',                  me,   me,   me,   me,   me],
  ['POST /api/notifications/read-all',                  me,   me,   me,   me,   me],
  ['GET /api/reports',                                  ok,   ok,   ok,   ok,   dl],
  ['GET /api/reports/export',                           ok,   ok,   ok,   ok,   dl],
  ['GET /api/customers',                                ok,   ok,   ok,   ok,   dl],
  ['GET /api/customers/:id',                            ok,   ok,   ok,   ok,   dl],
  ['POST /api/customers',                               ro,   ok,   ok,   403,  dl],
  ['PATCH /api/customers/:id',                          ro,   ok,   ok,   403,  dl],
  ['DELETE /api/customers/:id',                         ro,   ok,   403,  403,  dl],
  ['GET /api/customers/:id/contacts',                   ok,   ok,   ok,   ok,   dl],
  ['POST /api/customers/:id/contacts',                  ro,   ok,   ok,   403,  dl],
  ['PATCH /api/customers/:id/contacts/:contactId',      ro,   ok,   ok,   403,  dl],
  ['DELETE /api/customers/:id/contacts/:contactId',     ro,   ok,   ok,   403,  dl],
  ['GET /api/customers/:id/timeline',                   ok,   ok,   ok,   ok,   dl],
  ['GET /api/customers/:id/agency',                     ok,   ok,   ok,   ok,   dl],
  ['PUT /api/customers/:id/agency',                     ro,   ok,   ok,   403,  dl],
  ['DELETE /api/customers/:id/agency',                  ro,   ok,   ok,   403,  dl],
  ['GET /api/agencies/:id/advertisers',                 ok,   ok,   ok,   ok,   dl],
  ['GET /api/agencies/:id/statement',                   ok,   ok,   ok,   ok,   dl],
  ['GET /api/settings/agencies',                        ok,   ok,   ok,   ok,   dl],
  ['PUT /api/settings/agencies',                        ro,   ok,   403,  403,  dl],
  ['GET /api/products',                                 ok,   ok,   ok,   ok,   dl],
  ['GET /api/products/:id',                             ok,   ok,   ok,   ok,   dl],
  ['POST /api/products',                                ro,   ok,   403,  403,  dl],
  ['PATCH /api/products/:id',                           ro,   ok,   403,  403,  dl],
  ['DELETE /api/products/:id',                          ro,   ok,   403,  403,  dl],
  ['GET /api/packages',                                 ok,   ok,   ok,   ok,   dl],
  ['GET /api/packages/:id',                             ok,   ok,   ok,   ok,   dl],
  ['POST /api/packages',                                ro,   ok,   ok,   403,  dl],
  ['PUT /api/packages/:id',                             ro,   ok,   ok,   403,  dl],
  ['DELETE /api/packages/:id',                          ro,   ok,   ok,   403,  dl],
  ['GET /api/contracts',                                ok,   ok,   ok,   ok,   dl],
  ['GET /api/contracts/my',                             ok,   ok,   ok,   ok,   dl],
  ['GET /api/contracts/:id',                            ok,   ok,   ok,   ok,   dl],
  ['POST /api/contracts',                               ro,   ok,   ok,   403,  dl],
  ['PATCH /api/contracts/:id',                          ro,   ok,   ok,   403,  dl],
  ['DELETE /api/contracts/:id',                         ro,   ok,   ok,   403,  dl],
  ['POST /api/contracts/:id/generate-payment-link',     ro,   ok,   ok,   403,  dl],
  ['POST /api/contracts/:id/send',                      ro,   ok,   ok,   403,  dl],
  ['POST /api/contracts/:id/activate',                  ro,   ok,   ok,   403,  dl],
  ['POST /api/contracts/:id/pause',                     ro,   ok,   ok,   403,  dl],
  ['POST /api/contracts/:id/resume',                    ro,   ok,   ok,   403,  dl],
  ['POST /api/contracts/:id/cancel',                    ro,   ok,   ok,   403,  dl],
  ['POST /api/contracts/:id/resend',                    ro,   ok,   ok,   403,  dl],
  ['POST /api/contracts/:id/resend-receipt',            ro,   ok,   ok,   403,  dl],
  ['GET /api/contracts/:id/schedule',                   ok,   ok,   ok,   ok,   dl],
  ['POST /api/contracts/:id/lines',                     ro,   ok,   ok,   403,  dl],
  ['POST /api/contracts/:id/lines/:lineId/end',         ro,   ok,   ok,   403,  dl],
  ['POST /api/contracts/:id/lines/preview',             ro,   ok,   ok,   403,  dl],
  ['POST /api/contracts/:id/lines/:lineId/end/preview', ro,   ok,   ok,   403,  dl],
  ['POST /api/contracts/:id/renew',                     ro,   ok,   ok,   403,  dl],
  ['GET /api/renewals',                                 ok,   ok,   ok,   ok,   dl],
  ['GET /api/invoices',                                 ok,   ok,   ok,   ok,   dl],
  ['GET /api/client/invoices',                          403,  403,  403,  403,  dl],
  ['GET /api/invoices/:id',                             ok,   ok,   ok,   ok,   dl],
  ['GET /api/invoices/:id/pdf',                         ok,   ok,   ok,   ok,   dl],
  ['GET /api/invoices/:id/receipt',                     ok,   ok,   ok,   ok,   dl],
  ['GET /api/invoices/:id/timeline',                    ok,   ok,   ok,   ok,   dl],
  ['POST /api/invoices/:id/resend',                     ro,   ok,   403,  ok,   dl],
  ['POST /api/invoices/:id/payments',                   ro,   ok,   403,  ok,   dl],
  ['POST /api/invoices/:id/void',                       ro,   ok,   403,  ok,   dl],
  ['POST /api/invoices/:id/checkout',                   ro,   403,  403,  403,  dl],
  ['POST /api/client/pay-all',                          ro,   403,  403,  403,  dl],
  ['POST /api/invoices/:id/credit-notes',               ro,   ok,   403,  ok,   dl],
  ['GET /api/credit-notes',                             ok,   ok,   ok,   ok,   dl],
  ['GET /api/credit-notes/:id',                         ok,   ok,   ok,   ok,   dl],
  ['GET /api/credit-notes/:id/pdf',                     ok,   ok,   ok,   ok,   dl],
  ['GET /api/customers/:id/credit',                     ok,   ok,   ok,   ok,   dl],
  ['POST /api/customers/:id/credit-refunds',            ro,   ok,   403,  ok,   dl],
  ['GET /api/io/:token',                                ok,   ok,   ok,   ok,   ok],
  ['GET /api/io/:token/pdf',                            ok,   ok,   ok,   ok,   ok],
  ['GET /api/io/:token/signed-pdf',                     ok,   ok,   ok,   ok,   ok],
  ['POST /api/io/:token/accept',                        ok,   ok,   ok,   ok,   ok],
  ['POST /api/io/:token/decline',                       ok,   ok,   ok,   ok,   ok],
  ['GET /api/contracts/:id/io',                         ok,   ok,   ok,   ok,   dl],
  ['GET /api/contracts/:id/io/:version/pdf',            ok,   ok,   ok,   ok,   dl],
  ['GET /api/contracts/:id/io/:version/signed-pdf',     ok,   ok,   ok,   ok,   dl],
  ['POST /api/contracts/:id/io/verify',                 ro,   ok,   ok,   ok,   dl],
  ['GET /api/pay/:token',                               ok,   ok,   ok,   ok,   ok],
  ['POST /api/pay/:token/checkout',                     ok,   ok,   ok,   ok,   ok],
  ['GET /api/checkout/:token',                          ok,   ok,   ok,   ok,   ok],
  ['POST /api/checkout/:token/pay',                     ok,   ok,   ok,   ok,   ok],
  ['GET /api/checkout/:token/receipt',                  ok,   ok,   ok,   ok,   ok],
  ['GET /api/checkout/:token/receipt/pdf',              ok,   ok,   ok,   ok,   ok],
  ['POST /api/webhooks/stripe',                         ok,   ok,   ok,   ok,   ok],
  ['GET /api/commissions/summary',                      ok,   ok,   ok,   ok,   dl],
  ['GET /api/commissions',                              ok,   ok,   ok,   ok,   dl],
  ['GET /api/commissions/export',                       ok,   ok,   ok,   ok,   dl],
  ['GET /api/receivables',                              ok,   ok,   ok,   ok,   dl],
  ['GET /api/receivables/summary',                      ok,   ok,   ok,   ok,   dl],
  ['GET /api/receivables/export',                       ok,   ok,   ok,   ok,   dl],
  ['GET /api/receivables/outlook',                      ok,   ok,   ok,   ok,   dl],
  ['GET /api/receivables/customers/:id',                ok,   ok,   ok,   ok,   dl],
  ['GET /api/commissions/reps',                         ok,   ok,   ok,   ok,   dl],
  ['GET /api/payouts',                                  ok,   ok,   ok,   ok,   dl],
  ['GET /api/payouts/:id',                              ok,   ok,   ok,   ok,   dl],
  ['POST /api/payouts/request',                         ro,   403,  403,  403,  dl],
  ['POST /api/payouts/:id/approve',                     ro,   ok,   403,  ok,   dl],
  ['POST /api/payouts/:id/reject',                      ro,   ok,   403,  ok,   dl],
  ['POST /api/payouts/:id/disburse',                    ro,   ok,   403,  ok,   dl],
  ['POST /api/auth/set-password',                       ok,   ok,   ok,   ok,   ok],
  ['POST /api/customers/:id/invite',                    ro,   ok,   ok,   403,  dl],
  ['POST /api/users/:id/send-password-reset',           ro,   ok,   403,  403,  dl],
  ['POST /api/client/creatives',                        ro,   403,  403,  403,  dl],
  ['GET /api/client/creatives',                         403,  403,  403,  403,  dl],
  ['GET /api/contracts/:id/creatives',                  ok,   ok,   ok,   ok,   dl],
  ['GET /api/creatives/:id/download',                   ok,   ok,   ok,   ok,   dl],
  ['DELETE /api/creatives/:id',                         ro,   ok,   ok,   403,  dl],
  ['GET /api/contracts/:id/delivery',                   ok,   ok,   ok,   ok,   dl],
  ['GET /api/client/performance',                       403,  403,  403,  403,  dl],
  ['PUT /api/contracts/:id/delivery/:lineId/:month',    ro,   ok,   ok,   ok,   ok],
  ['POST /api/delivery/import',                         ro,   ok,   ok,   ok,   ok],
  ['POST /api/delivery',                                ro,   ok,   ok,   ok,   ok],
  ['GET /api/client/summary',                           403,  403,  403,  403,  dl],
  ['GET /api/client/contracts/:id',                     403,  403,  403,  403,  dl],
  ['GET /api/client/contracts/:id/schedule',            403,  403,  403,  403,  dl],
  ['POST /api/client/contracts/:id/billing-portal',     ro,   403,  403,  403,  dl],
  // Autopay (product.md section 18)
  ['GET /api/client/payment-methods',                   403,  403,  403,  403,  dl],
  ['POST /api/client/payment-methods/setup',            ro,   403,  403,  403,  dl],
  ['POST /api/client/payment-methods/:id/default',      ro,   403,  403,  403,  dl],
  ['DELETE /api/client/payment-methods/:id',            ro,   403,  403,  403,  dl],
  ['PUT /api/client/autopay',                           ro,   403,  403,  403,  dl],
  ['GET /api/setup/:token',                             ok,   ok,   ok,   ok,   ok],
  ['POST /api/setup/:token',                            ok,   ok,   ok,   ok,   ok],
  ['POST /api/setup/:token/stripe',                     ok,   ok,   ok,   ok,   ok],
  ['GET /api/customers/:id/payment-methods',            ok,   ok,   403,  ok,   dl],
  ['POST /api/customers/:id/payment-setup-link',        ro,   ok,   403,  ok,   dl],
  ['PUT /api/customers/:id/autopay',                    ro,   ok,   403,  ok,   dl],
  ['GET /api/deals',                                   ok,   ok,   ok,   403,  dl],
  ['POST /api/deals',                                  ro,   ok,   ok,   403,  dl],
  ['GET /api/deals/:id',                               ok,   ok,   ok,   403,  dl],
  ['PATCH /api/deals/:id',                             ro,   ok,   ok,   403,  dl],
  ['DELETE /api/deals/:id',                            ro,   ok,   ok,   403,  dl],
  ['POST /api/deals/:id/move',                         ro,   ok,   ok,   403,  dl],
  ['POST /api/deals/:id/lose',                         ro,   ok,   ok,   403,  dl],
  ['POST /api/deals/:id/contract',                     ro,   ok,   ok,   403,  dl],
  ['GET /api/pipeline/summary',                        ok,   ok,   ok,   403,  dl],
  ['GET /api/settings/pipeline',                       ok,   ok,   ok,   403,  dl],
  ['PUT /api/settings/pipeline',                       ro,   ok,   403,  403,  dl],
  ['GET /api/activities',                              ok,   ok,   ok,   403,  dl],
  ['POST /api/activities',                             ro,   ok,   ok,   403,  dl],
  ['PATCH /api/activities/:id',                        ro,   ok,   ok,   403,  dl],
  ['DELETE /api/activities/:id',                       ro,   ok,   ok,   403,  dl],
  ['POST /api/activities/:id/complete',                ro,   ok,   ok,   403,  dl],
  ['GET /api/forecast',                                ok,   ok,   ok,   403,  dl],
  ['GET /api/forecast/export',                         ok,   ok,   ok,   403,  dl],
  ['PUT /api/forecast/targets',                        ro,   ok,   ok,   403,  dl],
  ['POST /api/invoices/:id/charge',                     ro,   ok,   403,  ok,   dl],
  ['POST /api/contracts/:id/billing-portal',            ro,   ok,   ok,   ok,   dl],
  ['GET /api/products/:id/availability',                ok,   ok,   ok,   403,  dl],
  ['GET /api/inventory',                                ok,   ok,   ok,   403,  dl],
  ['GET /api/inventory/:productId/:date',               ok,   ok,   ok,   403,  dl],
];

const KEYS = [
  ['read', { scope: 'read' }],
  ['admin', { scope: 'role', role: 'admin' }],
  ['mgr', { scope: 'role', role: 'sales_manager' }],
  ['fin', { scope: 'role', role: 'finance' }],
  ['delivery', { scope: 'delivery' }],
] as const;

let ctx: TestContext;
const secrets: string[] = [];
beforeAll(async () => {
  ctx = await buildTestApp({ config: { API_KEY_RATE_LIMIT: 100_000 } });
  for (const [name, scope] of KEYS) {
    const response = await ctx.injectAs('super_admin', {
      method: 'POST',
      url: '/api/api-keys',
      payload: { name, ...scope },
    });
    expect(response.statusCode, response.body).toBe(201);
    secrets.push(response.json().secret);
  }
});
afterAll(() => ctx.close());

describe('route permissions of API keys', () => {
  it('has exactly one row per registered API route', () => {
    const listed = MATRIX.map(([route]) => route);
    const registered = ctx.app.routeRules.map((r) => `${r.method} ${r.url}`);
    expect(
      listed.filter((route, i) => listed.indexOf(route) !== i),
      'routes listed twice',
    ).toEqual([]);
    expect(
      registered.filter((route) => !listed.includes(route)),
      'registered routes without a row',
    ).toEqual([]);
    expect(
      listed.filter((route) => !registered.includes(route)),
      'rows for routes that do not exist',
    ).toEqual([]);
  });

  const cases = MATRIX.flatMap(([route, ...outcomes]) =>
    outcomes.map((expected, i) => ({ route, key: KEYS[i]![0], index: i, expected })),
  );

  it.each(cases)('$route with the $key key: $expected', async ({ route, index, expected }) => {
    const [method, url] = route.split(' ') as ['GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', string];
    const path = url.replace(/:[a-zA-Z]+/g, () => randomUUID());
    const response = await ctx.app.inject({
      method,
      url: path,
      headers: {
        authorization: `Bearer ${secrets[index]}`,
        ...(method === 'GET' || method === 'DELETE' ? {} : { 'content-type': 'application/json' }),
      },
      ...(method === 'GET' || method === 'DELETE' ? {} : { payload: {} }),
    });
    if (expected === ok) {
      expect([401, 403], `${route} should let the key through: ${response.body}`).not.toContain(response.statusCode);
      expect(response.statusCode, `${route} must not crash: ${response.body}`).toBeLessThan(500);
    } else {
      expect(response.statusCode, `${route} should refuse the key`).toBe(403);
      expect(response.json().message).toBe(MESSAGES[expected]);
    }
  });
});
