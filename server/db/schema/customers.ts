import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';

export const customers = pgTable(
  'customers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    company: text('company'),
    phone: text('phone'),
    address: text('address'),
    city: text('city'),
    state: text('state'),
    zipCode: text('zip_code'),
    country: text('country'),
    contactPerson: text('contact_person'),
    website: text('website'),
    industry: text('industry'),
    notes: text('notes'),
    /** Credit owed to the customer (the sum of customer_credit_entries), applied to its next invoices. */
    creditBalanceCents: bigint('credit_balance_cents', { mode: 'number' }).notNull().default(0),
    /**
     * Autopay (product.md section 18): on while the customer has a default active method and consent. Turned on
     * by the customer only (saving a method with consent, or the portal's switch); staff may turn it off.
     */
    autopayEnabled: boolean('autopay_enabled').notNull().default(false),
    /**
     * An advertiser (the default) or an agency that buys for advertisers (product.md section 20); fixed once the
     * customer has a contract.
     */
    kind: text('kind').$type<'advertiser' | 'agency'>().notNull().default('advertiser'),
    /** An agency's commission in basis points (1500: 15%), the default of the advertisers it represents. */
    agencyCommissionBp: integer('agency_commission_bp'),
    /** The customer's Stripe customer (cus_...), made once when its first method is saved with Stripe. */
    stripeCustomerId: text('stripe_customer_id'),
    createdBy: uuid('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('customers_search_idx').using(
      'gin',
      sql`(lower(${t.name} || ' ' || ${t.email} || ' ' || coalesce(${t.company}, ''))) gin_trgm_ops`,
    ),
    index('customers_name_idx').on(t.name),
    // Autopay finds the customer a Stripe webhook names (a card saved at a payment-mode checkout).
    index('customers_stripe_customer_idx').on(t.stripeCustomerId).where(sql`${t.stripeCustomerId} is not null`),
    // The charge run starts from the few customers on autopay.
    index('customers_autopay_idx').on(t.id).where(sql`${t.autopayEnabled}`),
    // Receivables: the customers holding credit (few), without reading every customer.
    index('customers_credit_idx').on(t.id).where(sql`${t.creditBalanceCents} > 0`),
    check('customers_credit_balance_check', sql`${t.creditBalanceCents} >= 0`),
    check('customers_kind_check', sql`${t.kind} in ('advertiser','agency')`),
    check(
      'customers_agency_commission_check',
      sql`${t.agencyCommissionBp} is null or (${t.kind} = 'agency' and ${t.agencyCommissionBp} between 0 and 10000)`,
    ),
    index('customers_agencies_idx').on(t.name, t.id).where(sql`${t.kind} = 'agency'`),
  ],
);

/**
 * An advertiser's agency of record (product.md section 20): the agency that buys for it from `fromDate` to
 * `toDate` (inclusive; null: until further notice), with the commission it takes and how it is billed: `net`
 * (the invoice deducts the commission) or `gross` (the invoice is the gross; the commission is owed to the
 * agency once paid). One at a time: the exclusion constraint `customer_agencies_no_overlap` (migration 0047,
 * btree_gist) refuses two periods of one advertiser that overlap.
 */
export const customerAgencies = pgTable(
  'customer_agencies',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    advertiserId: uuid('advertiser_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    agencyId: uuid('agency_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'restrict' }),
    commissionBp: integer('commission_bp').notNull(),
    billingMode: text('billing_mode').$type<'net' | 'gross'>().notNull(),
    fromDate: date('from_date', { mode: 'string' }).notNull(),
    toDate: date('to_date', { mode: 'string' }),
    createdBy: uuid('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('customer_agencies_advertiser_idx').on(t.advertiserId, t.fromDate),
    index('customer_agencies_agency_idx').on(t.agencyId, t.advertiserId),
    check('customer_agencies_commission_check', sql`${t.commissionBp} between 0 and 10000`),
    check('customer_agencies_mode_check', sql`${t.billingMode} in ('net','gross')`),
    check('customer_agencies_dates_check', sql`${t.toDate} is null or ${t.toDate} >= ${t.fromDate}`),
    check('customer_agencies_not_self_check', sql`${t.advertiserId} <> ${t.agencyId}`),
  ],
);

/**
 * The monthly agency statements sent (product.md section 20): one row per agency and month, so that the job of
 * the 1st sends each once across instances (the primary key decides).
 */
export const agencyStatementRuns = pgTable(
  'agency_statement_runs',
  {
    agencyId: uuid('agency_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    /** The first day of the month the statement covers. */
    month: date('month', { mode: 'string' }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: 'agency_statement_runs_pkey', columns: [t.agencyId, t.month] })],
);
