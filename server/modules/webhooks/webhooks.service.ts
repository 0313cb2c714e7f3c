import type { ListQuery } from '@shared/contracts/common';
import {
  type CreatedWebhookEndpoint,
  type CreateWebhook,
  type UpdateWebhook,
  WEBHOOK_PREVIOUS_SECRET_HOURS,
  WEBHOOK_TEST_EVENT,
  type WebhookDeliveryView,
  type WebhookEndpointView,
  type WebhookSecret,
} from '@shared/contracts/webhooks';
import type { Db } from '../../db/client';
import { recordAudit } from '../../lib/audit';
import { badRequest, conflict, notFound } from '../../lib/errors';
import type { SessionUser } from '../sessions/sessions';
import { checkWebhookUrl, type Resolver, systemResolver, WebhookAddressError } from './webhook-address';
import { generateWebhookSecret } from './webhook-signature';
import { displayUrl } from './webhooks.delivery';
import {
  deleteEndpointRow,
  type EndpointRow,
  findDelivery,
  findEndpointRow,
  findEndpointView,
  insertEndpoint,
  insertResend,
  insertTestEvent,
  listDeliveries,
  listEndpoints,
  purgeDeliveries,
  rotateSecretRow,
  stopPendingDeliveries,
  updateEndpointRow,
} from './webhooks.repo';

export {
  type DeliveryOptions,
  deliverDueWebhooks,
  startWebhookWorker,
  type WebhookWorker,
} from './webhooks.delivery';

/**
 * Outgoing webhooks (product.md section 16, decision 042): admins register endpoints on the Settings screen's
 * "Webhooks" tab, with the events they want; each gets a `whsec_` secret. Events are raised by the modules
 * that change state (webhook-events.ts) and delivered by the worker (webhooks.delivery.ts). Every change
 * here is audited, never with a secret.
 */

export type WebhookDeps = { db: Db; resolve?: Resolver };

/** What the audit trail keeps of an endpoint: never its secret, the URL without its query string. */
const audited = (row: EndpointRow) => ({
  url: displayUrl(row.url),
  description: row.description,
  events: row.events,
  enabled: row.enabled,
  ...(row.enabled ? {} : { disabledReason: row.disabledReason }),
});

/** The URL's host resolved and checked: 400 with the reason on the `url` field, nothing saved. */
async function checkedUrl(url: string, resolve: Resolver): Promise<string> {
  try {
    await checkWebhookUrl(url, resolve);
  } catch (error) {
    if (error instanceof WebhookAddressError) throw badRequest(error.message, { url: [error.message] });
    throw error;
  }
  return url;
}

export function listWebhooks(db: Db, query: ListQuery) {
  return listEndpoints(db, { limit: query.limit, offset: query.offset });
}

export async function getWebhook(db: Db, id: string): Promise<WebhookEndpointView> {
  const view = await findEndpointView(db, id);
  if (!view) throw notFound('Webhook endpoint');
  return view;
}

/** Registers an endpoint; its secret is in the answer (and can be revealed later by an admin). */
export async function createWebhook(
  deps: WebhookDeps,
  actor: SessionUser,
  input: CreateWebhook,
): Promise<CreatedWebhookEndpoint> {
  const url = await checkedUrl(input.url, deps.resolve ?? systemResolver);
  const secret = generateWebhookSecret();
  return deps.db.transaction(async (tx) => {
    const id = await insertEndpoint(tx, {
      url,
      description: input.description ?? null,
      events: input.events,
      secret,
      createdBy: actor.id,
    });
    const row = (await findEndpointRow(tx, id))!;
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'webhook.created',
      entity: 'webhook_endpoint',
      entityId: id,
      after: audited(row),
    });
    return { ...(await getWebhook(tx, id)), secret };
  });
}

/**
 * Changes an endpoint's URL (checked again), description or events, or turns it off or on. Off: its pending
 * deliveries stop (failed) and it gets no new ones; on again: it starts afresh.
 */
