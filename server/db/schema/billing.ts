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
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { products } from './catalog';
import { contractLineItems, contracts } from './contracts';
import { customers } from './customers';
import { users } from './users';

/**
 * The last number issued in each gapless series (INV for invoices, CN for credit notes, EXP for accounting
 * export batches) and year.
 * A document is numbered in the transaction that issues it, by an upsert of its series' row: the row stays
 * locked until that transaction ends, so concurrent issuers (several instances, several runs) take
 * consecutive numbers one after the other, and a rolled-back issue returns its numbers. See decision 023.
 */
export const numberSeries = pgTable(
  'number_series',
  {
    series: text('series').notNull(),
    year: integer('year').notNull(),
    lastValue: bigint('last_value', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.series, t.year] }),
    check('number_series_series_check', sql`${t.series} in ('INV','CN','EXP')`),
    check('number_series_last_value_check', sql`${t.lastValue} >= 0`),
  ],
);

/**
 * One invoice per contract and billing period (the unique constraint decides, so concurrent or repeated
 * billing runs never double-bill). Figures are integer cents; the tax settings are snapshotted at issue.
 */
export const invoices = pgTable(
  'invoices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    number: text('number').notNull().unique(),
    contractId: uuid('contract_id')
      .notNull()
      .references(() => contracts.id, { onDelete: 'restrict' }),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'restrict' }),
    /**
     * Who the invoice is addressed to and who pays it: its contract's bill-to (the customer or its agency), always
     * (the trigger `invoices_bill_to_set`, migration 0047, sets it from the contract on insert; writers leave it out).
     */
    billToCustomerId: uuid('bill_to_customer_id')
      .notNull()
      .default(sql`null`)
      .references(() => customers.id, { onDelete: 'restrict' }),
    /**
     * The agency's commission on the invoice's subtotal (product.md section 20): `net`, deducted on the invoice
     * (its "Agency commission" line; tax and total on the net); `gross`, the invoice is the gross and this is
     * owed to the agency once it is paid. 0 and null for an invoice not billed to an agency.
     */
    agencyCommissionCents: bigint('agency_commission_cents', { mode: 'number' }).notNull().default(0),
    agencyBillingMode: text('agency_billing_mode').$type<'net' | 'gross'>(),
    /** 0 for the first period: periodStart = contract startDate + periodIndex calendar months. */
    periodIndex: integer('period_index').notNull(),
    periodStart: date('period_start', { mode: 'string' }).notNull(),
    /** The last day of the period (the day before the next period starts). */
    periodEnd: date('period_end', { mode: 'string' }).notNull(),
    dueDate: date('due_date', { mode: 'string' }).notNull(),
    status: text('status').notNull().default('pending'),
    subtotalCents: bigint('subtotal_cents', { mode: 'number' }).notNull(),
    /** The setup-fee line's amount (first invoice only), kept apart for commissions. */
    setupFeeCents: bigint('setup_fee_cents', { mode: 'number' }).notNull().default(0),
    taxCents: bigint('tax_cents', { mode: 'number' }).notNull(),
    taxLabel: text('tax_label').notNull(),
    /** The tax rate in basis points (8.25% is 825). */
    taxRateBp: integer('tax_rate_bp').notNull(),
    taxIncluded: boolean('tax_included').notNull(),
    totalCents: bigint('total_cents', { mode: 'number' }).notNull(),
    amountPaidCents: bigint('amount_paid_cents', { mode: 'number' }).notNull().default(0),
    refundedCents: bigint('refunded_cents', { mode: 'number' }).notNull().default(0),
    /** What its credit notes credited (a void's included): amount due = total - paid - credited, never below 0. */
    creditedCents: bigint('credited_cents', { mode: 'number' }).notNull().default(0),
    /** True when any line was billed at its product's seasonal price. */
    inSeason: boolean('in_season').notNull().default(false),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    voidedAt: timestamp('voided_at', { withTimezone: true }),
    voidReason: text('void_reason'),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('invoices_contract_period_key').on(t.contractId, t.periodStart),
    index('invoices_contract_idx').on(t.contractId, t.periodStart),
    index('invoices_customer_idx').on(t.customerId, t.periodStart),
    index('invoices_bill_to_idx').on(t.billToCustomerId, t.issuedAt),
    // Reports and statements: the few invoices billed to an agency, by issue date, with their commission.
    index('invoices_agency_issued_idx')
      .on(t.issuedAt, t.billToCustomerId, t.agencyBillingMode, t.agencyCommissionCents, t.subtotalCents)
      .where(sql`${t.agencyBillingMode} is not null`),
    index('invoices_status_due_idx').on(t.status, t.dueDate),
    // Reports: the invoices paid in a period (the autopay share counts them; decision 057).
    index('invoices_paid_at_idx').on(t.paidAt, t.id).where(sql`${t.status} = 'paid'`),
    index('invoices_period_idx').on(t.periodStart),
    index('invoices_issued_idx').on(t.issuedAt, t.id),
    // Reports: a rep's invoices by issue date (billed, top products) without touching the table, and the open
    // (pending or failed) invoices by due date and by contract (overdue alert, open balance): decision 015.
    // The trailing columns only cover the queries (index-only scans). The partial indexes' predicate is the
    // payable rule (PAYABLE_INVOICE_STATUSES in shared/invoice-amounts.ts, sqlPayable in db/invoice-amounts.ts)
    // written out as literal SQL: an index predicate takes no parameters, and drizzle-kit writes it into the
    // migration as it reads here.
    index('invoices_contract_issued_idx').on(t.contractId, t.issuedAt, t.status, t.totalCents, t.id),
    index('invoices_open_due_idx')
      .on(t.dueDate, t.totalCents, t.amountPaidCents)
      .where(sql`${t.status} in ('pending','failed')`),
    index('invoices_open_contract_idx')
      .on(t.contractId, t.dueDate, t.totalCents, t.amountPaidCents)
      .where(sql`${t.status} in ('pending','failed')`),
    // Receivables: a customer's open invoices (the aggregate per customer, the customer page's open invoices).
    index('invoices_open_customer_idx').on(t.customerId, t.dueDate).where(sql`${t.status} in ('pending','failed')`),
    index('invoices_number_search_idx').using('gin', sql`lower(${t.number}) gin_trgm_ops`),
    check('invoices_status_check', sql`${t.status} in ('pending','paid','failed','void')`),
    check(
      'invoices_agency_check',
      sql`(${t.agencyBillingMode} is null and ${t.agencyCommissionCents} = 0) or (${t.agencyBillingMode} in ('net','gross') and ${t.agencyCommissionCents} >= 0)`,
    ),
    check(
      'invoices_amounts_check',
      sql`${t.subtotalCents} >= 0 and ${t.taxCents} >= 0 and ${t.totalCents} >= 0 and ${t.amountPaidCents} >= 0 and ${t.amountPaidCents} <= ${t.totalCents} and ${t.refundedCents} >= 0 and ${t.refundedCents} <= ${t.amountPaidCents} and ${t.creditedCents} >= 0 and ${t.creditedCents} <= ${t.totalCents}`,
    ),
  ],
);

