import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  auditEvents,
  notificationPreferences,
  notifications,
  outboxEmails,
  webhookDeliveries,
  webhookEndpoints,
  webhookEvents,
} from '../../db/schema';
import { buildTestApp, type TestContext } from '../../test/app';
import { createContractFor } from '../../test/commission-factories';
import { createTestUser } from '../../test/factories';
import { startWebhookReceiver, type WebhookReceiver } from '../../test/webhook-receiver';
import { checkWebhookUrl, type Resolver } from './webhook-address';
import { emitWebhookEvent } from './webhook-events';
import { parseRetryAfter, retryDelaySeconds } from './webhooks.delivery';
import { createWebhook, deliverDueWebhooks } from './webhooks.service';

/**
 * Outgoing webhooks (product.md section 16, decision 042) against a real HTTP receiver that checks every
 * request with the `standardwebhooks` package: registration and its URL rules, the signed deliveries with a
 * stable webhook-id through failures and retries, Retry-After, rotation's two signatures, 410 and 5 days of
 * failures disabling an endpoint (admins told), resend and the test event. Time is driven through the
 * worker's `now`, never slept.
 */

let ctx: TestContext;
let receiver: WebhookReceiver;
beforeAll(async () => {
  ctx = await buildTestApp();
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver.close();
  await ctx.close();
});
afterEach(async () => {
  receiver.respond = () => ({ status: 200 });
  receiver.received.length = 0;
  receiver.secrets.length = 0;
  // Each test starts with no endpoint (so that events fan out to its own only).
  await ctx.db.delete(webhookEndpoints);
});

const SECOND = 1000;
const HOUR = 3600 * SECOND;
const DAY = 24 * HOUR;

type Created = { id: string; secret: string; url: string; events: string[]; enabled: boolean };

async function register(body: Record<string, unknown>): Promise<Created> {
  const response = await ctx.injectAs('admin', { method: 'POST', url: '/api/webhooks', payload: body });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

const endpointRow = async (id: string) =>
  (await ctx.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)))[0];
const deliveriesOf = (endpointId: string) =>
  ctx.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId));

/** An event raised as a module raises it: here a contract's `contract.sent`, in its own transaction. */
async function raiseContractEvent(type: 'contract.sent' | 'contract.paused' = 'contract.sent') {
  const { contract } = await createContractFor(ctx.db, null);
  await ctx.db.transaction((tx) => emitWebhookEvent(tx, type, { ids: [contract.id] }));
  return contract;
}

/**
 * Runs the worker at `now` until nothing is due then; answers the attempts made. Without `now`, the database's
 * clock, as the instances run it (deliveries are queued at the database's now(), to the microsecond).
 */
async function deliverAt(now?: Date): Promise<number> {
  let attempts = 0;
  for (;;) {
    const round = await deliverDueWebhooks(ctx.db, { now, timeoutMs: 5_000 });
    attempts += round.claimed;
    if (round.claimed === 0) return attempts;
  }
}

/** The earliest retry due, or null. */
async function nextDue(): Promise<Date | null> {
  const [row] = await ctx.db
    .select({ at: sql<string | null>`min(${webhookDeliveries.nextAttemptAt})::text` })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.status, 'pending'));
  return row?.at ? new Date(row.at) : null;
}

