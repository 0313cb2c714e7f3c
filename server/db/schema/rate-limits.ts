import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The per-route request limits of public routes (server/plugins/rate-limit.ts), counted in the database so
 * that every app instance shares them (product.md section 9): one row per route and client address with
 * the current window's start and hits. Rows of windows long past are purged hourly.
 */
export const rateLimitHits = pgTable(
  'rate_limit_hits',
  {
    key: text('key').primaryKey(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    hits: integer('hits').notNull(),
  },
  (t) => [index('rate_limit_hits_window_idx').on(t.windowStart)],
);
