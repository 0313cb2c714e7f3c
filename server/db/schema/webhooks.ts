import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * Outgoing webhooks (product.md section 16, decision 042). An endpoint is a URL other systems listen on, the
 * events it subscribes to and its `whsec_` signing secret (kept as is: every delivery signs with it). After a
 * rotation the previous secret signs too until `previous_secret_expires_at`. `failing_since` is the first
 * failure with no success after it: 5 days of it disable the endpoint.
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    url: text('url').notNull(),
    description: text('description'),
    events: text('events').array().notNull(),
    secret: text('secret').notNull(),
    previousSecret: text('previous_secret'),
    previousSecretExpiresAt: timestamp('previous_secret_expires_at', { withTimezone: true }),
    enabled: boolean('enabled').notNull().default(true),
    disabledReason: text('disabled_reason'),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    failingSince: timestamp('failing_since', { withTimezone: true }),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('webhook_endpoints_created_idx').on(t.createdAt, t.id),
    check('webhook_endpoints_events_check', sql`cardinality(${t.events}) > 0`),
    check('webhook_endpoints_disabled_check', sql`${t.enabled} or ${t.disabledAt} is not null`),
  ],
);

/**
 * One event, written in the same transaction as the change it reports (the outbox pattern; modules/webhooks/webhook-events.ts).
 * `id` is the `webhook-id` of every delivery of it, on every retry and resend. `data` is the resource's public
 * shape. `dedupe_key` makes once-only events once (an invoice's overdue, a contract's acceptance); events
 * without one are kept only when an enabled endpoint subscribes to their type.
 */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: text('id').primaryKey(),
    type: text('type').notNull(),
    data: jsonb('data').notNull(),
    dedupeKey: text('dedupe_key').unique('webhook_events_dedupe_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('webhook_events_created_idx').on(t.createdAt)],
);

/**
 * One event to one endpoint: pending until a 2xx (succeeded) or its last retry (failed). A worker claims due
 * rows with FOR UPDATE SKIP LOCKED and leases them (`next_attempt_at` moves to the lease's end, `lease_token`
 * names the claim); the result is written by a conditional UPDATE on that token. The last attempt's HTTP
 * status, duration and error are kept for the delivery log.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    eventId: text('event_id')
      .notNull()
      .references(() => webhookEvents.id, { onDelete: 'cascade' }),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    leaseToken: uuid('lease_token'),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    lastStatusCode: integer('last_status_code'),
    lastDurationMs: integer('last_duration_ms'),
    lastError: text('last_error'),
    succeededAt: timestamp('succeeded_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.createdAt, t.id),
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index('webhook_deliveries_event_idx').on(t.eventId),
    index('webhook_deliveries_created_idx').on(t.createdAt),
    check('webhook_deliveries_status_check', sql`${t.status} in ('pending','succeeded','failed')`),
    check('webhook_deliveries_next_check', sql`(${t.status} = 'pending') = (${t.nextAttemptAt} is not null)`),
  ],
);
