import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  index,
  pgTable,
  smallint,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { invoices, payments } from './billing';
import { customers } from './customers';
import { users } from './users';

/**
 * Automatic payment (product.md section 18). A customer's payment methods on file: what the provider keeps
 * (its customer and method ids) and what we may show (brand, last 4, expiry, fingerprint), never a number or
 * a CVC. Each carries the consent under which it may be charged. Removing one keeps the row (removed_at),
 * because its attempts and consent are records. At most one default per customer among those not removed.
 */
export const paymentMethods = pgTable(
  'payment_methods',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    providerCustomerId: text('provider_customer_id'),
    providerMethodId: text('provider_method_id').notNull(),
    /** `card` or `us_bank_account`. */
    kind: text('kind').notNull().default('card'),
    brand: text('brand').notNull(),
    last4: text('last4').notNull(),
    expMonth: smallint('exp_month'),
    expYear: smallint('exp_year'),
    fingerprint: text('fingerprint'),
    isDefault: boolean('is_default').notNull().default(false),
    status: text('status').notNull().default('active'),
    consentText: text('consent_text').notNull(),
    /** The signed-in client who agreed (null for a pay-link or set-up-link payer, named by consent_email). */
    consentUserId: uuid('consent_user_id').references(() => users.id, { onDelete: 'set null' }),
    consentName: text('consent_name').notNull(),
    consentEmail: text('consent_email'),
    consentAt: timestamp('consent_at', { withTimezone: true }).notNull().defaultNow(),
    consentIp: text('consent_ip'),
    consentUserAgent: text('consent_user_agent'),
    /** Where it was saved: a checkout, the portal's page or an e-mailed set-up link. */
    source: text('source').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    removedAt: timestamp('removed_at', { withTimezone: true }),
  },
  (t) => [
    unique('payment_methods_provider_method_key').on(t.provider, t.providerMethodId),
    index('payment_methods_customer_idx').on(t.customerId, t.createdAt),
    uniqueIndex('payment_methods_one_default_idx')
      .on(t.customerId)
      .where(sql`${t.isDefault} and ${t.removedAt} is null`),
    // The cards expiring soon, for the expiry notices, without reading every method.
    index('payment_methods_expiry_idx')
      .on(t.expYear, t.expMonth)
      .where(sql`${t.removedAt} is null and ${t.status} = 'active'`),
    check('payment_methods_kind_check', sql`${t.kind} in ('card','us_bank_account')`),
    check('payment_methods_status_check', sql`${t.status} in ('active','expired','failed')`),
    check('payment_methods_source_check', sql`${t.source} in ('checkout','portal','setup_link')`),
  ],
);

/**
 * One off-session charge of one invoice: unique per (invoice, attempt number), so that on any number of
 * instances an invoice is charged at most once per attempt. The provider gets the idempotency key
 * `invoice-<id>-attempt-<n>`. A failed attempt says when the next one is due (retry_on; null: none).
 */
