import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import {
  WEBHOOK_FAILING_DAYS_BEFORE_DISABLE,
  WEBHOOK_MAX_ATTEMPTS,
  WEBHOOK_RETRY_SCHEDULE_SECONDS,
} from '@shared/contracts/webhooks-vocabulary';
import type { Db } from '../../db/client';
import { recordAudit } from '../../lib/audit';
import { loggableError } from '../../lib/db-errors';
import { notify } from '../../lib/notify';
import { addressRefusal, guardedLookup, type Resolver, systemResolver, WebhookAddressError } from './webhook-address';
import { signatureHeader } from './webhook-signature';
import {
  type AttemptResult,
  type ClaimedDelivery,
  claimDueDeliveries,
  disableEndpointRow,
  failingFor,
  recordAttempt,
} from './webhooks.repo';

/**
 * The delivery of webhooks (decision 042): every instance runs a worker that claims due deliveries (FOR UPDATE
 * SKIP LOCKED under a lease, so each is sent by one instance at a time and by another if its instance died),
 * signs each attempt (Standard Webhooks), POSTs it with a 15 s limit to the address its own lookup checked, and
 * records the result with a conditional UPDATE. 2xx: delivered. Otherwise retried after 5 s, 5 min, 30 min,
 * 2 h, 5 h, 10 h, 14 h, 20 h and 24 h (a later Retry-After wins, up to a day), then failed for good. 410 Gone
 * disables the endpoint at once; an endpoint that has failed for 5 days in a row is disabled too, and every
 * admin is told. At least once: an instance that dies after the receiver answered but before the result was
 * recorded leaves the delivery to be sent again after its lease, with the same webhook-id.
 */

export const DEFAULT_TIMEOUT_MS = 15_000;
export const DEFAULT_LEASE_SECONDS = 60;
/** A Retry-After later than this is read as this. */
export const RETRY_AFTER_CAP_SECONDS = 24 * 3600;
/** Deliveries one claim takes, and requests a worker has open at once. */
const BATCH = 50;
const REQUESTS_AT_ONCE = 10;
/** What is kept of an error or of the receiver's answer. */
const ERROR_LENGTH = 300;

export type DeliveryOptions = {
  /** The worker's clock (tests drive time through it); default now. */
  now?: Date;
  timeoutMs?: number;
  leaseSeconds?: number;
  resolve?: Resolver;
  batch?: number;
};

export type DeliveryRound = { claimed: number; succeeded: number; failed: number };

/**
 * Seconds until the next attempt after `attempts` attempts (the one just made counted), or null when that was
 * the last. A Retry-After (in seconds) later than the schedule is honoured, up to RETRY_AFTER_CAP_SECONDS.
 */
export function retryDelaySeconds(attempts: number, retryAfterSeconds: number | null = null): number | null {
  if (attempts >= WEBHOOK_MAX_ATTEMPTS) return null;
  const scheduled = WEBHOOK_RETRY_SCHEDULE_SECONDS[Math.max(0, attempts - 1)];
  if (retryAfterSeconds !== null && retryAfterSeconds > scheduled) {
    return Math.max(scheduled, Math.min(retryAfterSeconds, RETRY_AFTER_CAP_SECONDS));
  }
  return scheduled;
}

/** A Retry-After header in seconds from `now`: delay-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now: Date): number | null {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!text) return null;
  if (/^\d+$/.test(text)) return Number(text);
  if (!/[a-z]/i.test(text)) return null;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return null;
  return Math.max(0, Math.ceil((at - now.getTime()) / 1000));
}

/** The JSON body of an event: its type, when it happened, and its resource's public shape. */
export function webhookBody(claim: Pick<ClaimedDelivery, 'eventType' | 'eventCreatedAt' | 'data'>): string {
  return JSON.stringify({ type: claim.eventType, timestamp: claim.eventCreatedAt, data: claim.data });
}

type Response = { statusCode: number | null; retryAfter: string | string[] | undefined; error: string | null };

