import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
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

/**
 * The forecast's figures by rep and month, stored (docs/decisions/059-forecast-months.md): booked, what signed
 * and running contracts bill (the billing engine's schedule, billing.service billedByMonth), and the open deals'
 * amounts and weighted amounts spread over their flights (shared/forecast.ts), so that a forecast reads a few
 * rows instead of scheduling every contract and spreading every deal on each request. The sums of
 * `forecast_sources`, kept by the forecast's refresh (forecast.months.ts) only, for the MAX_FORECAST_MONTHS
 * months from `forecast_window.from_month`. No foreign key: a rep's rows are figures, not a reference.
 */
export const forecastMonths = pgTable(
  'forecast_months',
  {
    repId: uuid('rep_id').notNull(),
    /** The first day of the month. */
    month: date('month', { mode: 'string' }).notNull(),
    bookedCents: bigint('booked_cents', { mode: 'number' }).notNull(),
    weightedCents: bigint('weighted_cents', { mode: 'number' }).notNull(),
    pipelineCents: bigint('pipeline_cents', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ name: 'forecast_months_pkey', columns: [t.repId, t.month] })],
);

/**
 * What each booked contract or open deal adds to `forecast_months`: its rep and one amount per month of the window
 * (booked for a contract; weighted and pipeline for a deal), so that a change recomputes only the contract or
 * deal it concerns and moves the sums by the difference.
 */
export const forecastSources = pgTable(
  'forecast_sources',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    contractId: uuid('contract_id').unique('forecast_sources_contract_key'),
    dealId: uuid('deal_id').unique('forecast_sources_deal_key'),
    repId: uuid('rep_id').notNull(),
    /** Cents by month from the window's first month; null: none of this kind. */
    booked: bigint('booked', { mode: 'number' }).array(),
    weighted: bigint('weighted', { mode: 'number' }).array(),
    pipeline: bigint('pipeline', { mode: 'number' }).array(),
  },
  (t) => [check('forecast_sources_one_source', sql`(${t.contractId} is null) <> (${t.dealId} is null)`)],
);

/**
 * The contracts and deals whose forecast figures are out of date: one row per change they depend on, inserted by
 * database triggers (migration 0045) on contracts, their lines, insertion orders, deals, pipeline stages and the
 * contract settings, so that no writer has to know about the forecast. Insert-only (no shared row is updated, so
 * writers never wait on each other here); the refresh deletes the marks it has taken into account. `everyone`:
 * every contract and deal (a stage's probability, the contract settings).
 */
export const forecastMarks = pgTable('forecast_marks', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  contractId: uuid('contract_id'),
  dealId: uuid('deal_id'),
  everyone: boolean('everyone').notNull().default(false),
});

/** The month the stored forecast months start at: one row; a forecast of another month refreshes them all. */
export const forecastWindow = pgTable(
  'forecast_window',
  {
    id: boolean('id').primaryKey().default(true),
    fromMonth: date('from_month', { mode: 'string' }).notNull(),
  },
  (t) => [check('forecast_window_one_row', sql`${t.id}`)],
);