/** What an invoice charges: product lines, the package, and the setup fee (first invoice only). */
export const invoiceLines = pgTable(
  'invoice_lines',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    invoiceId: uuid('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    position: integer('position').notNull().default(0),
    kind: text('kind').notNull(),
    description: text('description').notNull(),
    productId: uuid('product_id').references(() => products.id, { onDelete: 'set null' }),
    quantity: integer('quantity').notNull().default(1),
    /** The unit price used for this period (the seasonal price in season, where the product has one). */
    unitPriceCents: bigint('unit_price_cents', { mode: 'number' }).notNull(),
    discountCents: bigint('discount_cents', { mode: 'number' }).notNull().default(0),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    seasonal: boolean('seasonal').notNull().default(false),
    /** A product line's price metric (null for the package and setup-fee lines). */
    priceMetric: text('price_metric'),
    /** The days this line bills: the part of the period its flight covers (a flat line: its flight). */
    coversStart: date('covers_start', { mode: 'string' }),
    coversEnd: date('covers_end', { mode: 'string' }),
    /** A prorated line: the days billed of the period's days (null when billed in full). */
    proratedDays: integer('prorated_days'),
    periodDays: integer('period_days'),
    /** The contract line billed (product lines) or made good (makegood lines). */
    lineId: uuid('line_id').references(() => contractLineItems.id, { onDelete: 'set null' }),
    /**
     * Impressions: a CPM line's booked volume for the days billed; a makegood line's free impressions owed
     * for an earlier period's shortfall (product.md section 12). Null for other lines.
     */
    impressions: bigint('impressions', { mode: 'number' }),
  },
  (t) => [
    index('invoice_lines_invoice_idx').on(t.invoiceId, t.position),
    index('invoice_lines_product_idx').on(t.productId),
    // Delivery finds a line's billed periods.
    index('invoice_lines_line_idx').on(t.lineId).where(sql`${t.lineId} is not null`),
    check(
      'invoice_lines_kind_check',
      sql`${t.kind} in ('product','package','setup_fee','adjustment','makegood','agency_commission')`,
    ),
    check('invoice_lines_impressions_check', sql`coalesce(${t.impressions}, 0) >= 0`),
  ],
);

