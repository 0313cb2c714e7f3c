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
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { customers } from './customers';
import { deals } from './deals';
import { users } from './users';

/**
 * A customer's people (product.md section 19): one primary contact and one billing contact at most (the partial
 * unique indexes decide); invoices and receipts go to the billing contact, the customer's e-mail when none.
 */
export const contacts = pgTable(
  'contacts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    role: text('role'),
    email: text('email'),
    phone: text('phone'),
    notes: text('notes'),
    isPrimary: boolean('is_primary').notNull().default(false),
    isBilling: boolean('is_billing').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('contacts_customer_idx').on(t.customerId, t.name),
    uniqueIndex('contacts_primary_key').on(t.customerId).where(sql`${t.isPrimary}`),
    uniqueIndex('contacts_billing_key').on(t.customerId).where(sql`${t.isBilling}`),
    check('contacts_billing_email_check', sql`not ${t.isBilling} or ${t.email} is not null`),
  ],
);

/**
 * Calls, meetings, e-mails, tasks and notes (product.md section 19), of a customer and optionally a deal and a
 * contact, owned by a user. `remind_at` is when its reminder is due (the due time; 15 minutes before a meeting),
 * `reminded_at` set once by the one conditional UPDATE that claims it (across instances).
 */
export const activities = pgTable(
  'activities',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    type: text('type').notNull(),
    subject: text('subject').notNull(),
    body: text('body'),
    dueAt: timestamp('due_at', { withTimezone: true }),
    durationMinutes: integer('duration_minutes'),
    outcome: text('outcome'),
    done: boolean('done').notNull().default(false),
    doneAt: timestamp('done_at', { withTimezone: true }),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    dealId: uuid('deal_id').references(() => deals.id, { onDelete: 'set null' }),
    contactId: uuid('contact_id').references(() => contacts.id, { onDelete: 'set null' }),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id),
    remindAt: timestamp('remind_at', { withTimezone: true }),
    remindedAt: timestamp('reminded_at', { withTimezone: true }),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('activities_type_check', sql`${t.type} in ('call', 'meeting', 'email', 'task', 'note')`),
    check('activities_duration_check', sql`${t.durationMinutes} is null or ${t.durationMinutes} between 1 and 1440`),
    index('activities_owner_due_idx').on(t.ownerId, t.done, t.dueAt),
    index('activities_customer_idx').on(t.customerId, t.createdAt),
    index('activities_deal_idx').on(t.dealId),
    index('activities_remind_idx').on(t.remindAt).where(sql`${t.remindedAt} is null and not ${t.done}`),
  ],
);

/** What a manager expects a rep to book in a month (the forecast's target), in cents. */
export const forecastTargets = pgTable(
  'forecast_targets',
  {
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The first day of the month. */
    month: date('month', { mode: 'string' }).notNull(),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'forecast_targets_pkey', columns: [t.ownerId, t.month] }),
    check('forecast_targets_amount_check', sql`${t.amountCents} >= 0`),
    check('forecast_targets_month_check', sql`extract(day from ${t.month}) = 1`),
  ],
);
