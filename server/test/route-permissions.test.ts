import { randomUUID } from 'node:crypto';
import { ROLES } from '@shared/roles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestContext } from './app';

/**
 * Who may call every API route, written out by hand: one row per route, one column per caller.
 *
 *   ok   the caller gets through the access check (any answer but 401/403, and never a 5xx)
 *   401  refused as signed out          403  refused for the caller's role
 *
 * The expected outcome is a literal on purpose: a change to shared/permissions.ts or to a route's
 * `config.access` fails this suite until the row is changed too, so access changes are visible in review.
 * A registered route without a row fails, and so does a row whose route does not exist.
 *
 * To add a route: append one row (anywhere; group it with its feature), e.g.
 *   ['GET /api/invoices/:id',                          401,  ok,   ok,   ok,   403,  ok,   403],
 * Path parameters (:id ...) are filled with random UUIDs; POST/PUT/PATCH send an empty JSON object.
 */
const ok = 'ok';
type Outcome = typeof ok | 401 | 403;
type Row = [
  route: string,
  anonymous: Outcome,
  super_admin: Outcome,
  admin: Outcome,
  sales_manager: Outcome,
  sales: Outcome,
  finance: Outcome,
  client: Outcome,
];

// biome-ignore format: a table is easier to review with aligned columns
const MATRIX: Row[] = [
  // route                                              anon  super admin mgr   sales fin   client
  ['GET /api/health',                                   ok,   ok,   ok,   ok,   ok,   ok,   ok],
  ['POST /api/auth/login',                              ok,   ok,   ok,   ok,   ok,   ok,   ok],
  ['POST /api/auth/logout',                             ok,   ok,   ok,   ok,   ok,   ok,   ok],
  ['GET /api/auth/me',                                  401,  ok,   ok,   ok,   ok,   ok,   ok],

  // the API's OpenAPI document and its browsable reference (Swagger UI's page and assets)
  ['GET /api/openapi.json',                             ok,   ok,   ok,   ok,   ok,   ok,   ok],
  ['GET /api/docs',                                     ok,   ok,   ok,   ok,   ok,   ok,   ok],
  ['GET /api/docs/json',                                ok,   ok,   ok,   ok,   ok,   ok,   ok],
  ['GET /api/docs/yaml',                                ok,   ok,   ok,   ok,   ok,   ok,   ok],
  ['GET /api/docs/static/*',                            ok,   ok,   ok,   ok,   ok,   ok,   ok],
  ['GET /api/docs/static/index.html',                   ok,   ok,   ok,   ok,   ok,   ok,   ok],
  ['GET /api/docs/static/swagger-initializer.js',       ok,   ok,   ok,   ok,   ok,   ok,   ok],

  ['GET /api/users',                                    401,  ok,   ok,   ok,   403,  403,  403],
  ['GET /api/users/:id',                                401,  ok,   ok,   ok,   403,  403,  403],
  ['POST /api/users',                                   401,  ok,   ok,   403,  403,  403,  403],
  ['PATCH /api/users/:id',                              401,  ok,   ok,   403,  403,  403,  403],
  ['DELETE /api/users/:id',                             401,  ok,   ok,   403,  403,  403,  403],

  ['GET /api/settings/tax',                             401,  ok,   ok,   ok,   ok,   ok,   403],
  ['PUT /api/settings/tax',                             401,  ok,   ok,   403,  403,  403,  403],
  ['GET /api/settings/contracts',                       401,  ok,   ok,   ok,   ok,   ok,   403],
  ['PUT /api/settings/contracts',                       401,  ok,   ok,   403,  403,  403,  403],
  // the company profile (product.md section 17): admins; its logo, printed on every document, is public
  ['GET /api/settings/company',                         401,  ok,   ok,   403,  403,  403,  403],
  ['PUT /api/settings/company',                         401,  ok,   ok,   403,  403,  403,  403],
  ['PUT /api/settings/company/logo',                    401,  ok,   ok,   403,  403,  403,  403],
  ['GET /api/settings/company/logo',                    ok,   ok,   ok,   ok,   ok,   ok,   ok],
  ['GET /api/settings/notifications',                   401,  ok,   ok,   ok,   ok,   ok,   ok],
  ['PUT /api/settings/notifications',                   401,  ok,   ok,   ok,   ok,   ok,   ok],
  ['PUT /api/profile',                                  401,  ok,   ok,   ok,   ok,   ok,   ok],
  ['PUT /api/profile/password',                         401,  ok,   ok,   ok,   ok,   ok,   ok],
  ['GET /api/api-keys',                                 401,  ok,   ok,   403,  403,  403,  403],
  ['POST /api/api-keys',                                401,  ok,   ok,   403,  403,  403,  403],
  ['POST /api/api-keys/:id/revoke',                     401,  ok,   ok,   403,  403,  403,  403],
  ['GET /api/accounting/settings',                      401,  ok,   ok,   403,  403,  ok,   403],
  ['PUT /api/accounting/settings',                      401,  ok,   ok,   403,  403,  403,  403],
  ['GET /api/accounting/exports',                       401,  ok,   ok,   403,  403,  ok,   403],
  ['POST /api/accounting/exports',                      401,  ok,   ok,   403,  403,  ok,   403],
  ['GET /api/accounting/exports/:id',                   401,  ok,   ok,   403,  403,  ok,   403],
  ['GET /api/accounting/exports/:id/file',              401,  ok,   ok,   403,  403,  ok,   403],
  ['GET /api/accounting/exports/:id/zip',               401,  ok,   ok,   403,  403,  ok,   403],
  // webhook endpoints (product.md section 16): admins
  ['GET /api/webhooks',                                 401,  ok,   ok,   403,  403,  403,  403],
  ['POST /api/webhooks',                                401,  ok,   ok,   403,  403,  403,  403],
  ['GET /api/webhooks/:id',                             401,  ok,   ok,   403,  403,  403,  403],
  ['PATCH /api/webhooks/:id',                           401,  ok,   ok,   403,  403,  403,  403],
  ['DELETE /api/webhooks/:id',                          401,  ok,   ok,   403,  403,  403,  403],
  ['POST /api/webhooks/:id/rotate-secret',              401,  ok,   ok,   403,  403,  403,  403],
  ['GET /api/webhooks/:id/secret',                      401,  ok,   ok,   403,  403,  403,  403],
  ['GET /api/webhooks/:id/deliveries',                  401,  ok,   ok,   403,  403,  403,  403],
  ['POST /api/webhooks/:id/deliveries/:deliveryId/resend',401,  ok,   ok,   403,  403,  403,  403],
  ['POST /api/webhooks/:id/test',                       401,  ok,   ok,   403,  403,  403,  403],

  ['GET /api/outbox',                                   401,  ok,   ok,   403,  403,  403,  403],
  ['GET /api/outbox/:id',                               401,  ok,   ok,   403,  403,  403,  403],
  ['GET /api/dashboard/stats',                          401,  ok,   ok,   ok,   ok,   ok,   403],
  ['GET /api/audit',                                    401,  ok,   ok,   403,  403,  403,  403],
  ['GET /api/client/contracts',                         401,  403,  403,  403,  403,  403,  ok],
  ['GET /api/notifications',                            401,  ok,   ok,   ok,   ok,   ok,   ok],
  ['POST /api/notifications/:id/read',                  401,  ok,   ok,   ok,   ok,   ok,   ok],
  ['POST /api/notifications/read-all',                  401,  ok,   ok,   ok,   ok,   ok,   ok],
  ['GET /api/reports',                                  401,  ok,   ok,   ok,   ok,   ok,   403],
  ['GET /api/reports/export',                           401,  ok,   ok,   ok,   ok,   ok,   403],

  ['GET /api/customers',                                401,  ok,   ok,   ok,   ok,   ok,   ok],
  ['GET /api/customers/:id',                            401,  ok,   ok,   ok,   ok,   ok,   ok],
  ['POST /api/customers',                               401,  ok,   ok,   ok,   ok,   403,  403],
  ['PATCH /api/customers/:id',                          401,  ok,   ok,   ok,   ok,   403,  403],
  ['DELETE /api/customers/:id',                         401,  ok,   ok,   403,  403,  403,  403],
  // a customer's contacts and story (product.md section 19): staff read them, those who change customers change them
  ['GET /api/customers/:id/contacts',                   401,  ok,   ok,   ok,   ok,   ok,   403],
  ['POST /api/customers/:id/contacts',                  401,  ok,   ok,   ok,   ok,   403,  403],
  ['PATCH /api/customers/:id/contacts/:contactId',      401,  ok,   ok,   ok,   ok,   403,  403],
  ['DELETE /api/customers/:id/contacts/:contactId',     401,  ok,   ok,   ok,   ok,   403,  403],
  ['GET /api/customers/:id/timeline',                   401,  ok,   ok,   ok,   ok,   ok,   403],
  // agencies of record (product.md section 20): managers all, a rep their own customers' (else 404), finance reads;
  // an agency's advertisers also for its own client users
  ['GET /api/customers/:id/agency',                     401,  ok,   ok,   ok,   ok,   ok,   403],
  ['PUT /api/customers/:id/agency',                     401,  ok,   ok,   ok,   ok,   403,  403],
  ['DELETE /api/customers/:id/agency',                  401,  ok,   ok,   ok,   ok,   403,  403],
  ['GET /api/agencies/:id/advertisers',                 401,  ok,   ok,   ok,   ok,   ok,   ok],
  // the agency statement (JSON, PDF or CSV), and the monthly statements' setting (staff read, admins change)
  ['GET /api/agencies/:id/statement',                   401,  ok,   ok,   ok,   ok,   ok,   ok],
  ['GET /api/settings/agencies',                        401,  ok,   ok,   ok,   ok,   ok,   403],
  ['PUT /api/settings/agencies',                        401,  ok,   ok,   403,  403,  403,  403],

  ['GET /api/products',                                 401,  ok,   ok,   ok,   ok,   ok,   403],
  ['GET /api/products/:id',                             401,  ok,   ok,   ok,   ok,   ok,   403],
  ['POST /api/products',                                401,  ok,   ok,   403,  403,  403,  403],
  ['PATCH /api/products/:id',                           401,  ok,   ok,   403,  403,  403,  403],
  ['DELETE /api/products/:id',                          401,  ok,   ok,   403,  403,  403,  403],

  ['GET /api/packages',                                 401,  ok,   ok,   ok,   ok,   ok,   403],
  ['GET /api/packages/:id',                             401,  ok,   ok,   ok,   ok,   ok,   403],
  ['POST /api/packages',                                401,  ok,   ok,   ok,   ok,   403,  403],
  ['PUT /api/packages/:id',                             401,  ok,   ok,   ok,   ok,   403,  403],
  ['DELETE /api/packages/:id',                          401,  ok,   ok,   ok,   ok,   403,  403],

  ['GET /api/contracts',                                401,  ok,   ok,   ok,   ok,   ok,   403],
  ['GET /api/contracts/my',                             401,  ok,   ok,   ok,   ok,   ok,   403],
  ['GET /api/contracts/:id',                            401,  ok,   ok,   ok,   ok,   ok,   403],
  ['POST /api/contracts',                               401,  ok,   ok,   ok,   ok,   403,  403],
  ['PATCH /api/contracts/:id',                          401,  ok,   ok,   ok,   ok,   403,  403],
  ['DELETE /api/contracts/:id',                         401,  ok,   ok,   ok,   ok,   403,  403],
  ['POST /api/contracts/:id/generate-payment-link',     401,  ok,   ok,   ok,   ok,   403,  403],
  ['POST /api/contracts/:id/send',                      401,  ok,   ok,   ok,   ok,   403,  403],
  ['POST /api/contracts/:id/activate',                  401,  ok,   ok,   ok,   ok,   403,  403],
  ['POST /api/contracts/:id/pause',                     401,  ok,   ok,   ok,   ok,   403,  403],
  ['POST /api/contracts/:id/resume',                    401,  ok,   ok,   ok,   ok,   403,  403],
  ['POST /api/contracts/:id/cancel',                    401,  ok,   ok,   ok,   ok,   403,  403],
  ['POST /api/contracts/:id/resend',                    401,  ok,   ok,   ok,   ok,   403,  403],
  ['POST /api/contracts/:id/resend-receipt',            401,  ok,   ok,   ok,   ok,   403,  403],
  ['GET /api/contracts/:id/schedule',                   401,  ok,   ok,   ok,   ok,   ok,   403],
  ['POST /api/contracts/:id/lines',                     401,  ok,   ok,   ok,   ok,   403,  403],
  ['POST /api/contracts/:id/lines/:lineId/end',         401,  ok,   ok,   ok,   ok,   403,  403],
  ['POST /api/contracts/:id/lines/preview',             401,  ok,   ok,   ok,   ok,   403,  403],
  ['POST /api/contracts/:id/lines/:lineId/end/preview', 401,  ok,   ok,   ok,   ok,   403,  403],
  ['POST /api/contracts/:id/renew',                     401,  ok,   ok,   ok,   ok,   403,  403],
  ['GET /api/renewals',                                 401,  ok,   ok,   ok,   ok,   ok,   403],

  ['GET /api/invoices',                                 401,  ok,   ok,   ok,   ok,   ok,   ok],
  ['GET /api/client/invoices',                          401,  403,  403,  403,  403,  403,  ok],
  ['GET /api/invoices/:id',                             401,  ok,   ok,   ok,   ok,   ok,   ok],
  ['GET /api/invoices/:id/pdf',                         401,  ok,   ok,   ok,   ok,   ok,   ok],
  ['GET /api/invoices/:id/receipt',                     401,  ok,   ok,   ok,   ok,   ok,   ok],
  ['GET /api/invoices/:id/timeline',                    401,  ok,   ok,   ok,   ok,   ok,   ok],
  ['POST /api/invoices/:id/resend',                     401,  ok,   ok,   403,  403,  ok,   403],
  ['POST /api/invoices/:id/payments',                   401,  ok,   ok,   403,  403,  ok,   403],
  ['POST /api/invoices/:id/void',                       401,  ok,   ok,   403,  403,  ok,   403],
  ['POST /api/invoices/:id/checkout',                   401,  403,  403,  403,  403,  403,  ok],
  ['POST /api/client/pay-all',                          401,  403,  403,  403,  403,  403,  ok],
  ['POST /api/invoices/:id/credit-notes',               401,  ok,   ok,   403,  403,  ok,   403],
  ['GET /api/credit-notes',                             401,  ok,   ok,   ok,   ok,   ok,   ok],
  ['GET /api/credit-notes/:id',                         401,  ok,   ok,   ok,   ok,   ok,   ok],
  ['GET /api/credit-notes/:id/pdf',                     401,  ok,   ok,   ok,   ok,   ok,   ok],
  ['GET /api/customers/:id/credit',                     401,  ok,   ok,   ok,   403,  ok,   ok],
  ['POST /api/customers/:id/credit-refunds',            401,  ok,   ok,   403,  403,  ok,   403],

  // insertion orders (product.md section 15): the customer's capability link, and staff who may read the contract
  ['GET /api/io/:token',                                ok,   ok,   ok,   ok,   ok,   ok,   ok],
  ['GET /api/io/:token/pdf',                            ok,   ok,   ok,   ok,   ok,   ok,   ok],
  ['GET /api/io/:token/signed-pdf',                     ok,   ok,   ok,   ok,   ok,   ok,   ok],
  ['POST /api/io/:token/accept',                        ok,   ok,   ok,   ok,   ok,   ok,   ok],
  ['POST /api/io/:token/decline',                       ok,   ok,   ok,   ok,   ok,   ok,   ok],
  ['GET /api/contracts/:id/io',                         401,  ok,   ok,   ok,   ok,   ok,   403],
  ['GET /api/contracts/:id/io/:version/pdf',            401,  ok,   ok,   ok,   ok,   ok,   403],
  ['GET /api/contracts/:id/io/:version/signed-pdf',     401,  ok,   ok,   ok,   ok,   ok,   403],
  ['POST /api/contracts/:id/io/verify',                 401,  ok,   ok,   ok,   ok,   ok,   403],
  ['GET /api/pay/:token',                               ok,   ok,   ok,   ok,   ok,   ok,   ok],
  ['POST /api/pay/:token/checkout',                     ok,   ok,   ok,   ok,   ok,   ok,   ok],
  ['GET /api/checkout/:token',                          ok,   ok,   ok,   ok,   ok,   ok,   ok],
  ['POST /api/checkout/:token/pay',                     ok,   ok,   ok,   ok,   ok,   ok,   ok],
  ['GET /api/checkout/:token/receipt',                  ok,   ok,   ok,   ok,   ok,   ok,   ok],
  ['GET /api/checkout/:token/receipt/pdf',              ok,   ok,   ok,   ok,   ok,   ok,   ok],
  ['POST /api/webhooks/stripe',                         ok,   ok,   ok,   ok,   ok,   ok,   ok],

  ['GET /api/commissions/summary',                      401,  ok,   ok,   ok,   ok,   ok,   403],
  ['GET /api/commissions',                              401,  ok,   ok,   ok,   ok,   ok,   403],
  ['GET /api/commissions/export',                       401,  ok,   ok,   ok,   ok,   ok,   403],

  ['GET /api/receivables',                              401,  ok,   ok,   ok,   403,  ok,   403],
  ['GET /api/receivables/summary',                      401,  ok,   ok,   ok,   403,  ok,   403],
  ['GET /api/receivables/export',                       401,  ok,   ok,   ok,   403,  ok,   403],
  ['GET /api/receivables/outlook',                      401,  ok,   ok,   ok,   403,  ok,   403],
  ['GET /api/receivables/customers/:id',                401,  ok,   ok,   ok,   403,  ok,   403],
  ['GET /api/commissions/reps',                         401,  ok,   ok,   ok,   403,  ok,   403],
  ['GET /api/payouts',                                  401,  ok,   ok,   ok,   ok,   ok,   403],
  ['GET /api/payouts/:id',                              401,  ok,   ok,   ok,   ok,   ok,   403],
  ['POST /api/payouts/request',                         401,  403,  403,  403,  ok,   403,  403],
  ['POST /api/payouts/:id/approve',                     401,  ok,   ok,   403,  403,  ok,   403],
  ['POST /api/payouts/:id/reject',                      401,  ok,   ok,   403,  403,  ok,   403],
  ['POST /api/payouts/:id/disburse',                    401,  ok,   ok,   403,  403,  ok,   403],

  // client portal: invitations, creatives; delivery of CPM lines (the portal's performance card)
  ['POST /api/auth/set-password',                       ok,   ok,   ok,   ok,   ok,   ok,   ok],
  ['POST /api/customers/:id/invite',                    401,  ok,   ok,   ok,   ok,   403,  403],
  ['POST /api/users/:id/send-password-reset',           401,  ok,   ok,   403,  403,  403,  403],
  ['POST /api/client/creatives',                        401,  403,  403,  403,  403,  403,  ok],
  ['GET /api/client/creatives',                         401,  403,  403,  403,  403,  403,  ok],
  ['GET /api/contracts/:id/creatives',                  401,  ok,   ok,   ok,   ok,   ok,   ok],
  ['GET /api/creatives/:id/download',                   401,  ok,   ok,   ok,   ok,   ok,   ok],
  ['DELETE /api/creatives/:id',                         401,  ok,   ok,   ok,   ok,   403,  ok],
  ['GET /api/contracts/:id/delivery',                   401,  ok,   ok,   ok,   ok,   ok,   ok],
  ['GET /api/client/performance',                       401,  403,  403,  403,  403,  403,  ok],
  ['PUT /api/contracts/:id/delivery/:lineId/:month',    401,  ok,   ok,   ok,   ok,   ok,   403],
  ['POST /api/delivery/import',                         401,  ok,   ok,   ok,   ok,   ok,   403],
  ['POST /api/delivery',                                401,  ok,   ok,   ok,   ok,   ok,   403],
  ['GET /api/client/summary',                           401,  403,  403,  403,  403,  403,  ok],
  ['GET /api/client/contracts/:id',                     401,  403,  403,  403,  403,  403,  ok],
  ['GET /api/client/contracts/:id/schedule',            401,  403,  403,  403,  403,  403,  ok],
  ['POST /api/client/contracts/:id/billing-portal',     401,  403,  403,  403,  403,  403,  ok],
  // Autopay (product.md section 18)
  ['GET /api/client/payment-methods',                   401,  403,  403,  403,  403,  403,  ok],
  ['POST /api/client/payment-methods/setup',            401,  403,  403,  403,  403,  403,  ok],
  ['POST /api/client/payment-methods/:id/default',      401,  403,  403,  403,  403,  403,  ok],
  ['DELETE /api/client/payment-methods/:id',            401,  403,  403,  403,  403,  403,  ok],
  ['PUT /api/client/autopay',                           401,  403,  403,  403,  403,  403,  ok],
  ['GET /api/setup/:token',                             ok,   ok,   ok,   ok,   ok,   ok,   ok],
  ['POST /api/setup/:token',                            ok,   ok,   ok,   ok,   ok,   ok,   ok],
  ['POST /api/setup/:token/stripe',                     ok,   ok,   ok,   ok,   ok,   ok,   ok],
  ['GET /api/customers/:id/payment-methods',            401,  ok,   ok,   403,  403,  ok,   403],
  ['POST /api/customers/:id/payment-setup-link',        401,  ok,   ok,   403,  403,  ok,   403],
  ['PUT /api/customers/:id/autopay',                    401,  ok,   ok,   403,  403,  ok,   403],
  ['POST /api/invoices/:id/charge',                     401,  ok,   ok,   403,  403,  ok,   403],
  ['POST /api/contracts/:id/billing-portal',            401,  ok,   ok,   ok,   ok,   ok,   403],

  // the sales pipeline (product.md section 19): reps their own deals, managers and admins all
  ['GET /api/deals',                                   401,  ok,   ok,   ok,   ok,   403,  403],
  ['POST /api/deals',                                  401,  ok,   ok,   ok,   ok,   403,  403],
  ['GET /api/deals/:id',                               401,  ok,   ok,   ok,   ok,   403,  403],
  ['PATCH /api/deals/:id',                             401,  ok,   ok,   ok,   ok,   403,  403],
  ['DELETE /api/deals/:id',                            401,  ok,   ok,   ok,   ok,   403,  403],
  ['POST /api/deals/:id/move',                         401,  ok,   ok,   ok,   ok,   403,  403],
  ['POST /api/deals/:id/lose',                         401,  ok,   ok,   ok,   ok,   403,  403],
  ['POST /api/deals/:id/contract',                     401,  ok,   ok,   ok,   ok,   403,  403],
  ['GET /api/pipeline/summary',                        401,  ok,   ok,   ok,   ok,   403,  403],
  ['GET /api/settings/pipeline',                       401,  ok,   ok,   ok,   ok,   403,  403],
  ['PUT /api/settings/pipeline',                       401,  ok,   ok,   403,  403,  403,  403],
  // activities (product.md section 19): reps their own, managers and admins all
  ['GET /api/activities',                              401,  ok,   ok,   ok,   ok,   403,  403],
  ['POST /api/activities',                             401,  ok,   ok,   ok,   ok,   403,  403],
  ['PATCH /api/activities/:id',                        401,  ok,   ok,   ok,   ok,   403,  403],
  ['DELETE /api/activities/:id',                       401,  ok,   ok,   ok,   ok,   403,  403],
  ['POST /api/activities/:id/complete',                401,  ok,   ok,   ok,   ok,   403,  403],
  ['GET /api/forecast',                                401,  ok,   ok,   ok,   ok,   403,  403],
  ['GET /api/forecast/export',                         401,  ok,   ok,   ok,   ok,   403,  403],
  ['PUT /api/forecast/targets',                        401,  ok,   ok,   ok,   403,  403,  403],

  // inventory of holiday placements: the people who sell it
  ['GET /api/products/:id/availability',                401,  ok,   ok,   ok,   ok,   403,  403],
  ['GET /api/inventory',                                401,  ok,   ok,   ok,   ok,   403,  403],
  ['GET /api/inventory/:productId/:date',               401,  ok,   ok,   ok,   ok,   403,  403],
];