/**
 * Money received (kind payment) or returned (kind refund), and failed attempts (status failed).
 * A provider's payment id is recorded once per invoice: a replayed confirmation cannot pay twice.
 */
export const payments = pgTable(
  'payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    invoiceId: uuid('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'restrict' }),
    contractId: uuid('contract_id')
      .notNull()
      .references(() => contracts.id, { onDelete: 'restrict' }),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'restrict' }),
    kind: text('kind').notNull().default('payment'),
    status: text('status').notNull().default('succeeded'),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    method: text('method').notNull(),
    provider: text('provider').notNull(),
    providerPaymentId: text('provider_payment_id'),
    checkoutSessionId: uuid('checkout_session_id'),
    reference: text('reference'),
    cardBrand: text('card_brand'),
    cardLast4: text('card_last4'),
    failureMessage: text('failure_message'),
    /** When the money moved (a manual payment may be back-dated). */
    paidAt: timestamp('paid_at', { withTimezone: true }).notNull().defaultNow(),
    recordedBy: uuid('recorded_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('payments_provider_payment_key').on(t.provider, t.providerPaymentId, t.invoiceId, t.kind),
    index('payments_invoice_idx').on(t.invoiceId, t.createdAt),
    index('payments_contract_idx').on(t.contractId, t.paidAt),
    index('payments_paid_at_idx').on(t.paidAt).where(sql`${t.status} = 'succeeded'`),
    // Reports: a rep's cash received, contract by contract, read from the index alone (decision 015).
    index('payments_contract_succeeded_idx')
      .on(t.contractId, t.paidAt, t.kind, t.amountCents)
      .where(sql`${t.status} = 'succeeded'`),
    // Receivables: a customer's last payment received (not one its credit balance made).
    index('payments_customer_paid_idx')
      .on(t.customerId, t.paidAt)
      .where(sql`${t.status} = 'succeeded' and ${t.kind} = 'payment' and ${t.method} <> 'credit'`),
    // The customer's timeline: its newest payments of any kind and status (customer-timeline.repo.ts).
    index('payments_customer_story_idx').on(t.customerId, t.paidAt),
    // Reports: an invoice's autopay payments, probed for each invoice paid in the period (decision 057).
    index('payments_autopay_idx')
      .on(t.invoiceId, t.amountCents)
      .where(sql`${t.status} = 'succeeded' and ${t.kind} = 'payment' and ${t.method} in ('card_on_file','bank_debit')`),
    check('payments_kind_check', sql`${t.kind} in ('payment','refund')`),
    check('payments_status_check', sql`${t.status} in ('succeeded','failed')`),
    check(
      'payments_method_check',
      sql`${t.method} in ('card','card_on_file','bank_debit','check','wire','cash','other','credit')`,
    ),
    check('payments_amount_check', sql`${t.amountCents} >= 0`),
  ],
);

