import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

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
  ],
);
