import { sql } from 'drizzle-orm';
import { check, date, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { products } from './catalog';
import { contractLineItems, contracts } from './contracts';
import { customers } from './customers';

/**
 * The renewal notices of a contract (product.md section 15): 60, 30 and 7 days before its auto-stop date,
 * each once per contract and end date (the primary key decides; a new end date re-arms them).
 */
export const renewalNotices = pgTable(
  'renewal_notices',
  {
    contractId: uuid('contract_id')
      .notNull()
      .references(() => contracts.id, { onDelete: 'cascade' }),
    autoStopDate: date('auto_stop_date', { mode: 'string' }).notNull(),
    daysBefore: integer('days_before').notNull(),
    notifiedAt: timestamp('notified_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'renewal_notices_pkey', columns: [t.contractId, t.autoStopDate, t.daysBefore] }),
    check('renewal_notices_days_check', sql`${t.daysBefore} in (60, 30, 7)`),
  ],
);

/**
 * Right of first refusal (product.md section 15): an inventory line of a contract due for renewal holds the
 * same calendar days a year later for its customer, from the 60-day notice until `release_on` (30 days before
 * that flight starts). `released_at` is set, once, when the hold ends and the rep is told.
 */
export const renewalHolds = pgTable(
  'renewal_holds',
  {
    lineId: uuid('line_id')
      .primaryKey()
      .references(() => contractLineItems.id, { onDelete: 'cascade' }),
    contractId: uuid('contract_id')
      .notNull()
      .references(() => contracts.id, { onDelete: 'cascade' }),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    quantity: integer('quantity').notNull(),
    heldFrom: date('held_from', { mode: 'string' }).notNull(),
    heldTo: date('held_to', { mode: 'string' }).notNull(),
    releaseOn: date('release_on', { mode: 'string' }).notNull(),
    releasedAt: timestamp('released_at', { withTimezone: true }),
    releaseReason: text('release_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('renewal_holds_product_idx').on(t.productId, t.heldTo).where(sql`${t.releasedAt} is null`),
    index('renewal_holds_release_idx').on(t.releaseOn).where(sql`${t.releasedAt} is null`),
    index('renewal_holds_contract_idx').on(t.contractId),
    check('renewal_holds_quantity_check', sql`${t.quantity} >= 1`),
    check('renewal_holds_range_check', sql`${t.heldTo} >= ${t.heldFrom}`),
  ],
);
