import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  check,
  date,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { packages, products } from './catalog';
import { customers } from './customers';
import { users } from './users';

export const contracts = pgTable(
  'contracts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'restrict' }),
    /** The sales rep: the creator unless a manager assigns another sales user. */
    salesRepId: uuid('sales_rep_id').references(() => users.id, { onDelete: 'set null' }),
    /**
     * Who is invoiced and pays (product.md section 20): the customer itself, or the agency of record that bought
     * for it. Its billing contact receives the IO, the pay link, the invoices and the receipts; its client users
     * see the contract in their portal. A writer that leaves it out gets the customer (the trigger
     * `contracts_bill_to_default`, migration 0047: the column's null default is replaced before NOT NULL is checked).
     */
    billToCustomerId: uuid('bill_to_customer_id')
      .notNull()
      .default(sql`null`)
      .references(() => customers.id, { onDelete: 'restrict' }),
    /** Billed to an agency: its commission (basis points) and billing mode, as agreed when the contract was made. */
    agencyCommissionBp: integer('agency_commission_bp'),
    agencyBillingMode: text('agency_billing_mode').$type<'net' | 'gross'>(),
    title: text('title'),
    description: text('description'),
    status: text('status').notNull().default('draft'),
    startDate: date('start_date', { mode: 'string' }).notNull(),
    termMonths: integer('term_months'),
    autoStopDate: date('auto_stop_date', { mode: 'string' }),
    paymentMode: text('payment_mode').notNull(),
    payLinkToken: text('pay_link_token').unique(),
    packageId: uuid('package_id').references(() => packages.id, { onDelete: 'restrict' }),
    /** Figures computed by the server from the lines and the package (shared/money.ts). */
    packagePriceCents: bigint('package_price_cents', { mode: 'number' }).notNull().default(0),
    lineItemsTotalCents: bigint('line_items_total_cents', { mode: 'number' }).notNull().default(0),
    monthlyAmountCents: bigint('monthly_amount_cents', { mode: 'number' }).notNull().default(0),
    seasonalMonthlyAmountCents: bigint('seasonal_monthly_amount_cents', { mode: 'number' }).notNull().default(0),
    /**
     * What the term bills before tax (the billing engine's term value, shared/contract-figures.ts), kept with
     * the monthly figures by every write of the lines; null when the term is indefinite, or for a contract
     * last saved before this column existed (the reports value those by the engine).
     */
    termValueCents: bigint('term_value_cents', { mode: 'number' }),
    setupFeeCents: bigint('setup_fee_cents', { mode: 'number' }).notNull().default(0),
    totalCents: bigint('total_cents', { mode: 'number' }).notNull().default(0),
    stripeSubscriptionId: text('stripe_subscription_id'),
    stripePaymentLinkId: text('stripe_payment_link_id'),
    stripeCustomerId: text('stripe_customer_id'),
    cancelReason: text('cancel_reason'),
    /** The contract this one renews (product.md section 15): unique, so a contract is renewed once. */
    renewalOfId: uuid('renewal_of_id')
      .unique('contracts_renewal_of_key')
      .references((): AnyPgColumn => contracts.id, { onDelete: 'set null' }),
    /** Why a paused contract is paused: by staff ('manual') or by dunning ('non_payment'); null otherwise. */
    pauseReason: text('pause_reason'),
    /** How an under-delivered CPM period is settled (product.md section 12): 'credit' or 'makegood'. */
    underDeliveryRemedy: text('under_delivery_remedy').notNull().default('credit'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    activatedAt: timestamp('activated_at', { withTimezone: true }),
    canceledAt: timestamp('canceled_at', { withTimezone: true }),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * What the contract search matches (docs/decisions/045-search.md): lower-cased, bounded to the title's and
     * the description's first 200 characters, the id, and the customer's name (its first 200 characters).
     * Kept by triggers (migration 0034): `contracts_search_text_set` on every insert and on updates of the
     * title, description or customer, `customers_search_text_rename` when a customer's name changes. No
     * writer sets it.
     */
    searchText: text('search_text').notNull().default(''),
  },
  (t) => [
    index('contracts_status_idx').on(t.status, t.createdAt, t.id),
    index('contracts_customer_idx').on(t.customerId, t.createdAt, t.id),
    index('contracts_sales_rep_idx').on(t.salesRepId, t.createdAt, t.id),
    index('contracts_bill_to_idx').on(t.billToCustomerId, t.createdAt, t.id),
    index('contracts_package_idx').on(t.packageId),
    // Reports' contract figures read indexes only: status counts, MRR and active customers; new contracts
    // and their mean value by creation date (decision 015).
    index('contracts_report_status_idx').on(t.status, t.customerId, t.monthlyAmountCents),
    index('contracts_report_created_idx').on(t.createdAt, t.totalCents),
    index('contracts_report_rep_idx').on(t.salesRepId, t.status, t.customerId),
    // Contracts running out (reports' alert, the expiry notice job): only running contracts are indexed.
    index('contracts_auto_stop_idx')
      .on(t.autoStopDate)
      .where(sql`${t.status} in ('active','paused') and ${t.autoStopDate} is not null`),
    // Contracts whose term ended in a range (reports' renewal rate): every status a contract can end in.
    index('contracts_term_end_idx')
      .on(t.autoStopDate)
      .where(sql`${t.autoStopDate} is not null and ${t.status} in ('active','paused','completed','canceled')`),
    // The list's order (newest first, id as tie-break) is served by these indexes without a sort.
    // contracts_created_idx also INCLUDEs search_text (migration 0034, written by hand: drizzle-kit has no
    // INCLUDE), so a search that walks the newest contracts first reads the index only.
    index('contracts_created_idx').on(t.createdAt, t.id),
    // A search whose matches are rare finds them through the trigrams instead (decision 045).
    index('contracts_search_idx').using('gin', sql`${t.searchText} gin_trgm_ops`),
    check('contracts_status_check', sql`${t.status} in ('draft','sent','active','paused','canceled','completed')`),
    check(
      'contracts_pause_reason_check',
      sql`${t.pauseReason} is null or (${t.status} = 'paused' and ${t.pauseReason} in ('manual','non_payment'))`,
    ),
    check('contracts_under_delivery_remedy_check', sql`${t.underDeliveryRemedy} in ('credit','makegood')`),
    // Delivery imports quote contracts by their short id (the last 8 characters).
    index('contracts_short_id_idx').on(sql`right(${t.id}::text, 8)`),
    check('contracts_payment_mode_check', sql`${t.paymentMode} in ('portal','pay_link')`),
    check(
      'contracts_agency_terms_check',
      sql`(${t.agencyCommissionBp} is null and ${t.agencyBillingMode} is null) or (${t.billToCustomerId} <> ${t.customerId} and ${t.agencyCommissionBp} between 0 and 10000 and ${t.agencyBillingMode} in ('net','gross'))`,
    ),
    check('contracts_term_check', sql`${t.termMonths} is null or ${t.termMonths} between 1 and 120`),
  ],
);

