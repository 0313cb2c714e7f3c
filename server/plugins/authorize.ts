import { canAny, type Permission } from '@shared/permissions';
import type {
  FastifyInstance,
  FastifyPluginAsync,
  FastifyPluginCallback,
  FastifySchema,
  onRequestHookHandler,
} from 'fastify';
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

/** The access rule a plugin context gives the routes registered in it that declare none (withAccess). */
const kContextAccess = Symbol('contextAccess');

/**
 * Registers a third-party plugin whose routes cannot carry our `config` (the API reference's page and its
 * assets, plugins/openapi.ts): each route it registers gets `access` unless it declares its own. Nothing
 * else changes: the route is checked and listed in routeRules like any other.
 */
export function withAccess<Options extends object>(
  access: RouteAccess,
  plugin: FastifyPluginAsync<Options> | FastifyPluginCallback<Options>,
  options: Options,
): FastifyPluginAsync {
  return async (instance) => {
    instance.decorate<RouteAccess>(kContextAccess, access);
    await instance.register(plugin, options);
  };
}

/**
 * Authorises every /api route from its declared `config.access`. A route without one fails at start-up,
 * so nothing reaches production unguarded. Signed-out callers get 401, callers without the permission 403, and
 * so does an API key outside its scope (modules/api-keys/api-key-auth.ts).
 */
export const authorizePlugin = fp(
  async (app: FastifyInstance) => {
    app.decorate('routeRules', [] as RouteRule[]);

    app.addHook('onRoute', function (route) {
      if (!route.url.startsWith('/api/')) return;
      // `this` is the context the route is registered in: withAccess's, for a third-party plugin's routes.
      const contextAccess = (this as unknown as { [kContextAccess]?: RouteAccess })[kContextAccess];
      if (!route.config?.access && contextAccess) route.config = { ...route.config, access: contextAccess };
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
