import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/errors';

/**
 * Per-route request limits for routes anyone can call (pay links, checkout, set-password ...), against
 * guessing and automated abuse (OWASP ASVS 2.2.1, 11.1.4). Registered once for the whole app with
 * `global: false`: a route is limited only when it says so, e.g.
 *
 *   app.post('/api/pay/:token', { config: { access: 'public', rateLimit: { max: 10, timeWindow: 60_000 } } }, ...)
 *
 * Counted per client address (request.ip: the socket's peer, or what TRUST_PROXY allows) and per route, in
 * this process's memory (each instance counts on its own). A refused request answers 429 with the product's
 * error body, `{ message, code: 'RATE_LIMITED' }`, and Retry-After in seconds.
 */
export async function registerRateLimit(app: FastifyInstance): Promise<void> {
  await app.register(rateLimit, {
    global: false,
    keyGenerator: (request) => request.ip,
    errorResponseBuilder: (_request, context) =>
      new AppError('RATE_LIMITED', `Too many requests. Please try again in ${context.after}.`, {
        headers: { 'Retry-After': String(Math.max(1, Math.ceil(context.ttl / 1000))) },
      }),
  });
}
