import type { NotificationType } from '@shared/contracts/notifications';
import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * In-app notifications (the header bell), one row per recipient, written in the same transaction as the
 * event. dedupeKey makes "once" notices (contract expiring) idempotent: the unique index decides.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type').$type<NotificationType>().notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    /** An in-app path to the record, e.g. /contracts/<id>. */
    link: text('link'),
    entity: text('entity'),
    entityId: text('entity_id'),
    dedupeKey: text('dedupe_key'),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('notifications_user_created_idx').on(t.userId, t.createdAt.desc()),
    index('notifications_user_unread_idx').on(t.userId).where(sql`${t.readAt} is null`),
    uniqueIndex('notifications_user_dedupe_key').on(t.userId, t.dedupeKey).where(sql`${t.dedupeKey} is not null`),
    check(
      'notifications_type_check',
      sql`${t.type} in ('payment_received','payment_failed','contract_activated','contract_expiring','contract_amended','contract_paused','contract_resumed','credit_note_issued','delivery_under_pace','delivery_remedy','inventory_hold_expired','payout_requested','payout_approved','payout_rejected','payout_disbursed','webhook_disabled','io_accepted','io_declined','activity_due')`,
    ),
  ],
);