describe('the URL of an endpoint', () => {
  // A resolver written out for the test: names and the addresses they resolve to (no network needed).
  const names: Record<string, string[]> = {
    'hooks.example.com': ['93.184.216.34'],
    'dual.example.com': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
    'inside.example.com': ['10.1.2.3'],
    'sneaky.example.com': ['93.184.216.34', '192.168.1.20'],
    'cgnat.example.com': ['100.64.0.9'],
    'meta.example.com': ['169.254.169.254'],
    'ula.example.com': ['fd00:ec2::254'],
    'mapped.example.com': ['::ffff:10.0.0.1'],
    'multicast.example.com': ['239.1.1.1'],
    'loop.example.com': ['127.0.0.1'],
    localhost: ['127.0.0.1', '::1'],
  };
  const resolve: Resolver = async (host) => {
    const found = names[host];
    if (!found) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

  // [url, null when accepted or the words of its refusal]
  const TABLE: [string, string | null][] = [
    ['https://hooks.example.com/webhooks', null],
    ['https://dual.example.com:8443/in?source=adcrm', null],
    ['https://93.184.216.34/hook', null],
    ['https://loop.example.com/hook', null],
    ['http://localhost:4000/hook', null],
    ['http://127.0.0.1:4000/hook', null],
    ['http://[::1]:4000/hook', null],
    ['http://hooks.example.com/webhooks', 'must use HTTPS'],
    ['ftp://hooks.example.com/webhooks', 'must use HTTPS'],
    ['hooks.example.com/webhooks', 'Enter a full URL'],
    ['https://user:pass@hooks.example.com/', 'user name or password'],
    ['https://10.0.0.1/hook', 'a private address'],
    ['https://172.16.5.4/hook', 'a private address'],
    ['https://172.31.255.255/hook', 'a private address'],
    ['https://192.168.0.10/hook', 'a private address'],
    ['https://100.64.0.1/hook', 'a private address'],
    ['https://169.254.169.254/latest/meta-data', 'a link-local or metadata address'],
    ['https://[fe80::1]/hook', 'a link-local or metadata address'],
    ['https://[fd00:ec2::254]/hook', 'a private address'],
    ['https://[fc00::1]/hook', 'a private address'],
    ['https://0.0.0.0/hook', 'an unspecified address'],
    ['https://[::]/hook', 'an unspecified address'],
    ['https://224.0.0.1/hook', 'a multicast address'],
    ['https://[ff02::1]/hook', 'a multicast address'],
    ['https://[::ffff:192.168.1.1]/hook', 'a private address'],
    ['https://metadata.google.internal/computeMetadata/v1/', 'a metadata address'],
    ['https://inside.example.com/hook', 'inside.example.com resolves to 10.1.2.3'],
    ['https://sneaky.example.com/hook', 'sneaky.example.com resolves to 192.168.1.20'],
    ['https://cgnat.example.com/hook', 'a private address'],
    ['https://meta.example.com/hook', 'a link-local or metadata address'],
    ['https://ula.example.com/hook', 'a private address'],
    ['https://mapped.example.com/hook', 'a private address'],
    ['https://multicast.example.com/hook', 'a multicast address'],
    ['https://nowhere.example.com/hook', 'could not be resolved'],
  ];

  it.each(TABLE)('%s: %s', async (url, refusal) => {
    const outcome = await checkWebhookUrl(url, resolve).then(
      () => null,
      (error: Error) => error.message,
    );
    if (refusal === null) expect(outcome).toBeNull();
    else expect(outcome).toContain(refusal);
  });

  it('refuses a bad URL with 400 and its reason on the field, and saves nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [
        { url: 'http://hooks.example.com/x', events: ['invoice.paid'] },
        'The URL must use HTTPS (HTTP only to localhost)',
      ],
      [{ url: 'https://10.0.0.8/x', events: ['invoice.paid'] }, 'The URL cannot point to a private address (10.0.0.8)'],
      [
        { url: 'https://169.254.169.254/x', events: ['invoice.paid'] },
        'The URL cannot point to a link-local or metadata address (169.254.169.254)',
      ],
      [{ url: 'https://localhost/x', events: ['invoice.sent'] }, 'Unknown event: invoice.sent'],
      [{ url: 'https://localhost/x', events: [] }, 'Choose at least one event'],
      [{ url: 'https://localhost/x' }, 'Choose at least one event'],
      [{ events: ['invoice.paid'] }, 'Enter the URL of the endpoint'],
    ];
    for (const [body, message] of cases) {
      const response = await ctx.injectAs('admin', { method: 'POST', url: '/api/webhooks', payload: body });
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().code).toBe('VALIDATION');
      expect(JSON.stringify(response.json()), JSON.stringify(body)).toContain(message);
    }
    expect(await ctx.db.select().from(webhookEndpoints)).toEqual([]);
  });

  it('checks the address again on every delivery: a name that now resolves inside is never connected to', async () => {
    let inside = false;
    const rebinding: Resolver = async () => [{ address: inside ? '10.0.0.7' : '127.0.0.1', family: 4 }];
    const admin = await ctx.as('admin');
    const endpoint = await createWebhook({ db: ctx.db, resolve: rebinding }, admin, {
      url: receiver.url,
      description: null,
      events: ['contract.sent'],
    });
    inside = true;
    await raiseContractEvent();
    expect(await deliverDueWebhooks(ctx.db, { resolve: rebinding })).toMatchObject({ claimed: 1, failed: 1 });
    expect(receiver.received).toEqual([]);
    const [delivery] = await deliveriesOf(endpoint.id);
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1, lastStatusCode: null });
    expect(delivery.lastError).toContain('Refused: The URL cannot point to a private address');

    // The same name answered with the loopback address: connected to the address the lookup checked.
    inside = false;
    await deliverAt(new Date(Date.now() + 6 * SECOND));
    expect(receiver.received).toHaveLength(1);
  });
});