export const autopayAttempts = pgTable(
  'autopay_attempts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    invoiceId: uuid('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    attemptNumber: smallint('attempt_number').notNull(),
    paymentMethodId: uuid('payment_method_id')
      .notNull()
      .references(() => paymentMethods.id, { onDelete: 'restrict' }),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    /** pending (claimed, being charged), succeeded, failed, requires_action, skipped (nothing was due). */
    status: text('status').notNull().default('pending'),
    /** soft, hard or authentication, for a failure. */
    declineKind: text('decline_kind'),
    declineCode: text('decline_code'),
    reason: text('reason'),
    providerPaymentId: text('provider_payment_id'),
    paymentId: uuid('payment_id').references(() => payments.id, { onDelete: 'set null' }),
    /** Who asked: null for the charge run, the finance user for "Charge now". */
    requestedBy: uuid('requested_by').references(() => users.id, { onDelete: 'set null' }),
    /** The business day of the first attempt of this invoice's series: retries are counted from it. */
    seriesStartedOn: date('series_started_on', { mode: 'string' }).notNull(),
    retryOn: date('retry_on', { mode: 'string' }),
    attemptedAt: timestamp('attempted_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    unique('autopay_attempts_invoice_attempt_key').on(t.invoiceId, t.attemptNumber),
    index('autopay_attempts_customer_idx').on(t.customerId, t.attemptedAt),
    // The retries due: read from the index alone by the charge run.
    index('autopay_attempts_retry_idx').on(t.retryOn).where(sql`${t.retryOn} is not null`),
    // Reports' "Recovered by retries": the retries that succeeded, by attempt time, without reading every
    // attempt (no other index leads with attempted_at); invoice and payment make it index-only but for the join.
    index('autopay_attempts_recovered_idx')
      .on(t.attemptedAt, t.invoiceId, t.paymentId, t.amountCents)
      .where(sql`${t.status} = 'succeeded' and ${t.attemptNumber} > 1`),
    check(
      'autopay_attempts_status_check',
      sql`${t.status} in ('pending','succeeded','failed','requires_action','skipped')`,
    ),
    check(
      'autopay_attempts_decline_check',
      sql`${t.declineKind} is null or ${t.declineKind} in ('soft','hard','authentication')`,
    ),
    check('autopay_attempts_amount_check', sql`${t.amountCents} >= 0`),
    check('autopay_attempts_number_check', sql`${t.attemptNumber} >= 1`),
  ],
);

/**
 * An e-mailed link to save a payment method, for a customer who pays by link and has no portal account (or
 * the portal's own "Add a payment method", which opens the same page). 7 days, once; only its SHA-256 is kept.
 */
export const paymentSetupLinks = pgTable(
  'payment_setup_links',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tokenHash: text('token_hash').notNull().unique(),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    /** `email` (sent by staff) or `portal` (opened by the signed-in client). */
    purpose: text('purpose').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('payment_setup_links_customer_idx').on(t.customerId, t.createdAt),
    check('payment_setup_links_purpose_check', sql`${t.purpose} in ('email','portal')`),
  ],
);

/** Notices sent about a method (its card expiring in 30 or in 7 days): each once per method. */
export const paymentMethodNotices = pgTable(
  'payment_method_notices',
  {
    paymentMethodId: uuid('payment_method_id')
      .notNull()
      .references(() => paymentMethods.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('payment_method_notices_key').on(t.paymentMethodId, t.kind),
    check('payment_method_notices_kind_check', sql`${t.kind} in ('expiring_30','expiring_7')`),
  ],
);

/**
 * The built-in provider's own vault: what it remembers of a saved test card, so that its later off-session
 * charges behave as that card does (product.md section 18's test cards). Stripe keeps this on its side.
 */
export const builtinSavedCards = pgTable(
  'builtin_saved_cards',
  {
    providerMethodId: text('provider_method_id').primaryKey(),
    behaviour: text('behaviour').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check(
      'builtin_saved_cards_behaviour_check',
      sql`${t.behaviour} in ('succeeds','declines','insufficient_funds','expired','authentication')`,
    ),
  ],
);

/**
 * The built-in provider's record of its off-session charges by idempotency key: a second request with the key
 * of an attempt answers the first one's result, as Stripe's Idempotency-Key does, and never charges twice.
 */
export const builtinCharges = pgTable(
  'builtin_charges',
  {
    idempotencyKey: text('idempotency_key').primaryKey(),
    providerPaymentId: text('provider_payment_id').notNull(),
    providerMethodId: text('provider_method_id').notNull(),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    outcome: text('outcome').notNull(),
    declineCode: text('decline_code'),
    refundedCents: bigint('refunded_cents', { mode: 'number' }).notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('builtin_charges_outcome_check', sql`${t.outcome} in ('succeeded','declined','requires_action')`)],
);