/** POSTs one signed message; never follows a redirect; gives up after `timeoutMs`. */
function post(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: { timeoutMs: number; resolve: Resolver },
): Promise<Response> {
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      resolve({ statusCode: null, retryAfter: undefined, error: 'Invalid URL' });
      return;
    }
    // A literal address is connected to without a lookup: it is checked here instead.
    const literal = target.hostname.replace(/^\[|\]$/g, '');
    const refusal = isIP(literal) ? addressRefusal(literal) : null;
    if (refusal) {
      resolve({ statusCode: null, retryAfter: undefined, error: `Refused: ${refusal}` });
      return;
    }
    const client = target.protocol === 'https:' ? https : http;
    let settled = false;
    const finish = (response: Response) => {
      if (settled) return;
      settled = true;
      resolve(response);
    };
    const request = client.request(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup: guardedLookup(options.resolve),
        agent: false,
      },
      (response) => {
        // The status decides: the answer's body is read and dropped (a body still streaming when the time
        // limit comes is cut off then, the socket with it).
        finish({ statusCode: response.statusCode ?? null, retryAfter: response.headers['retry-after'], error: null });
        response.on('error', () => {});
        response.resume();
      },
    );
    const timer = setTimeout(() => {
      request.destroy();
      finish({
        statusCode: null,
        retryAfter: undefined,
        error: `Timed out after ${options.timeoutMs >= 1000 ? `${Math.round(options.timeoutMs / 1000)} s` : `${options.timeoutMs} ms`}`,
      });
    }, options.timeoutMs);
    request.on('close', () => clearTimeout(timer));
    request.on('error', (error: NodeJS.ErrnoException) => {
      const message =
        error instanceof WebhookAddressError
          ? `Refused: ${error.message}`
          : error.code
            ? `${error.code}`
            : error.message;
      finish({ statusCode: null, retryAfter: undefined, error: message.slice(0, ERROR_LENGTH) });
    });
    request.end(body);
  });
}

/** Runs at most `size` tasks at once. */
async function inParallel<T>(items: readonly T[], size: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(size, items.length) }, async () => {
    while (next < items.length) await task(items[next++]);
  });
  await Promise.all(lanes);
}

/** One claimed delivery: signed, sent, recorded. Answers whether the receiver took it. */
async function attempt(
  db: Db,
  claim: ClaimedDelivery,
  options: Required<Omit<DeliveryOptions, 'now' | 'batch'>> & { now?: Date },
) {
  const sentAt = options.now ?? new Date();
  const timestamp = Math.floor(sentAt.getTime() / 1000);
  const body = webhookBody(claim);
  const secrets = claim.previousSecret ? [claim.secret, claim.previousSecret] : [claim.secret];
  const started = performance.now();
  const response = await post(
    claim.url,
    {
      'content-type': 'application/json',
      'user-agent': 'AdCRM-Webhooks/1.0',
      'webhook-id': claim.eventId,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatureHeader(secrets, claim.eventId, timestamp, body),
    },
    body,
    options,
  );
  const durationMs = Math.round(performance.now() - started);
  const at = options.now ?? new Date();
  const ok = response.statusCode !== null && response.statusCode >= 200 && response.statusCode < 300;
  const gone = response.statusCode === 410;
  const attempts = claim.attempts + 1;
  const delay = ok || gone ? null : retryDelaySeconds(attempts, parseRetryAfter(response.retryAfter, at));
  const result: AttemptResult = {
    at,
    statusCode: response.statusCode,
    durationMs,
    error: ok ? null : (response.error ?? `HTTP ${response.statusCode}`),
    status: ok ? 'succeeded' : delay === null ? 'failed' : 'pending',
    nextAttemptAt: delay === null ? null : new Date(at.getTime() + delay * 1000),
  };
  const recorded = await recordAttempt(db, claim, result);
  if (recorded && gone) {
    await disableEndpoint(db, claim.endpointId, 'The endpoint answered 410 Gone', at);
  } else if (recorded && !ok) {
    await disableEndpoint(
      db,
      claim.endpointId,
      `Every delivery failed for ${WEBHOOK_FAILING_DAYS_BEFORE_DISABLE} days`,
      at,
      WEBHOOK_FAILING_DAYS_BEFORE_DISABLE,
    );
  }
  return ok;
}

