import { type ApiKeyScope, apiKeyEffectiveRole } from '@shared/contracts/api-key-vocabulary';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { AppError } from '../lib/errors';
import { runInRequestContext } from '../lib/request-context';
import { looksLikeApiKey, resolveApiKey } from '../modules/api-keys/api-key-auth';
import { resolveSession, SESSION_COOKIE, type SessionPolicy, type SessionUser } from '../modules/sessions/sessions';
import { countApiKeyRequest } from './rate-limit';

declare module 'fastify' {
  interface FastifyRequest {
    user: SessionUser | null;
    sessionId: string | null;
    authVia: 'bearer' | 'cookie' | 'api-key' | null;
    /** The API key a request was made with (its `user` is then the key's maker, with the key's role). */
    apiKey: { id: string; name: string; scope: ApiKeyScope } | null;
  }
  interface FastifyInstance {
    sessionPolicy: SessionPolicy;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Resolves the caller from `Authorization: Bearer <token>` (a session token or an API key, `adcrm_...`) or the
 * session cookie.
 * A cookie-authenticated request that changes data must come from the app's own origin (CSRF);
 * bearer requests cannot be forged cross-site, so they skip that check.
 */
export const authPlugin = fp(
  async (app: FastifyInstance, opts: { db: Db; config: Config }) => {
    const policy: SessionPolicy = {
      idleMinutes: opts.config.SESSION_IDLE_MINUTES,
      maxDays: opts.config.SESSION_MAX_DAYS,
    };
    app.decorate('sessionPolicy', policy);
    app.decorateRequest('user', null);
    app.decorateRequest('sessionId', null);
    app.decorateRequest('authVia', null);
    app.decorateRequest('apiKey', null);
    const publicOrigin = opts.config.PUBLIC_URL ? new URL(opts.config.PUBLIC_URL).origin : null;

    app.addHook('onRequest', async (request, reply) => {
      if (!request.url.startsWith('/api/')) return;
      const bearer = readBearer(request);
      if (bearer && looksLikeApiKey(bearer)) {
        await authenticateApiKey(request, reply, bearer, opts);
        return;
      }
      const cookie = request.cookies[SESSION_COOKIE];
      const token = bearer ?? cookie;
      if (!token) return;
      const resolved = await resolveSession(opts.db, token, policy);
      if (!resolved) return;
      request.user = resolved.user;
      request.sessionId = resolved.sessionId;
      request.authVia = bearer ? 'bearer' : 'cookie';
      if (request.authVia === 'cookie' && !SAFE_METHODS.has(request.method) && !fromOwnOrigin(request, publicOrigin)) {
        throw new AppError('FORBIDDEN', 'Cross-site request refused');
      }
    });

    // A request made with an API key runs its handler inside its request context, so that each audit event it
    // writes names the key (lib/request-context.ts).
    app.addHook('preHandler', (request, _reply, done) => {
      if (request.apiKey) runInRequestContext({ apiKeyId: request.apiKey.id }, done);
      else done();
    });
  },
  { name: 'auth', dependencies: ['@fastify/cookie'] },
);

/**
 * A request made with an API key (decision 038): the key is checked (modules/api-keys/api-key-auth.ts), then
 * counted against its per-minute limit on every instance. The request acts as the key's maker with the key's
 * role, and each audit event it writes names the key.
 */
async function authenticateApiKey(
  request: FastifyRequest,
  reply: FastifyReply,
  key: string,
  opts: { db: Db; config: Config },
): Promise<void> {
  const found = await resolveApiKey(opts.db, key, request.ip);

  const limit = opts.config.API_KEY_RATE_LIMIT;
  const hits = await countApiKeyRequest(opts.db, found.key.id);
  const reset = Math.max(1, Math.ceil(hits.ttl / 1000));
  reply.header('RateLimit-Limit', String(limit));
  reply.header('RateLimit-Remaining', String(Math.max(0, limit - hits.current)));
  reply.header('RateLimit-Reset', String(reset));
  if (hits.current > limit) {
    throw new AppError('RATE_LIMITED', `Too many requests with this API key. Please try again in ${reset} seconds.`, {
      headers: { 'Retry-After': String(reset) },
    });
  }
  request.user = { ...found.creator, role: apiKeyEffectiveRole(found.key.scope, found.key.role) };
  request.apiKey = { id: found.key.id, name: found.key.name, scope: found.key.scope };
  request.authVia = 'api-key';
}

function readBearer(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const [scheme, value] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && value && value !== 'null' && value !== 'undefined' ? value : undefined;
}

/**
 * Whether a cookie-authenticated change shows that it comes from one of our own pages (decision 003). A
 * browser says where a request comes from in `Origin`, `Sec-Fetch-Site` and `Referer`; every one present must
 * point at us, and at least one must be present: a request that shows none is refused, since a cookie alone
 * proves nothing about the page that sent it. Ours is a whole origin (scheme, host and port): PUBLIC_URL's
 * when it is configured, otherwise the request's own as Fastify sees it (`request.protocol` and
 * `request.host`, which follow X-Forwarded-Proto/Host only from a proxy TRUST_PROXY trusts).
 */
function fromOwnOrigin(request: FastifyRequest, publicOrigin: string | null): boolean {
  const ownOrigin = publicOrigin ?? originOf(`${request.protocol}://${request.host}`);
  if (ownOrigin === null) return false;
  const isOurs = (url: string) => originOf(url) === ownOrigin;
  const { origin, referer } = request.headers;
  const site = request.headers['sec-fetch-site'];
  if (origin === undefined && site === undefined && referer === undefined) return false;
  if (origin !== undefined && !isOurs(origin)) return false;
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return false;
  if (referer !== undefined && !isOurs(referer)) return false;
  return true;
}

/** The origin of a URL (`http://host:80/x` -> `http://host`), or null for anything that is not a URL with one. */
function originOf(url: string): string | null {
  try {
    const { origin } = new URL(url);
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}
