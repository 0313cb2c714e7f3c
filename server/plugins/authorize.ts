import { canAny, type Permission } from '@shared/permissions';
import type { FastifyInstance, FastifySchema, onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/errors';
import { apiKeyRefusal } from '../modules/api-keys/api-key-auth';

/** What a route needs: 'public' (no sign-in), 'signed-in' (any role), or any one of these permissions. */
export type RouteAccess = 'public' | 'signed-in' | readonly Permission[];

/** A route's access rule, and its request schemas (zod) for the fuzz test to derive inputs from. */
export type RouteRule = { method: string; url: string; access: RouteAccess; schema?: FastifySchema };

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
  }
  interface FastifyInstance {
    /** Every /api route with its access rule, for the permission-matrix test and for review. */
    routeRules: RouteRule[];
  }
}

/**
 * Authorises every /api route from its declared `config.access`. A route without one fails at start-up,
 * so nothing reaches production unguarded. Signed-out callers get 401, callers without the permission 403, and
 * so does an API key outside its scope (modules/api-keys/api-key-auth.ts).
 */
export const authorizePlugin = fp(
  async (app: FastifyInstance) => {
    app.decorate('routeRules', [] as RouteRule[]);

    app.addHook('onRoute', (route) => {
      if (!route.url.startsWith('/api/')) return;
      const access = route.config?.access;
      if (!access) throw new Error(`Route ${route.method} ${route.url} declares no access rule (config.access)`);
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods)
        if (method !== 'HEAD') app.routeRules.push({ method, url: route.url, access, schema: route.schema });

      if (access === 'public') return;
      // Route-level onRequest runs after the global auth hook and before body parsing and validation,
      // so a caller without access learns nothing about the payload rules.
      const previous = route.onRequest;
      const check: onRequestHookHandler = (request, _reply, done) => {
        if (!request.user) return done(new AppError('UNAUTHENTICATED', 'Authentication required'));
        const refusal = request.apiKey && apiKeyRefusal(request.apiKey.scope, request.method, access);
        if (refusal) return done(new AppError('FORBIDDEN', refusal));
        if (access !== 'signed-in' && !canAny(request.user, access)) {
          return done(new AppError('FORBIDDEN', "You don't have permission to do this"));
        }
        done();
      };
      route.onRequest = previous ? [check, ...(Array.isArray(previous) ? previous : [previous])] : [check];
    });
  },
  { name: 'authorize' },
);
