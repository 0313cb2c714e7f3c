import { sql } from 'drizzle-orm';
import {
  bigint,
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
import { products } from './catalog';
import { contracts } from './contracts';
import { customers } from './customers';
import { users } from './users';

/**
 * The pipeline's stages (product.md section 19), in `position` order, each with its default probability and
 * kind; `milestone` marks the stage a deal reaches when its contract is drafted or sent. One won and one lost
 * stage (the settings' schema keeps that); migration 0042 writes the default six.
 */
export const pipelineStages = pgTable(
  'pipeline_stages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    position: integer('position').notNull(),
    probability: integer('probability').notNull(),
    kind: text('kind').notNull(),
    milestone: text('milestone'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('pipeline_stages_probability_check', sql`${t.probability} between 0 and 100`),
    check('pipeline_stages_kind_check', sql`${t.kind} in ('open', 'won', 'lost')`),
    check(
      'pipeline_stages_milestone_check',
      sql`${t.milestone} is null or (${t.kind} = 'open' and ${t.milestone} in ('contract_drafted', 'contract_sent'))`,
    ),
    uniqueIndex('pipeline_stages_milestone_key').on(t.milestone),
  ],
);

/**
 * A deal: the expected contract of a customer (or prospect), owned by a rep, in a stage. `probability` is
 * the deal's own percent when overridden (null: the stage's). `version` grows with every change: a change
 * made from an older version is refused (the conditional UPDATE finds no row). `contract_id` is the contract
 * drafted from it, one deal per contract; `renewal_of_contract_id` and `renewal_end_date` make a renewal
 * deal once per contract and end date.
 */
export const deals = pgTable(
  'deals',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id),
    stageId: uuid('stage_id')
      .notNull()
      .references(() => pipelineStages.id),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    expectedCloseDate: date('expected_close_date', { mode: 'string' }),
    flightStart: date('flight_start', { mode: 'string' }),
    flightEnd: date('flight_end', { mode: 'string' }),
    probability: integer('probability'),
    source: text('source').notNull(),
    lostReason: text('lost_reason'),
    nextStep: text('next_step'),
    contractId: uuid('contract_id').references(() => contracts.id, { onDelete: 'set null' }),
    renewalOfContractId: uuid('renewal_of_contract_id').references(() => contracts.id, { onDelete: 'set null' }),
    renewalEndDate: date('renewal_end_date', { mode: 'string' }),
    version: integer('version').notNull().default(1),
    lastActivityAt: timestamp('last_activity_at', { withTimezone: true }).notNull().defaultNow(),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('deals_amount_check', sql`${t.amountCents} >= 0`),
    check('deals_probability_check', sql`${t.probability} is null or ${t.probability} between 0 and 100`),
    check('deals_source_check', sql`${t.source} in ('inbound', 'outbound', 'referral', 'renewal')`),
    check(
      'deals_flight_check',
      sql`${t.flightEnd} is null or ${t.flightStart} is null or ${t.flightEnd} >= ${t.flightStart}`,
    ),
    uniqueIndex('deals_contract_key').on(t.contractId),
    uniqueIndex('deals_renewal_key').on(t.renewalOfContractId, t.renewalEndDate),
    index('deals_stage_idx').on(t.stageId, t.updatedAt),
    index('deals_updated_idx').on(t.updatedAt),
    index('deals_owner_stage_idx').on(t.ownerId, t.stageId, t.updatedAt),
    index('deals_close_idx').on(t.expectedCloseDate),
    index('deals_customer_idx').on(t.customerId),
    index('deals_search_idx').using('gin', sql`lower(${t.title}) gin_trgm_ops`),
  ],
);

/** The products a deal expects to sell, in order; they become the lines of the contract drafted from it. */
export const dealLines = pgTable(
  'deal_lines',
  {
    dealId: uuid('deal_id')
      .notNull()
      .references(() => deals.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id),
    quantity: integer('quantity').notNull(),
    unitPriceCents: bigint('unit_price_cents', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ name: 'deal_lines_pkey', columns: [t.dealId, t.position] }),
    check('deal_lines_quantity_check', sql`${t.quantity} >= 1`),
    check('deal_lines_price_check', sql`${t.unitPriceCents} >= 0`),
    index('deal_lines_product_idx').on(t.productId),
  ],
);
