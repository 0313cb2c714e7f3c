import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * Credentials of the business's other systems (product.md section 16, decision 038). Only the SHA-256 of a
 * key is kept; `hint` is its prefix and last four characters, enough to tell keys apart in a list. A key acts
 * with the rights of its scope: `read` (an admin's reads), `role` (a staff role's rights, `role`), or
 * `delivery` (pushing delivery figures only), in the name of the admin who made it.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    scope: text('scope').notNull(),
    role: text('role'),
    tokenHash: text('token_hash').notNull().unique('api_keys_token_hash_key'),
    hint: text('hint').notNull(),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedBy: uuid('revoked_by').references(() => users.id, { onDelete: 'set null' }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    lastUsedIp: text('last_used_ip'),
  },
  (t) => [
    index('api_keys_created_idx').on(t.createdAt),
    check('api_keys_scope_check', sql`${t.scope} in ('read','role','delivery')`),
    check('api_keys_role_check', sql`(${t.scope} = 'role') = (${t.role} is not null)`),
  ],
);

/**
 * The first response to a request sent with an `Idempotency-Key` (product.md section 16): one row per caller
 * (`key:<api key id>` or `session:<session id>`) and key, claimed by one conditional insert before the work,
 * completed with the response after it. A repeat within 24 hours replays the response; a different body
 * (`request_hash`) is refused with 422; a claim still `running` answers 409.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    state: text('state').notNull().default('running'),
    responseStatus: integer('response_status'),
    responseType: text('response_type'),
    responseBody: text('response_body'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ name: 'idempotency_keys_pkey', columns: [t.scope, t.key] }),
    index('idempotency_keys_created_idx').on(t.createdAt),
    check('idempotency_keys_state_check', sql`${t.state} in ('running','done')`),
  ],
);
