import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/client';
import { AppError } from '../lib/errors';
import { countHit, type Hits, readHits } from './rate-limit.repo';

/**
 * Per-route request limits for routes anyone can call (pay links, checkout, set-password ...), against
 * guessing and automated abuse (OWASP ASVS 2.2.1, 11.1.4). Registered once for the whole app with
 * `global: false`: a route is limited only when it says so, e.g.
 *
 *   app.post('/api/pay/:token', { config: { access: 'public', rateLimit: { max: 10, timeWindow: 60_000 } } }, ...)
 *
 * Counted per client address (request.ip: the socket's peer, or what TRUST_PROXY allows) and per route, in
 * PostgreSQL (rate_limit_hits), so that every app instance counts against the same budget: each hit is one
 * conditional upsert. A refused request answers 429 with the product's error body,
 * `{ message, code: 'RATE_LIMITED' }`, and Retry-After in seconds.
 */
export async function registerRateLimit(app: FastifyInstance): Promise<void> {
  await app.register(rateLimit, {
    global: false,
    store: databaseStore(app.db),
    keyGenerator: (request) => request.ip,
    errorResponseBuilder: (_request, context) =>
      new AppError('RATE_LIMITED', `Too many requests. Please try again in ${context.after}.`, {
        headers: { 'Retry-After': String(Math.max(1, Math.ceil(context.ttl / 1000))) },
      }),
  });
}

type Callback = (error: Error | null, result?: Hits) => void;
type RouteLimitOptions = { routeInfo?: { method?: string | string[]; url?: string } };

/**
 * @fastify/rate-limit's store interface over rate_limit_hits: `incr` counts a hit in the key's window (a
 * window that has run out starts again at 1), `read` looks without counting, `child` scopes the keys to a
 * route. The database's clock is the only one used, so instances whose clocks differ still agree.
 */
function databaseStore(db: Db) {
  return class DatabaseStore {
    constructor(
      _options?: unknown,
      private readonly prefix = '',
    ) {}

    incr(key: string, callback: Callback, timeWindow: number): void {
      countHit(db, this.prefix + key, wholeMs(timeWindow))
        .then((hits) => callback(null, hits))
        .catch((error: Error) => callback(error));
    }

    read(key: string, callback: Callback, timeWindow: number): void {
      readHits(db, this.prefix + key, wholeMs(timeWindow))
        .then((hits) => callback(null, hits ?? { current: 0, ttl: 0 }))
        .catch((error: Error) => callback(error));
    }

    /** The plugin passes the route's merged limit options, with the route itself under `routeInfo`. */
    child(options: object): DatabaseStore {
      const route = (options as RouteLimitOptions).routeInfo;
      const method = [route?.method ?? ''].flat().join(',');
      return new DatabaseStore(undefined, `${this.prefix}${method} ${route?.url ?? ''} `);
    }
  };
}

/** The plugin's time window as whole milliseconds, at least one. */
const wholeMs = (timeWindow: number) => Math.max(1, Math.trunc(timeWindow));

/**
 * Counts one request of an API key in its fixed one-minute window, in rate_limit_hits like the per-route limits
 * (one conditional upsert, the database's clock): every instance counts against the same budget.
 */
export async function countApiKeyRequest(db: Db, keyId: string, windowMs = 60_000): Promise<Hits> {
  return countHit(db, `api-key ${keyId}`, windowMs);
}
