import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Every e-mail the product sends. A row is marked sent only after the SMTP server accepted it.
 * `text` and `html` are what staff may read (the Outbox screen): a capability link in them has its token
 * hidden. A message that carries one keeps its full parts in `delivery_text` / `delivery_html` for the
 * SMTP delivery only, and loses them once it is sent or has failed for good (lib/capability-links.ts).
 * `attachments` names files kept in storage (lib/storage.ts) that the SMTP delivery attaches, read then.
 */

/** A file an e-mail carries: its name and type as the recipient sees them, and its key in storage. */
export type OutboxAttachment = { filename: string; contentType: string; storageKey: string };

export const outboxEmails = pgTable(
  'outbox_emails',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html'),
    deliveryText: text('delivery_text'),
    deliveryHtml: text('delivery_html'),
    status: text('status').notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    entity: text('entity'),
    entityId: text('entity_id'),
    attachments: jsonb('attachments').$type<OutboxAttachment[]>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('outbox_due_idx').on(t.status, t.nextAttemptAt),
    index('outbox_created_idx').on(t.createdAt),
    // An invoice's timeline reads the e-mails about it and its credit notes.
    index('outbox_entity_idx').on(t.entity, t.entityId),
    check('outbox_status_check', sql`${t.status} in ('queued','sent','failed')`),
  ],
);
