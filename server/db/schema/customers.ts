import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

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
    // Receivables: the customers holding credit (few), without reading every customer.
    index('customers_credit_idx').on(t.id).where(sql`${t.creditBalanceCents} > 0`),
    check('customers_credit_balance_check', sql`${t.creditBalanceCents} >= 0`),
  ],
);
