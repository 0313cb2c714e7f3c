import { sql } from 'drizzle-orm';
import { bigint, check, date, index, pgTable, primaryKey, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { creditNotes, invoices } from './billing';
import { contractLineItems, contracts } from './contracts';
import { users } from './users';

/**
 * What a CPM line delivered in one billed period (product.md section 12), recorded by staff once the period
 * has ended. `booked` is the period's billed volume plus the makegood impressions its invoice carries for the
 * line. An under-delivered period is settled once (settled_at, by one conditional UPDATE): a credit note or
 * makegood impressions on the line's next invoice; a settled period never changes. A period delivered in full
 * is not settled (nothing is owed) and stays correctable.
 */
export const lineDeliveries = pgTable(
  'line_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    contractId: uuid('contract_id')
      .notNull()
      .references(() => contracts.id, { onDelete: 'cascade' }),
    lineId: uuid('line_id')
      .notNull()
      .references(() => contractLineItems.id, { onDelete: 'cascade' }),
    /** The period's invoice (the one that billed the line). */
    invoiceId: uuid('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'restrict' }),
    periodStart: date('period_start', { mode: 'string' }).notNull(),
    periodEnd: date('period_end', { mode: 'string' }).notNull(),
    bookedImpressions: bigint('booked_impressions', { mode: 'number' }).notNull(),
    /** The part of booked that was free: makegood carried from earlier periods. */
    makegoodImpressions: bigint('makegood_impressions', { mode: 'number' }).notNull().default(0),
    deliveredImpressions: bigint('delivered_impressions', { mode: 'number' }).notNull(),
    /** null: not reported. */
    clicks: bigint('clicks', { mode: 'number' }),
    /** Booked - delivered when settled. */
    shortfallImpressions: bigint('shortfall_impressions', { mode: 'number' }).notNull().default(0),
    /**
     * Set when settled: 'credit' (a credit note, or nothing when it came to $0.00), 'makegood' (free
     * impressions on the line's next invoice), 'none' (settled without a remedy: figures entered before
     * delivery was reconciled).
     */
    remedy: text('remedy'),
    creditNoteId: uuid('credit_note_id').references(() => creditNotes.id, { onDelete: 'restrict' }),
    /** A makegood's invoice: null while it waits for the line's next invoice. */
    makegoodInvoiceId: uuid('makegood_invoice_id').references(() => invoices.id, { onDelete: 'restrict' }),
    settledAt: timestamp('settled_at', { withTimezone: true }),
    /**
     * When the period's figures became final (decision 041): at once for figures staff record or import, for
     * pushed figures a row marked final or the period's end + the contract settings' deliveryGraceDays. An
     * under-delivered period is settled once it has ended and is final; until then it is "reported so far".
     */
    finalAt: timestamp('final_at', { withTimezone: true }),
    recordedBy: uuid('recorded_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('line_deliveries_line_period_key').on(t.lineId, t.periodStart),
    index('line_deliveries_contract_idx').on(t.contractId, t.periodStart),
    // Reports: delivery by period (final figures only: a period reported so far is not counted yet).
    index('line_deliveries_final_period_idx')
      .on(t.periodStart, t.bookedImpressions, t.deliveredImpressions)
      .where(sql`${t.finalAt} is not null`),
    // The reconciliation job: the periods still open (not final yet, or final and short but not settled), by
    // end. Every row leaves it in time: it becomes final after its grace days, and settles once final.
    index('line_deliveries_open_idx')
      .on(t.periodEnd)
      .where(
        sql`${t.settledAt} is null and (${t.finalAt} is null or ${t.deliveredImpressions} < ${t.bookedImpressions})`,
      ),
    // Reports: makegood impressions granted in a range.
    index('line_deliveries_makegood_settled_idx')
      .on(t.settledAt, t.shortfallImpressions)
      .where(sql`${t.remedy} = 'makegood'`),
    // The billing run's pending makegoods.
    index('line_deliveries_pending_makegood_idx')
      .on(t.contractId)
      .where(sql`${t.remedy} = 'makegood' and ${t.makegoodInvoiceId} is null`),
    check(
      'line_deliveries_figures_check',
      sql`${t.bookedImpressions} >= 0 and ${t.makegoodImpressions} >= 0 and ${t.makegoodImpressions} <= ${t.bookedImpressions} and ${t.deliveredImpressions} >= 0 and coalesce(${t.clicks}, 0) >= 0 and ${t.shortfallImpressions} >= 0`,
    ),
    check('line_deliveries_remedy_check', sql`${t.remedy} is null or ${t.remedy} in ('credit','makegood','none')`),
    check('line_deliveries_settled_check', sql`(${t.settledAt} is null) = (${t.remedy} is null)`),
  ],
);

/**
 * The daily figures an ad server pushed for a CPM line (POST /api/delivery, decision 041): one row per line
 * and day, so a day sent again replaces its figures. A billed period's delivered total in line_deliveries is
 * the sum of its days, kept in the same transaction; a period total sent for the month replaces its days.
 */
export const lineDeliveryDays = pgTable(
  'line_delivery_days',
  {
    lineId: uuid('line_id')
      .notNull()
      .references(() => contractLineItems.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    impressions: bigint('impressions', { mode: 'number' }).notNull(),
    /** null: not reported. */
    clicks: bigint('clicks', { mode: 'number' }),
    recordedBy: uuid('recorded_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'line_delivery_days_pkey', columns: [t.lineId, t.day] }),
    check('line_delivery_days_figures_check', sql`${t.impressions} >= 0 and coalesce(${t.clicks}, 0) >= 0`),
  ],
);