/**
 * A checkout opened from a pay link or the portal: what it charges, for which invoices (none yet for a
 * sent contract's first payment), and whether it completed. Completion is one conditional update.
 */
export const checkoutSessions = pgTable(
  'checkout_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The unguessable id in the checkout URL. */
    token: text('token').notNull().unique(),
    /** The contract paid for; null for a session of several contracts ("Pay all due": `payerId`'s invoices). */
    contractId: uuid('contract_id').references(() => contracts.id, { onDelete: 'cascade' }),
    /** "Pay all due" (product.md section 20): the customer paying every invoice due that is billed to it. */
    payerId: uuid('payer_id').references(() => customers.id, { onDelete: 'cascade' }),
    invoiceIds: uuid('invoice_ids').array().notNull().default(sql`'{}'::uuid[]`),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    provider: text('provider').notNull(),
    providerSessionId: text('provider_session_id').unique(),
    source: text('source').notNull(),
    status: text('status').notNull().default('open'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    index('checkout_sessions_contract_idx').on(t.contractId, t.createdAt),
    index('checkout_sessions_payer_idx').on(t.payerId, t.createdAt).where(sql`${t.payerId} is not null`),
    check('checkout_sessions_subject_check', sql`(${t.contractId} is null) <> (${t.payerId} is null)`),
    check('checkout_sessions_status_check', sql`${t.status} in ('open','completed','expired')`),
    check('checkout_sessions_source_check', sql`${t.source} in ('pay_link','portal')`),
  ],
);

/** Days a contract was paused: periods that start inside one are not billed. */
export const contractPauses = pgTable(
  'contract_pauses',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    contractId: uuid('contract_id')
      .notNull()
      .references(() => contracts.id, { onDelete: 'cascade' }),
    pausedOn: date('paused_on', { mode: 'string' }).notNull(),
    /** The day billing resumed; null while the contract is still paused. */
    resumedOn: date('resumed_on', { mode: 'string' }),
    /**
     * 'manual': staff paused it, periods inside are not billed. 'non_payment': dunning paused it, periods
     * inside are billed when it resumes (the service ran; product.md section 14).
     */
    reason: text('reason').notNull().default('manual'),
  },
  (t) => [
    index('contract_pauses_contract_idx').on(t.contractId, t.pausedOn),
    check('contract_pauses_reason_check', sql`${t.reason} in ('manual','non_payment')`),
  ],
);

/**
 * The dunning steps an unpaid invoice went through: each reminder and the contract's pause for non-payment,
 * once per invoice and step (the primary key decides, whatever runs at once).
 */
export const dunningSteps = pgTable(
  'dunning_steps',
  {
    invoiceId: uuid('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    step: text('step').notNull(),
    doneAt: timestamp('done_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.invoiceId, t.step] }),
    check('dunning_steps_step_check', sql`${t.step} in ('first_reminder','second_reminder','pause')`),
  ],
);

/** Each billing run: when it ran, up to which day, how many invoices it issued (for System Health). */
export const billingRuns = pgTable(
  'billing_runs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    asOf: date('as_of', { mode: 'string' }).notNull(),
    status: text('status').notNull().default('running'),
    invoicesIssued: integer('invoices_issued').notNull().default(0),
    error: text('error'),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('billing_runs_started_idx').on(t.startedAt),
    check('billing_runs_status_check', sql`${t.status} in ('running','succeeded','failed')`),
  ],
);

/** A credit note's references: its invoice, and the contract and customer it belongs to (never deleted). */
function recordOf() {
  const kept = { onDelete: 'restrict' } as const;
  return {
    invoiceId: uuid('invoice_id')
      .notNull()
      .references(() => invoices.id, kept),
    contractId: uuid('contract_id')
      .notNull()
      .references(() => contracts.id, kept),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id, kept),
  };
}

