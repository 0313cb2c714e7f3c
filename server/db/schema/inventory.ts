import { sql } from 'drizzle-orm';
import { index, pgTable, timestamp, uuid } from 'drizzle-orm/pg-core';
import { contracts } from './contracts';

/**
 * The hold of a sent contract on its inventory units (product.md section 13): from the send until
 * hold_until (the send + the contract settings' holdDays). A sent contract counts against capacity only
 * while its hold runs; expired_notice_at records that its rep was told the hold ran out.
 */
export const inventoryHolds = pgTable(
  'inventory_holds',
  {
    contractId: uuid('contract_id')
      .primaryKey()
      .references(() => contracts.id, { onDelete: 'cascade' }),
    holdUntil: timestamp('hold_until', { withTimezone: true }).notNull(),
    expiredNoticeAt: timestamp('expired_notice_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('inventory_holds_expiry_idx').on(t.holdUntil).where(sql`${t.expiredNoticeAt} is null`)],
);
