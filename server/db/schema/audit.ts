import { STORY_ACTIONS } from '@shared/contracts/customer-timeline-vocabulary';
import { sql } from 'drizzle-orm';
import { bigserial, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { apiKeys } from './api';
import { users } from './users';

export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    /** The API key the change was made with (its actor is the admin who made the key); null: a person. */
    apiKeyId: uuid('api_key_id').references(() => apiKeys.id, { onDelete: 'set null' }),
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entityId: text('entity_id').notNull(),
    before: jsonb('before'),
    after: jsonb('after'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('audit_entity_idx').on(t.entity, t.entityId),
    index('audit_created_idx').on(t.createdAt),
    // The Audit screen's user filter and a sales rep's own activity, newest first.
    index('audit_actor_idx').on(t.actorId, t.createdAt),
    // A customer's story (modules/customers, customer-timeline.repo.ts): the events of its contracts and deals that
    // the timeline shows, newest first per record, without reading their routine events.
    index('audit_story_idx')
      .on(t.entityId, t.createdAt, t.id)
      .where(sql`${t.action} in (${sql.raw(STORY_ACTIONS.map((action) => `'${action}'`).join(', '))})`),
  ],
);