export async function updateWebhook(
  deps: WebhookDeps,
  actor: SessionUser,
  id: string,
  input: UpdateWebhook,
): Promise<WebhookEndpointView> {
  const before = await findEndpointRow(deps.db, id);
  if (!before) throw notFound('Webhook endpoint');
  if (input.url !== undefined && input.url !== before.url) await checkedUrl(input.url, deps.resolve ?? systemResolver);
  return deps.db.transaction(async (tx) => {
    const current = await findEndpointRow(tx, id);
    if (!current) throw notFound('Webhook endpoint');
    const after = await updateEndpointRow(tx, id, input, 'Disabled by an admin');
    if (!after) throw notFound('Webhook endpoint');
    if (current.enabled && !after.enabled) await stopPendingDeliveries(tx, id);
    const action =
      current.enabled !== after.enabled ? (after.enabled ? 'webhook.enabled' : 'webhook.disabled') : 'webhook.updated';
    await recordAudit(tx, {
      actorId: actor.id,
      action,
      entity: 'webhook_endpoint',
      entityId: id,
      before: audited(current),
      after: audited(after),
    });
    return getWebhook(tx, id);
  });
}

export async function deleteWebhook(db: Db, actor: SessionUser, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await deleteEndpointRow(tx, id);
    if (!row) throw notFound('Webhook endpoint');
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'webhook.deleted',
      entity: 'webhook_endpoint',
      entityId: id,
      before: audited(row),
    });
  });
}

/** A new secret; the previous one keeps signing (a second signature) for 24 hours. */
export async function rotateWebhookSecret(db: Db, actor: SessionUser, id: string): Promise<WebhookSecret> {
  const secret = generateWebhookSecret();
  return db.transaction(async (tx) => {
    const row = await rotateSecretRow(tx, id, secret, WEBHOOK_PREVIOUS_SECRET_HOURS);
    if (!row) throw notFound('Webhook endpoint');
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'webhook.secret_rotated',
      entity: 'webhook_endpoint',
      entityId: id,
      after: { url: displayUrl(row.url), previousSecretExpiresAt: row.previousSecretExpiresAt?.toISOString() ?? null },
    });
    return { secret, previousSecretExpiresAt: row.previousSecretExpiresAt?.toISOString() ?? null };
  });
}

/** The current secret, shown to an admin on demand (the reveal is audited, the secret is not). */
export async function revealWebhookSecret(db: Db, actor: SessionUser, id: string): Promise<WebhookSecret> {
  return db.transaction(async (tx) => {
    const row = await findEndpointRow(tx, id);
    if (!row) throw notFound('Webhook endpoint');
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'webhook.secret_revealed',
      entity: 'webhook_endpoint',
      entityId: id,
    });
    const previousActive = row.previousSecretExpiresAt && row.previousSecretExpiresAt > new Date();
    return {
      secret: row.secret,
      previousSecretExpiresAt: previousActive ? row.previousSecretExpiresAt!.toISOString() : null,
    };
  });
}

export async function listWebhookDeliveries(db: Db, id: string, query: ListQuery) {
  if (!(await findEndpointRow(db, id))) throw notFound('Webhook endpoint');
  return listDeliveries(db, id, { limit: query.limit, offset: query.offset });
}

async function enabledEndpoint(db: Db, id: string): Promise<EndpointRow> {
  const row = await findEndpointRow(db, id);
  if (!row) throw notFound('Webhook endpoint');
  if (!row.enabled) throw conflict('This endpoint is disabled: enable it to send it events');
  return row;
}

/** The delivery's event again, as a new delivery to the same endpoint (same webhook-id), due now. */
export async function resendWebhookDelivery(
  db: Db,
  actor: SessionUser,
  id: string,
  deliveryId: string,
): Promise<WebhookDeliveryView> {
  return db.transaction(async (tx) => {
    await enabledEndpoint(tx, id);
    const resent = await insertResend(tx, id, deliveryId);
    if (!resent) throw notFound('Delivery');
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'webhook.delivery_resent',
      entity: 'webhook_endpoint',
      entityId: id,
      after: { deliveryId, resentAs: resent },
    });
    return (await findDelivery(tx, id, resent))!;
  });
}

/** A `webhook.test` event to this endpoint only, through the same queue, signing and retries. */
export async function sendWebhookTest(db: Db, actor: SessionUser, id: string): Promise<WebhookDeliveryView> {
  return db.transaction(async (tx) => {
    await enabledEndpoint(tx, id);
    const deliveryId = await insertTestEvent(tx, id, WEBHOOK_TEST_EVENT, {
      object: 'test',
      endpointId: id,
      message: 'A test event sent from the Webhooks settings.',
      sentBy: actor.id,
    });
    return (await findDelivery(tx, id, deliveryId))!;
  });
}

/** Deliveries finished more than 30 days ago (an hourly job). */
export function purgeOldWebhookDeliveries(db: Db, now = new Date()): Promise<number> {
  return purgeDeliveries(db, new Date(now.getTime() - 30 * 86_400_000));
}
