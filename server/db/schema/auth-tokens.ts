import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * Single-use set-password links: portal invitations (purpose invite) and password resets (purpose reset).
 * The token (256 random bits) travels only in the e-mail to the account's owner; only its SHA-256 is stored.
 * Spending it is one conditional UPDATE (unused and not expired), so a link works once.
 */
export const passwordTokens = pgTable(
  'password_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tokenHash: text('token_hash').notNull().unique(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose').$type<'invite' | 'reset'>().notNull(),
    /** Who sent the link (null when that user was deleted). */
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('password_tokens_user_idx').on(t.userId, t.createdAt),
    check('password_tokens_purpose_check', sql`${t.purpose} in ('invite','reset')`),
  ],
);
