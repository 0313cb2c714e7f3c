import { createHash } from 'node:crypto';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onSendHookHandler,
  preValidationHookHandler,
  RouteOptions,
} from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../db/client';
import { stableJson } from '../lib/canonical-json';
import { loggableError } from '../lib/db-errors';
import { AppError, conflict } from '../lib/errors';
import { type Claim, claimKey, completeKey, findKey, releaseKey, type StoredKey } from './idempotency.repo';
import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_KEY_PATTERN,
  IDEMPOTENCY_MESSAGES,
  IDEMPOTENT_REPLAYED_HEADER,
} from './idempotency-key';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route creates or moves money: it accepts an `Idempotency-Key` header, and a repeat of the same
     * request with the same key answers the first response again (plugins/idempotency.ts, decision 040).
     */
    idempotent?: boolean;
  }
  interface FastifyInstance {
    /** Every route marked `idempotent`, as "METHOD /url", for the test that lists them and for review. */
    idempotentRoutes: string[];
  }
  interface FastifyRequest {
    idempotencyClaim: Claim | null;
  }
}

/**
 * Whose keys a request's key is among: every caller has a space of keys of its own, so two callers using
 * the same key never meet. An API key is `key:<api key id>`, a signed-in session `session:<session id>`; null
 * for a request without a caller (it cannot use a key).
 */
export function idempotencyScope(request: FastifyRequest): string | null {
  if (request.apiKey) return `key:${request.apiKey.id}`;
  if (request.sessionId) return `session:${request.sessionId}`;
  return null;
}

/**
 * Idempotent money requests (product.md section 16, decision 040). A route marked `config: { idempotent: true }`
 * accepts `Idempotency-Key`; without the header nothing changes. With it, once the caller has passed
 * authentication and authorisation (401/403 come first, from onRequest) and the body is parsed, ONE
 * conditional insert claims (scope, key): a new key, one whose row is older than 24 hours, or one whose
 * `running` claim outlived the lease. The claimant runs the route, and its response (status < 500) is stored
 * before it is sent; a 5xx deletes the claim, so a retry runs again. Any other request with the key is
 * answered from the row: a different request (method, route, parameters, query or body) 422, the same one
 * still running 409, the same one done its stored status, content type and body with `Idempotent-Replayed:
 * true`. All of it lives in PostgreSQL (idempotency_keys), so it holds across instances.
 */
export const idempotencyPlugin = fp(
  async (app: FastifyInstance, opts: { db: Db }) => {
    const { db } = opts;
    app.decorate('idempotentRoutes', [] as string[]);
    app.decorateRequest('idempotencyClaim', null);

    const claimOrAnswer: preValidationHookHandler = async (request, reply) => {
      const key = request.headers[IDEMPOTENCY_KEY_HEADER];
      if (key === undefined) return;
      // Repeated headers arrive joined with ", ": not a key either.
      if (typeof key !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(key)) {
        throw new AppError('BAD_REQUEST', IDEMPOTENCY_MESSAGES.invalidKey);
      }
      const scope = idempotencyScope(request);
      if (!scope) throw new AppError('BAD_REQUEST', IDEMPOTENCY_MESSAGES.noCaller);
      const hash = requestHash(request);

      // A row found missing after a lost claim was released (a 5xx) or purged meanwhile: claim again.
      for (let attempt = 0; attempt < 3; attempt++) {
        const claimedAt = await claimKey(db, scope, key, hash);
        if (claimedAt) {
          request.idempotencyClaim = { scope, key, claimedAt };
          return;
        }
        const row = await findKey(db, scope, key);
        if (!row) continue;
        if (row.requestHash !== hash) throw new AppError('UNPROCESSABLE', IDEMPOTENCY_MESSAGES.mismatch);
        if (row.state !== 'done') throw conflict(IDEMPOTENCY_MESSAGES.inProgress);
        return replay(reply, row);
      }
      throw conflict(IDEMPOTENCY_MESSAGES.inProgress);
    };

    const record: onSendHookHandler = async (request, reply, payload) => {
      const claim = request.idempotencyClaim;
      if (!claim) return payload;
      request.idempotencyClaim = null;
      try {
        if (reply.statusCode < 500 && (typeof payload === 'string' || payload === null || payload === undefined)) {
          const type = reply.getHeader('content-type');
          await completeKey(db, claim, {
            status: reply.statusCode,
            type: type === undefined ? null : String(type),
            body: payload ?? '',
          });
        } else {
          // A failure (or an answer that is not text, which no marked route gives): a retry runs again.
          await releaseKey(db, claim);
        }
      } catch (error) {
        // The response still goes out; the claim stays `running` and a retry gets 409 until the lease ends.
        request.log.warn({ err: loggableError(error) }, 'the idempotency key could not be recorded');
      }
      return payload;
    };

    app.addHook('onRoute', (route: RouteOptions) => {
      if (!route.config?.idempotent) return;
      const methods = (Array.isArray(route.method) ? route.method : [route.method]).filter((m) => m !== 'HEAD');
      if (route.config.access === 'public' || route.config.access === undefined) {
        throw new Error(`Route ${methods.join(',')} ${route.url} is idempotent but has no caller to keep keys for`);
      }
      for (const method of methods) app.idempotentRoutes.push(`${method} ${route.url}`);
      // Claimed last before validation (so a validation error is the route's answer, stored like any other),
      // and recorded before any other onSend hook (compression) changes the payload.
      route.preValidation = [...hooks(route.preValidation), claimOrAnswer];
      route.onSend = [record, ...hooks(route.onSend)];
    });
  },
  { name: 'idempotency', dependencies: ['auth', 'authorize'] },
);

const hooks = <T>(value: T | T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

function replay(reply: FastifyReply, row: StoredKey): FastifyReply {
  reply.code(row.responseStatus ?? 200).header(IDEMPOTENT_REPLAYED_HEADER, 'true');
  if (row.responseType) reply.type(row.responseType);
  return reply.send(row.responseBody ?? '');
}

/**
 * What makes two requests the same: the method, the route, its path parameters and query, and the body as
 * parsed (JSON with its keys in a stable order; a text body such as a CSV import as the text the route reads;
 * bytes as bytes), before validation. SHA-256, hex.
 */
export function requestHash(request: FastifyRequest): string {
  const body = request.body;
  const content =
    body === undefined || body === null
      ? 'none'
      : typeof body === 'string'
        ? `text:${body}`
        : Buffer.isBuffer(body)
          ? `bytes:${body.toString('base64')}`
          : `json:${stableJson(body)}`;
  const parts = [request.method, request.routeOptions.url ?? '', stableJson(request.params), stableJson(request.query)];
  return createHash('sha256')
    .update(JSON.stringify([...parts, content]))
    .digest('hex');
}