/**
 * A correction of an issued invoice (product.md section 14): its own gapless series (CN-<year>-<6 digits>,
 * decision 023), never changed once issued. `appliedCents` lowered the invoice's amount due; `toBalanceCents`,
 * the part beyond it, went to the customer's credit balance. A void's note credits what remained uncredited.
 */
export const creditNotes = pgTable(
  'credit_notes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    number: text('number').notNull().unique(),
    // The invoice it corrects, and that invoice's contract and customer (for lists by either).
    ...recordOf(),
    kind: text('kind').notNull(),
    reason: text('reason').notNull(),
    /** What is credited, in the invoice's terms (tax included). */
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    /** Its tax part, at the invoice's rate; amount - tax is the credited amount before tax. */
    taxCents: bigint('tax_cents', { mode: 'number' }).notNull(),
    appliedCents: bigint('applied_cents', { mode: 'number' }).notNull(),
    toBalanceCents: bigint('to_balance_cents', { mode: 'number' }).notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('credit_notes_invoice_idx').on(t.invoiceId, t.issuedAt),
    index('credit_notes_customer_idx').on(t.customerId, t.issuedAt),
    index('credit_notes_contract_idx').on(t.contractId, t.issuedAt),
    index('credit_notes_issued_idx').on(t.issuedAt, t.id),
    index('credit_notes_number_search_idx').using('gin', sql`lower(${t.number}) gin_trgm_ops`),
    uniqueIndex('credit_notes_void_key').on(t.invoiceId).where(sql`${t.kind} = 'void'`),
    check('credit_notes_kind_check', sql`${t.kind} in ('void','partial','delivery')`),
    check(
      'credit_notes_amounts_check',
      sql`${t.amountCents} > 0 and ${t.taxCents} >= 0 and ${t.taxCents} <= ${t.amountCents} and ${t.appliedCents} >= 0 and ${t.toBalanceCents} >= 0 and ${t.appliedCents} + ${t.toBalanceCents} = ${t.amountCents}`,
    ),
  ],
);

/**
 * The movements of a customer's credit balance (customers.credit_balance_cents is their sum, kept by the
 * same transaction): `credit` (+, a credit note beyond the amount due), `applied` (-, paid an invoice:
 * its payment of method `credit`), `unapplied` (+, that payment given back when its invoice was voided),
 * `refunded` (-, paid back by finance).
 */
export const customerCreditEntries = pgTable(
  'customer_credit_entries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'restrict' }),
    kind: text('kind').notNull(),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    creditNoteId: uuid('credit_note_id').references(() => creditNotes.id, { onDelete: 'restrict' }),
    invoiceId: uuid('invoice_id').references(() => invoices.id, { onDelete: 'restrict' }),
    paymentId: uuid('payment_id').references(() => payments.id, { onDelete: 'restrict' }),
    method: text('method'),
    reference: text('reference'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('customer_credit_entries_customer_idx').on(t.customerId, t.createdAt),
    uniqueIndex('customer_credit_entries_payment_key').on(t.paymentId, t.kind).where(sql`${t.paymentId} is not null`),
    check('customer_credit_entries_kind_check', sql`${t.kind} in ('credit','applied','unapplied','refunded')`),
    check(
      'customer_credit_entries_amount_check',
      sql`(${t.kind} in ('credit','unapplied') and ${t.amountCents} > 0) or (${t.kind} in ('applied','refunded') and ${t.amountCents} < 0)`,
    ),
  ],
);
