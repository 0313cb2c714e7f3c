import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, date, index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';

/**
 * Monthly totals behind the reports, kept by database triggers (migration 0008_report_totals.sql)
 * on payments, invoices, invoice_lines and customer_credit_entries, so every writer keeps them exact without
 * knowing about them:
 *
 *   revenue  cash received (decision 048, migration 0037): payments received less refunds paid out, by the
 *            month of paid_at (UTC), never a payment of the credit balance (method credit); company-wide also
 *            less the credit balances paid back to customers (entries 'refunded', by created_at)
 *   billed   totals of non-void invoices, by the month of issued_at (UTC); count = invoices
 *   product  product lines of non-void invoices, by issued month and product
 *
 * Each delta is written twice: company-wide (rep_id null) and for the contract's sales rep (rep_id), so a
 * rep's report reads a few rows too; when a contract changes rep, its whole history moves between the
 * two reps' rows (trigger on contracts, migration 0011_report_totals_by_rep.sql).
 *
 * Triggers only INSERT delta rows (never update a shared row), so concurrent payments and billing runs
 * never wait on each other here; compactReportTotals() folds the deltas of each group into one row now
 * and then. A report sums the rows of its months: exact at any moment, compacted or not.
 */
export const reportMonthTotals = pgTable(
  'report_month_totals',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** The first day of the month (UTC). */
    month: date('month', { mode: 'string' }).notNull(),
    metric: text('metric').$type<'revenue' | 'billed' | 'product'>().notNull(),
    productId: uuid('product_id'),
    /** Null: the company-wide row. Set: the same figure for one sales rep's contracts. */
    repId: uuid('rep_id'),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [
    index('report_month_totals_idx').on(t.metric, t.repId, t.month, t.productId),
    check('report_month_totals_metric_check', sql`${t.metric} in ('revenue','billed','product')`),
  ],
);

/**
 * The book now: contracts and their monthly amount by status, company-wide (rep_id null) and per sales
 * rep, kept like report_month_totals by insert-only delta rows from triggers on contracts (migration
 * 0012_report_book_totals.sql) and folded by compactReportTotals(). Status counts and MRR read these
 * few rows instead of every contract.
 */
export const reportBookTotals = pgTable(
  'report_book_totals',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    repId: uuid('rep_id'),
    status: text('status').notNull(),
    contracts: integer('contracts').notNull(),
    monthlyCents: bigint('monthly_cents', { mode: 'number' }).notNull(),
  },
  (t) => [index('report_book_totals_idx').on(t.repId, t.status)],
);

/**
 * What fell due and what of it is collected, per due date (the reports' collection rate, decision 049),
 * company-wide (rep_id null) and per sales rep, kept like report_month_totals by insert-only delta rows from
 * triggers on invoices (and on contracts, when one changes rep; migration 0038) and folded by
 * compactReportTotals(). Per non-void invoice: `due_cents` its total net of credit notes, `collected_cents`
 * what is paid on it net of refunds (never more than due_cents), `invoices` 1 when something is due on it.
 * A report sums the days of its range up to today: a few hundred rows for a year, whatever the volume.
 */
export const reportDueTotals = pgTable(
  'report_due_totals',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    dueDate: date('due_date', { mode: 'string' }).notNull(),
    repId: uuid('rep_id'),
    invoices: integer('invoices').notNull().default(0),
    dueCents: bigint('due_cents', { mode: 'number' }).notNull(),
    collectedCents: bigint('collected_cents', { mode: 'number' }).notNull(),
  },
  (t) => [index('report_due_totals_idx').on(t.repId, t.dueDate)],
);