/**
 * Disables an endpoint the system gave up on (410, or `failingDays` of failures: the condition is part of the
 * UPDATE), with an audit event and a notice to every admin (in-app, and e-mail by their preferences), in one
 * transaction. Answers whether this call disabled it.
 */
export async function disableEndpoint(
  db: Db,
  endpointId: string,
  reason: string,
  at: Date,
  failingDays?: number,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const row = await disableEndpointRow(
      tx,
      endpointId,
      reason,
      at,
      failingDays === undefined ? undefined : failingFor(failingDays, at),
    );
    if (!row) return false;
    const shown = displayUrl(row.url);
    await recordAudit(tx, {
      actorId: null,
      action: 'webhook.disabled',
      entity: 'webhook_endpoint',
      entityId: row.id,
      before: { enabled: true },
      after: { enabled: false, url: shown, disabledReason: reason },
    });
    await notify(tx, {
      to: { roles: ['super_admin', 'admin'] },
      type: 'webhook_disabled',
      title: 'Webhook endpoint disabled',
      body: `${shown}: ${reason}. Deliveries to it have stopped; enable it again in Settings, Webhooks.`,
      link: '/settings?tab=webhooks',
      entity: 'webhook_endpoint',
      entityId: row.id,
      email: {
        subject: 'A webhook endpoint was disabled',
        text: `The webhook endpoint ${shown} was disabled: ${reason}.\n\nNo events are sent to it until an admin enables it again (Settings, Webhooks).`,
      },
    });
    return true;
  });
}

/** A URL as notices and the audit trail show it: without its query string or fragment (they may hold a token). */
export function displayUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}${parsed.search || parsed.hash ? '?…' : ''}`;
  } catch {
    return '(invalid URL)';
  }
}

/** Claims the due deliveries once and sends them. */
export async function deliverDueWebhooks(db: Db, options: DeliveryOptions = {}): Promise<DeliveryRound> {
  const settings = {
    now: options.now,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    leaseSeconds: options.leaseSeconds ?? DEFAULT_LEASE_SECONDS,
    resolve: options.resolve ?? systemResolver,
  };
  const claimed = await claimDueDeliveries(db, {
    now: options.now,
    leaseSeconds: settings.leaseSeconds,
    limit: options.batch ?? BATCH,
  });
  const round: DeliveryRound = { claimed: claimed.length, succeeded: 0, failed: 0 };
  await inParallel(claimed, REQUESTS_AT_ONCE, async (claim) => {
    if (await attempt(db, claim, settings)) round.succeeded++;
    else round.failed++;
  });
  return round;
}

export type WebhookWorker = {
  /** Asks for a round now (after a change that queued deliveries has committed). */
  kick(): void;
  /** Stops after the current round. */
  stop(): Promise<void>;
};

type Log = { warn: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void };

/**
 * This instance's worker: a round every `pollMs` while idle, the next at once after a full batch. Idle, a
 * round is one indexed query (webhook_deliveries_due_idx) that finds nothing.
 */
export function startWebhookWorker(
  db: Db,
  options: Omit<DeliveryOptions, 'now'> & { pollMs: number; log: Log },
): WebhookWorker {
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let wake: (() => void) | null = null;
  const batch = options.batch ?? BATCH;

  const loop = (async () => {
    while (!stopped) {
      let full = false;
      try {
        const round = await deliverDueWebhooks(db, { ...options, batch });
        full = round.claimed >= batch;
      } catch (error) {
        options.log.warn({ err: loggableError(error) }, 'webhook delivery round failed');
      }
      if (stopped) break;
      if (!full) {
        await new Promise<void>((resolve) => {
          wake = resolve;
          timer = setTimeout(resolve, options.pollMs);
        });
        wake = null;
      }
    }
  })();

  return {
    kick() {
      if (timer) clearTimeout(timer);
      wake?.();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      wake?.();
      await loop;
    },
  };
}