export const contractLineItems = pgTable(
  'contract_line_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    contractId: uuid('contract_id')
      .notNull()
      .references(() => contracts.id, { onDelete: 'cascade' }),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'restrict' }),
    quantity: integer('quantity').notNull().default(1),
    unitPriceCents: bigint('unit_price_cents', { mode: 'number' }).notNull(),
    discountCents: bigint('discount_cents', { mode: 'number' }).notNull().default(0),
    lineTotalCents: bigint('line_total_cents', { mode: 'number' }).notNull(),
    position: integer('position').notNull().default(0),
    /** The product's price metric when the line was sold: monthly, flat (once) or cpm (per 1,000 a month). */
    priceMetric: text('price_metric').notNull().default('monthly'),
    /** The unit price of periods starting October to December; null: the unit price all year. */
    seasonalPriceCents: bigint('seasonal_price_cents', { mode: 'number' }),
    /** The flight: the days the line runs (a flat line is billed in the period its flight starts). */
    flightStart: date('flight_start', { mode: 'string' }).notNull(),
    /** null: until the contract ends. */
    flightEnd: date('flight_end', { mode: 'string' }),
  },
  (t) => [
    index('contract_line_items_contract_idx').on(t.contractId, t.position),
    index('contract_line_items_product_idx').on(t.productId),
    // Availability of an inventory product over a range reads the lines still running at its start: by the
    // flight's end (none: for good), so past flights are not read; the rest of what it needs is in the index
    // (an index-only scan: product.md section 13).
    index('contract_line_items_flight_idx').on(
      t.productId,
      sql`coalesce(${t.flightEnd}, 'infinity'::date)`,
      t.flightStart,
      t.flightEnd,
      t.contractId,
      t.quantity,
    ),
    check('contract_line_items_quantity_check', sql`${t.quantity} >= 1`),
    check('contract_line_items_metric_check', sql`${t.priceMetric} in ('monthly','flat','cpm')`),
    check('contract_line_items_seasonal_price_check', sql`coalesce(${t.seasonalPriceCents}, 0) >= 0`),
    check('contract_line_items_flight_check', sql`${t.flightEnd} is null or ${t.flightEnd} >= ${t.flightStart}`),
  ],
);

/**
 * What an amendment changes in periods already invoiced (product.md section 11): a prorated charge (a line
 * added) or credit (a line ended) for the days concerned, billed on the contract's next invoice. invoice_id
 * is set when an invoice carries it; a credit larger than the next invoice waits for a later one.
 */
export const contractAdjustments = pgTable(
  'contract_adjustments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    contractId: uuid('contract_id')
      .notNull()
      .references(() => contracts.id, { onDelete: 'cascade' }),
    lineId: uuid('line_id').references(() => contractLineItems.id, { onDelete: 'set null' }),
    productId: uuid('product_id').references(() => products.id, { onDelete: 'set null' }),
    description: text('description').notNull(),
    /** The days of the invoiced period the charge or credit is for. */
    coversStart: date('covers_start', { mode: 'string' }).notNull(),
    coversEnd: date('covers_end', { mode: 'string' }).notNull(),
    /** Positive: a charge; negative: a credit. */
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    /** The invoice that carries it; null while pending. */
    invoiceId: uuid('invoice_id'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('contract_adjustments_pending_idx').on(t.contractId).where(sql`${t.invoiceId} is null`),
    check('contract_adjustments_amount_check', sql`${t.amountCents} <> 0`),
  ],
);