const COLUMNS = ['anonymous', ...ROLES] as const;

let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(() => ctx.close());

describe('route permissions', () => {
  it('has exactly one row per registered API route', () => {
    expect(COLUMNS).toEqual(['anonymous', 'super_admin', 'admin', 'sales_manager', 'sales', 'finance', 'client']);
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
    outcomes.map((expected, i) => ({ route, who: COLUMNS[i], expected })),
  );

  it.each(cases)('$route as $who: $expected', async ({ route, who, expected }) => {
    // A session of its own for every case: a row such as POST /api/auth/logout ends the session it is sent with.
    const response =
      who === 'anonymous'
        ? await ctx.app.inject(request(route))
        : await ctx.injectAs(await ctx.signIn(await ctx.as(who)), request(route));
    if (expected === ok) {
      expect([401, 403], `${route} should let ${who} through`).not.toContain(response.statusCode);
      expect(response.statusCode, `${route} must not crash for ${who}: ${response.body}`).toBeLessThan(500);
    } else {
      expect(response.statusCode, `${route} should refuse ${who}`).toBe(expected);
      expect(response.json().message).toBe(
        expected === 401 ? 'Authentication required' : "You don't have permission to do this",
      );
    }
  });
});

function request(route: string) {
  const [method, url] = route.split(' ') as ['GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', string];
  const path = url.replace(/:[a-zA-Z]+/g, () => randomUUID());
  return method === 'GET' || method === 'DELETE'
    ? { method, url: path }
    : { method, url: path, payload: {}, headers: { 'content-type': 'application/json' } };
}