describe('endpoints through the API', () => {
  it('registers an endpoint with a whsec_ secret, lists, reads, changes and deletes it, auditing without the secret', async () => {
    const admin = await ctx.as('admin');
    const created = await register({
      url: receiver.url,
      description: 'Accounting sync',
      events: ['invoice.paid', 'invoice.issued', 'invoice.paid'],
    });
    expect(created).toMatchObject({
      url: receiver.url,
      description: 'Accounting sync',
      events: ['invoice.issued', 'invoice.paid'],
      enabled: true,
      disabledReason: null,
      lastDelivery: null,
      createdBy: { id: admin.id, name: `${admin.firstName} ${admin.lastName}` },
    });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(created.secret.slice(6), 'base64')).toHaveLength(32);

    const list = await ctx.injectAs('admin', { method: 'GET', url: '/api/webhooks' });
    expect(list.statusCode).toBe(200);
    expect(list.headers['x-total-count']).toBe('1');
    expect(list.json()).toEqual([expect.objectContaining({ id: created.id })]);
    expect(list.body).not.toContain(created.secret);
    const one = await ctx.injectAs('super_admin', { method: 'GET', url: `/api/webhooks/${created.id}` });
    expect(one.json()).toMatchObject({ id: created.id, events: ['invoice.issued', 'invoice.paid'] });
    expect(one.body).not.toContain('whsec_');

    const revealed = await ctx.injectAs('admin', { method: 'GET', url: `/api/webhooks/${created.id}/secret` });
    expect(revealed.statusCode).toBe(200);
    expect(revealed.headers['cache-control']).toBe('no-store');
    expect(revealed.json()).toEqual({ secret: created.secret, previousSecretExpiresAt: null });

    const changed = await ctx.injectAs('admin', {
      method: 'PATCH',
      url: `/api/webhooks/${created.id}`,
      payload: { events: ['contract.sent'], description: '' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ events: ['contract.sent'], description: null, url: receiver.url });
    const off = await ctx.injectAs('admin', {
      method: 'PATCH',
      url: `/api/webhooks/${created.id}`,
      payload: { enabled: false },
    });
    expect(off.json()).toMatchObject({ enabled: false, disabledReason: 'Disabled by an admin' });
    expect(off.json().disabledAt).not.toBeNull();
    const on = await ctx.injectAs('admin', {
      method: 'PATCH',
      url: `/api/webhooks/${created.id}`,
      payload: { enabled: true },
    });
    expect(on.json()).toMatchObject({ enabled: true, disabledReason: null, disabledAt: null });

    const rotated = await ctx.injectAs('admin', { method: 'POST', url: `/api/webhooks/${created.id}/rotate-secret` });
    expect(rotated.statusCode).toBe(200);
    expect(rotated.json().secret).toMatch(/^whsec_/);
    expect(rotated.json().secret).not.toBe(created.secret);

    const deleted = await ctx.injectAs('admin', { method: 'DELETE', url: `/api/webhooks/${created.id}` });
    expect(deleted.statusCode).toBe(200);
    expect(await endpointRow(created.id)).toBeUndefined();

    const audit = await ctx.db
      .select({ action: auditEvents.action, before: auditEvents.before, after: auditEvents.after })
      .from(auditEvents)
      .where(eq(auditEvents.entityId, created.id));
    expect(audit.map((a) => a.action).sort()).toEqual([
      'webhook.created',
      'webhook.deleted',
      'webhook.disabled',
      'webhook.enabled',
      'webhook.secret_revealed',
      'webhook.secret_rotated',
      'webhook.updated',
    ]);
    const trail = JSON.stringify(audit);
    expect(trail).not.toContain(created.secret);
    expect(trail).not.toContain(rotated.json().secret);
    expect(trail).not.toContain('whsec_');
  });

  it('answers 404 for an unknown endpoint or delivery, 400 for an empty change, 409 for a disabled endpoint', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const [method, url, payload] of [
      ['GET', `/api/webhooks/${unknown}`],
      ['PATCH', `/api/webhooks/${unknown}`, { enabled: false }],
      ['DELETE', `/api/webhooks/${unknown}`],
      ['POST', `/api/webhooks/${unknown}/rotate-secret`],
      ['GET', `/api/webhooks/${unknown}/secret`],
      ['GET', `/api/webhooks/${unknown}/deliveries`],
      ['POST', `/api/webhooks/${unknown}/test`],
      ['POST', `/api/webhooks/${unknown}/deliveries/${unknown}/resend`],
    ] as const) {
      const response = await ctx.injectAs('admin', { method, url, ...(payload ? { payload } : {}) });
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.json().message).toMatch(/not found/);
    }
    const endpoint = await register({ url: receiver.url, events: ['contract.sent'] });
    const empty = await ctx.injectAs('admin', { method: 'PATCH', url: `/api/webhooks/${endpoint.id}`, payload: {} });
    expect(empty.statusCode).toBe(400);
    const bad = await ctx.injectAs('admin', {
      method: 'PATCH',
      url: `/api/webhooks/${endpoint.id}`,
      payload: { url: 'https://192.168.1.1/x' },
    });
    expect(bad.statusCode).toBe(400);
    expect((await endpointRow(endpoint.id)).url).toBe(receiver.url);
    const missing = await ctx.injectAs('admin', {
      method: 'POST',
      url: `/api/webhooks/${endpoint.id}/deliveries/${unknown}/resend`,
    });
    expect(missing.statusCode).toBe(404);

    await ctx.injectAs('admin', { method: 'PATCH', url: `/api/webhooks/${endpoint.id}`, payload: { enabled: false } });
    const test = await ctx.injectAs('admin', { method: 'POST', url: `/api/webhooks/${endpoint.id}/test` });
    expect(test.statusCode).toBe(409);
    expect(test.json().message).toBe('This endpoint is disabled: enable it to send it events');
    for (const role of ['sales_manager', 'sales', 'finance', 'client'] as const) {
      const refused = await ctx.injectAs(role, { method: 'GET', url: `/api/webhooks/${endpoint.id}/secret` });
      expect(refused.statusCode, role).toBe(403);
    }
  });
});

