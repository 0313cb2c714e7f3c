import { randomUUID } from 'node:crypto';
import { canAny, type Permission } from '@shared/permissions';
import { ROLES } from '@shared/roles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteAccess } from '../plugins/authorize';
import { buildTestApp, type TestContext } from './app';

/**
 * Every API route and who may call it. A route added without a line here, or a rule changed without
 * changing its line, fails this suite: access changes are always visible in review.
 */
const EXPECTED: Record<string, RouteAccess> = {
  'GET /api/health': 'public',
  'POST /api/auth/login': 'public',
  'POST /api/auth/logout': 'public',
  'GET /api/auth/me': 'signed-in',

  'GET /api/users': ['user:manage'],
  'GET /api/users/:id': ['user:manage'],
  'POST /api/users': ['user:manage'],
  'PATCH /api/users/:id': ['user:manage'],
  'DELETE /api/users/:id': ['user:manage'],

  'GET /api/settings/tax': ['settings:read'],
  'PUT /api/settings/tax': ['settings:write'],
  'GET /api/settings/contracts': ['settings:read'],
  'PUT /api/settings/contracts': ['settings:write'],
  'GET /api/settings/notifications': ['profile:self'],
  'PUT /api/settings/notifications': ['profile:self'],
  'PUT /api/profile': ['profile:self'],
  'PUT /api/profile/password': ['profile:self'],

  'GET /api/outbox': ['outbox:read'],
  'GET /api/dashboard/stats': ['report:read:any', 'report:read:own'],
  'GET /api/audit': ['audit:read'],
  'GET /api/client/contracts': ['portal:access'],

  'GET /api/customers': ['customer:read:any', 'customer:read:own'],
  'GET /api/customers/:id': ['customer:read:any', 'customer:read:own'],
  'POST /api/customers': ['customer:write'],
  'PATCH /api/customers/:id': ['customer:write'],
  'DELETE /api/customers/:id': ['customer:delete'],

  'GET /api/products': ['product:read'],
  'GET /api/products/:id': ['product:read'],
  'POST /api/products': ['product:write'],
  'PATCH /api/products/:id': ['product:write'],
  'DELETE /api/products/:id': ['product:write'],

  'GET /api/packages': ['package:read'],
  'GET /api/packages/:id': ['package:read'],
  'POST /api/packages': ['package:write'],
  'PUT /api/packages/:id': ['package:write'],
  'DELETE /api/packages/:id': ['package:write'],

  'GET /api/contracts': ['contract:read:any', 'contract:read:own'],
  'GET /api/contracts/:id': ['contract:read:any', 'contract:read:own'],
  'POST /api/contracts': ['contract:write:any', 'contract:write:own'],
  'PATCH /api/contracts/:id': ['contract:write:any', 'contract:write:own'],
  'DELETE /api/contracts/:id': ['contract:write:any', 'contract:write:own'],
  'POST /api/contracts/:id/generate-payment-link': ['contract:write:any', 'contract:write:own'],
  'POST /api/contracts/:id/send': ['contract:write:any', 'contract:write:own'],
  'POST /api/contracts/:id/activate': ['contract:write:any', 'contract:write:own'],
  'POST /api/contracts/:id/pause': ['contract:write:any', 'contract:write:own'],
  'POST /api/contracts/:id/resume': ['contract:write:any', 'contract:write:own'],
  'POST /api/contracts/:id/cancel': ['contract:write:any', 'contract:write:own'],
  'POST /api/contracts/:id/resend-receipt': ['contract:write:any', 'contract:write:own'],
};

let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(() => ctx.close());

describe('route permissions', () => {
  it('every registered route is listed with the access rule it declares', () => {
    const actual = Object.fromEntries(ctx.app.routeRules.map((r) => [`${r.method} ${r.url}`, r.access]));
    expect(actual).toEqual(EXPECTED);
  });

  const routes = Object.entries(EXPECTED).filter(([, access]) => access !== 'public');

  it.each(routes)('%s refuses signed-out callers with 401', async (route) => {
    const response = await ctx.app.inject(request(route));
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ message: 'Authentication required' });
  });

  for (const role of ROLES) {
    it.each(routes)(`%s as ${role}`, async (route, access) => {
      const response = await ctx.injectAs(role, request(route));
      const allowed = access === 'signed-in' || canAny({ role }, access as readonly Permission[]);
      if (allowed) {
        expect([401, 403], `${route} should let ${role} through`).not.toContain(response.statusCode);
        expect(response.statusCode, `${route} must not crash for ${role}`).toBeLessThan(500);
      } else {
        expect(response.statusCode, `${route} should refuse ${role}`).toBe(403);
        expect(response.json().message).toBeTruthy();
      }
    });
  }
});

function request(route: string) {
  const [method, url] = route.split(' ') as ['GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', string];
  const path = url.replace(/:[a-zA-Z]+/g, () => randomUUID());
  return method === 'GET' || method === 'DELETE'
    ? { method, url: path }
    : { method, url: path, payload: {}, headers: { 'content-type': 'application/json' } };
}