describe('deliveries', () => {
  it('signs every attempt, retries a failure with the same webhook-id, and logs each delivery', async () => {
    const endpoint = await register({ url: receiver.url, events: ['contract.sent', 'contract.paused'] });
    receiver.secrets.push(endpoint.secret);
    // The paused event fails twice (500, then a timeout-free 503), the sent one is taken at once.
    receiver.respond = (request) =>
      request.json.type === 'contract.paused' && request.seenBefore < 2
        ? { status: request.seenBefore ? 503 : 500 }
        : { status: 200 };
    const sent = await raiseContractEvent('contract.sent');
    const paused = await raiseContractEvent('contract.paused');
    const start = new Date();

    expect(await deliverAt(start)).toBe(2);
    // The retries, each at the time the schedule set: 5 s, then 5 minutes after the second attempt.
    let due = await nextDue();
    expect(due!.getTime() - start.getTime()).toBeGreaterThanOrEqual(5 * SECOND - 50);
    expect(due!.getTime() - start.getTime()).toBeLessThan(7 * SECOND);
    expect(await deliverAt(due!)).toBe(1);
    const second = due!;
    due = await nextDue();
    expect(Math.round((due!.getTime() - second.getTime()) / SECOND)).toBe(300);
    expect(await deliverAt(due!)).toBe(1);
    expect(await nextDue()).toBeNull();

    // Every request verified by the package with the endpoint's secret; the paused event arrived 3 times with one id.
    expect(receiver.received).toHaveLength(4);
    for (const request of receiver.received) {
      expect(request.verifiedWith, request.body).toEqual([0]);
      expect(request.id).toMatch(/^msg_[0-9a-f]{32}$/);
      expect(request.signature).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    }
    const pausedRequests = receiver.received.filter((r) => r.json.type === 'contract.paused');
    expect(pausedRequests.map((r) => r.seenBefore)).toEqual([0, 1, 2]);
    expect(new Set(pausedRequests.map((r) => r.id)).size).toBe(1);
    expect(new Set(pausedRequests.map((r) => r.body)).size).toBe(1);
    const sentRequest = receiver.received.find((r) => r.json.type === 'contract.sent')!;
    expect(sentRequest.json).toEqual({
      type: 'contract.sent',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      data: expect.objectContaining({ object: 'contract', id: sent.id, customerId: sent.customerId, status: 'active' }),
    });
    expect(sentRequest.body).not.toContain('payLink');
    expect(pausedRequests[0].json.data.id).toBe(paused.id);

    // The log: newest first, each with its event, status, HTTP status, duration and attempts.
    const log = await ctx.injectAs('admin', { method: 'GET', url: `/api/webhooks/${endpoint.id}/deliveries?limit=1` });
    expect(log.statusCode).toBe(200);
    expect(log.headers['x-total-count']).toBe('2');
    const all = (await ctx.injectAs('admin', { method: 'GET', url: `/api/webhooks/${endpoint.id}/deliveries` })).json();
    expect(all).toHaveLength(2);
    const pausedLog = all.find((d: { eventType: string }) => d.eventType === 'contract.paused');
    expect(pausedLog).toMatchObject({
      eventId: pausedRequests[0].id,
      status: 'succeeded',
      attempts: 3,
      httpStatus: 200,
      error: null,
      nextAttemptAt: null,
    });
    expect(pausedLog.durationMs).toBeGreaterThanOrEqual(0);
    const listed = (await ctx.injectAs('admin', { method: 'GET', url: '/api/webhooks' })).json()[0];
    expect(listed.lastDelivery).toMatchObject({ status: 'succeeded', httpStatus: 200 });
    expect(listed.failingSince).toBeNull();
  });

  it('gives up after the tenth attempt, on the schedule 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h', async () => {
    const endpoint = await register({ url: receiver.url, events: ['contract.sent'] });
    receiver.respond = () => ({ status: 500 });
    await raiseContractEvent();
    const times: number[] = [];
    let at: Date | null = new Date();
    while (at) {
      await deliverAt(at);
      times.push(at.getTime());
      at = await nextDue();
    }
    const gaps = times.slice(1).map((t, i) => Math.round((t - times[i]) / SECOND));
    expect(gaps).toEqual([5, 300, 1800, 7200, 18_000, 36_000, 50_400, 72_000, 86_400]);
    const [delivery] = await deliveriesOf(endpoint.id);
    expect(delivery).toMatchObject({ status: 'failed', attempts: 10, nextAttemptAt: null, lastStatusCode: 500 });
    expect(delivery.lastError).toBe('HTTP 500');
    expect(receiver.received).toHaveLength(10);
    // About 3.2 days of failures: not yet the 5 days that disable an endpoint.
    expect((await endpointRow(endpoint.id)).enabled).toBe(true);
  });

  it('gives a receiver that does not answer in time up, and retries it', async () => {
    const silent = http.createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const port = (silent.address() as AddressInfo).port;
      const endpoint = await register({ url: `http://127.0.0.1:${port}/hooks`, events: ['contract.sent'] });
      await raiseContractEvent();
      const round = await deliverDueWebhooks(ctx.db, { timeoutMs: 300 });
      expect(round).toMatchObject({ claimed: 1, failed: 1 });
      const [delivery] = await deliveriesOf(endpoint.id);
      expect(delivery).toMatchObject({
        status: 'pending',
        attempts: 1,
        lastStatusCode: null,
        lastError: 'Timed out after 300 ms',
      });
      expect(delivery.lastDurationMs).toBeGreaterThanOrEqual(290);
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('waits for a Retry-After later than the schedule (seconds or a date), never past a day', async () => {
    const endpoint = await register({ url: receiver.url, events: ['contract.sent'] });
    await raiseContractEvent();
    const start = new Date(Math.ceil(Date.now() / 1000) * 1000 + 1000);
    receiver.respond = (request) =>
      request.seenBefore === 0
        ? { status: 429, headers: { 'retry-after': '120' } }
        : { status: 503, headers: { 'retry-after': new Date(start.getTime() + 3 * HOUR).toUTCString() } };
    await deliverAt(start);
    const [first] = await deliveriesOf(endpoint.id);
    expect(first.nextAttemptAt!.getTime() - start.getTime()).toBe(120 * SECOND);
    const second = first.nextAttemptAt!;
    await deliverAt(second);
    const [after] = await deliveriesOf(endpoint.id);
    // The schedule said 5 minutes; the receiver asked for 3 hours after the start.
    expect(after.nextAttemptAt!.getTime()).toBe(start.getTime() + 3 * HOUR);
    expect(after).toMatchObject({ attempts: 2, lastStatusCode: 503, status: 'pending' });
  });

  it('signs with both secrets for 24 hours after a rotation, then with the new one only', async () => {
    const endpoint = await register({ url: receiver.url, events: ['contract.sent'] });
    const rotated = await ctx.injectAs('admin', { method: 'POST', url: `/api/webhooks/${endpoint.id}/rotate-secret` });
    const { secret, previousSecretExpiresAt } = rotated.json();
    const expires = new Date(previousSecretExpiresAt).getTime();
    expect(Math.abs(expires - Date.now() - DAY)).toBeLessThan(60 * SECOND);
    receiver.secrets.push(endpoint.secret, secret);

    await raiseContractEvent();
    await deliverAt();
    const [during] = receiver.received;
    expect(during.signature.split(' ')).toHaveLength(2);
    expect(during.signature).toMatch(/^v1,\S+ v1,\S+$/);
    expect(during.verifiedWith).toEqual([0, 1]);
    // Each secret alone verifies (the package accepts the header when one of its signatures matches).
    receiver.received.length = 0;

    await raiseContractEvent();
    await deliverAt(new Date(expires + SECOND));
    const [later] = receiver.received;
    expect(later.signature.split(' ')).toHaveLength(1);
    expect(later.verifiedWith).toEqual([1]);
    const shown = await ctx.injectAs('admin', { method: 'GET', url: `/api/webhooks/${endpoint.id}/secret` });
    expect(shown.json().secret).toBe(secret);
  });

  it('disables an endpoint at once when it answers 410 Gone, and sends it nothing more', async () => {
    const endpoint = await register({ url: receiver.url, events: ['contract.sent'] });
    receiver.respond = () => ({ status: 410 });
    await raiseContractEvent();
    await raiseContractEvent();
    await deliverDueWebhooks(ctx.db, { batch: 1 });
    const row = await endpointRow(endpoint.id);
    expect(row).toMatchObject({ enabled: false, disabledReason: 'The endpoint answered 410 Gone' });
    const deliveries = await deliveriesOf(endpoint.id);
    expect(deliveries.map((d) => d.status).sort()).toEqual(['failed', 'failed']);
    expect(deliveries.find((d) => d.attempts === 1)).toMatchObject({ lastStatusCode: 410 });

    // A disabled endpoint gets no new deliveries, and nothing is sent.
    await raiseContractEvent();
    expect(await deliveriesOf(endpoint.id)).toHaveLength(2);
    expect(await deliverAt(new Date(Date.now() + DAY))).toBe(0);
    expect(receiver.received).toHaveLength(1);
    const listed = (await ctx.injectAs('admin', { method: 'GET', url: `/api/webhooks/${endpoint.id}` })).json();
    expect(listed).toMatchObject({ enabled: false, disabledReason: 'The endpoint answered 410 Gone' });
  });

  it('disables an endpoint whose deliveries have all failed for 5 days, and tells every admin', async () => {
    const admin = await createTestUser(ctx.db, { role: 'admin' });
    const superAdmin = await createTestUser(ctx.db, { role: 'super_admin' });
    const finance = await createTestUser(ctx.db, { role: 'finance' });
    // E-mail copies follow each admin's preferences ("System maintenance"): one asked for them, one did not.
    await ctx.db.insert(notificationPreferences).values([
      { userId: admin.id, emailSystemMaintenance: true },
      { userId: superAdmin.id, emailSystemMaintenance: false },
    ]);
    const endpoint = await register({ url: `${receiver.url}?token=abc123`, events: ['contract.sent'] });
    receiver.respond = () => ({ status: 500 });
    await raiseContractEvent();
    const start = Date.now() + 1000;
    // Events keep coming (one a day), and every attempt fails; time moves on to each retry.
    let at: Date | null = new Date(start);
    let day = 0;
    while (at && (await endpointRow(endpoint.id)).enabled) {
      await deliverAt(at);
      if (at.getTime() - start >= (day + 1) * DAY) {
        day += 1;
        await raiseContractEvent();
      }
      // A new event is due at once: at the worker's time, which never goes back.
      const due = await nextDue();
      at = due && due.getTime() < at.getTime() ? at : due;
      expect(day).toBeLessThan(8);
    }
    const row = await endpointRow(endpoint.id);
    expect(row.enabled).toBe(false);
    expect(row.disabledReason).toBe('Every delivery failed for 5 days');
    expect(row.disabledAt!.getTime() - row.failingSince!.getTime()).toBeGreaterThanOrEqual(5 * DAY);
    expect(row.disabledAt!.getTime() - row.failingSince!.getTime()).toBeLessThan(6 * DAY);
    expect(row.failingSince!.getTime()).toBe(start);

    const told = await ctx.db
      .select({ userId: notifications.userId, title: notifications.title, body: notifications.body })
      .from(notifications)
      .where(and(eq(notifications.type, 'webhook_disabled'), eq(notifications.entityId, endpoint.id)));
    expect(told.map((n) => n.userId)).toEqual(expect.arrayContaining([admin.id, superAdmin.id]));
    expect(told.map((n) => n.userId)).not.toContain(finance.id);
    expect(told[0].title).toBe('Webhook endpoint disabled');
    expect(told[0].body).toContain(`http://localhost:${receiver.port}/hooks?…: Every delivery failed for 5 days`);
    expect(told[0].body).not.toContain('abc123');
    const mails = await ctx.db
      .select({ to: outboxEmails.to, text: outboxEmails.text })
      .from(outboxEmails)
      .where(eq(outboxEmails.entityId, endpoint.id));
    expect(mails.map((m) => m.to)).toContain(admin.email);
    expect(mails.map((m) => m.to)).not.toContain(superAdmin.email);
    expect(JSON.stringify(mails)).not.toContain('abc123');
    expect((await deliveriesOf(endpoint.id)).every((d) => d.status === 'failed')).toBe(true);
  });

  it('a success ends a run of failures: 5 days of events with one success among them keep the endpoint', async () => {
    const endpoint = await register({ url: receiver.url, events: ['contract.sent'] });
    receiver.respond = () => ({ status: 500 });
    await raiseContractEvent();
    const start = Date.now() + 1000;
    await deliverAt(new Date(start));
    expect((await endpointRow(endpoint.id)).failingSince!.getTime()).toBe(start);
    receiver.respond = () => ({ status: 204 });
    await deliverAt(new Date(start + 4 * DAY));
    expect((await endpointRow(endpoint.id)).failingSince).toBeNull();
    receiver.respond = () => ({ status: 500 });
    await raiseContractEvent();
    await deliverAt(new Date(start + 6 * DAY));
    const row = await endpointRow(endpoint.id);
    expect(row.enabled).toBe(true);
    expect(row.failingSince!.getTime()).toBe(start + 6 * DAY);
  });

  it('resends a delivery with the same webhook-id, and sends a test event through the same pipeline', async () => {
    const endpoint = await register({ url: receiver.url, events: ['contract.sent'] });
    receiver.secrets.push(endpoint.secret);
    await raiseContractEvent();
    await deliverAt();
    const [first] = await deliveriesOf(endpoint.id);
    const resent = await ctx.injectAs('admin', {
      method: 'POST',
      url: `/api/webhooks/${endpoint.id}/deliveries/${first.id}/resend`,
    });
    expect(resent.statusCode, resent.body).toBe(202);
    expect(resent.json()).toMatchObject({ eventId: first.eventId, status: 'pending', attempts: 0 });
    const test = await ctx.injectAs('admin', { method: 'POST', url: `/api/webhooks/${endpoint.id}/test` });
    expect(test.statusCode).toBe(202);
    expect(test.json()).toMatchObject({ eventType: 'webhook.test', status: 'pending' });
    await deliverAt();
    expect(receiver.received.map((r) => r.id)).toEqual(expect.arrayContaining([first.eventId, first.eventId]));
    expect(receiver.received.filter((r) => r.id === first.eventId)).toHaveLength(2);
    const testRequest = receiver.received.find((r) => r.json.type === 'webhook.test')!;
    expect(testRequest.verifiedWith).toEqual([0]);
    expect(testRequest.json.data).toMatchObject({ object: 'test', endpointId: endpoint.id });
    const log = (await ctx.injectAs('admin', { method: 'GET', url: `/api/webhooks/${endpoint.id}/deliveries` })).json();
    expect(log.map((d: { eventType: string; status: string }) => [d.eventType, d.status])).toEqual([
      ['webhook.test', 'succeeded'],
      ['contract.sent', 'succeeded'],
      ['contract.sent', 'succeeded'],
    ]);
  });

  it('keeps no event nobody subscribes to, and purges finished deliveries after 30 days', async () => {
    const before = (await ctx.db.select({ n: sql<number>`count(*)::int` }).from(webhookEvents))[0].n;
    await raiseContractEvent();
    expect((await ctx.db.select({ n: sql<number>`count(*)::int` }).from(webhookEvents))[0].n).toBe(before);

    const endpoint = await register({ url: receiver.url, events: ['contract.sent'] });
    await raiseContractEvent();
    await deliverAt();
    await ctx.db.execute(sql`update webhook_deliveries set created_at = now() - interval '31 days'`);
    await ctx.db.execute(
      sql`update webhook_events set created_at = now() - interval '31 days' where dedupe_key is null`,
    );
    const { purgeOldWebhookDeliveries } = await import('./webhooks.service');
    expect(await purgeOldWebhookDeliveries(ctx.db)).toBeGreaterThanOrEqual(1);
    expect(await deliveriesOf(endpoint.id)).toEqual([]);
    expect(
      (await ctx.db.select({ n: sql<number>`count(*)::int` }).from(webhookEvents).where(sql`dedupe_key is null`))[0].n,
    ).toBe(0);
  });
});

describe('the retry rules, written out', () => {
  it('waits by the schedule after each failed attempt, and not after the tenth', () => {
    const TABLE: [attempts: number, retryAfter: number | null, seconds: number | null][] = [
      [1, null, 5],
      [2, null, 300],
      [3, null, 1800],
      [4, null, 7200],
      [5, null, 18_000],
      [6, null, 36_000],
      [7, null, 50_400],
      [8, null, 72_000],
      [9, null, 86_400],
      [10, null, null],
      [1, 60, 60],
      [1, 3, 5],
      [2, 120, 300],
      [3, 7200, 7200],
      [1, 10 * 86_400, 86_400],
      [9, 3 * 86_400, 86_400],
      [10, 60, null],
    ];
    for (const [attempts, retryAfter, seconds] of TABLE) {
      expect(retryDelaySeconds(attempts, retryAfter), `${attempts} attempts, Retry-After ${retryAfter}`).toBe(seconds);
    }
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    const now = new Date('2026-03-01T12:00:00Z');
    const TABLE: [string | undefined, number | null][] = [
      ['120', 120],
      [' 0 ', 0],
      ['Sun, 01 Mar 2026 12:30:00 GMT', 1800],
      ['Sun, 01 Mar 2026 11:00:00 GMT', 0],
      ['soon', null],
      ['-5', null],
      ['', null],
      [undefined, null],
    ];
    for (const [value, seconds] of TABLE) expect(parseRetryAfter(value, now), String(value)).toBe(seconds);
  });
});
