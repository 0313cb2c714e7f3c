import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, jsonb, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { contracts } from './contracts';
import { users } from './users';

/**
 * An insertion order (product.md section 15): a contract as sent, frozen as version N. `snapshot` is what the
 * customer was shown (every figure, the lines, the schedule and the terms text) and `content_sha256` its
 * fingerprint, printed in the PDF's footer; `pdf_sha256` is the SHA-256 of the exact bytes stored at
 * `pdf_key`. `token` is the customer's capability link (`/io/{token}`), never shown to staff.
 * Status: sent (awaiting the customer), accepted, declined, superseded (the contract changed before payment;
 * an accepted version keeps its signature fields). Every change is one conditional UPDATE on the status.
 */
export const insertionOrders = pgTable(
  'insertion_orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    contractId: uuid('contract_id')
      .notNull()
      .references(() => contracts.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    status: text('status').notNull().default('sent'),
    token: text('token').notNull().unique('insertion_orders_token_key'),
    snapshot: jsonb('snapshot').notNull(),
    contentSha256: text('content_sha256').notNull(),
    pdfKey: text('pdf_key').notNull(),
    pdfSha256: text('pdf_sha256').notNull(),
    pdfBytes: bigint('pdf_bytes', { mode: 'number' }).notNull(),
    /** The customer's e-mail the link was sent to. */
    customerEmail: text('customer_email').notNull(),
    sentBy: uuid('sent_by').references(() => users.id, { onDelete: 'set null' }),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
    viewedAt: timestamp('viewed_at', { withTimezone: true }),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    signerName: text('signer_name'),
    signerEmail: text('signer_email'),
    signerIp: text('signer_ip'),
    signerUserAgent: text('signer_user_agent'),
    signedPdfKey: text('signed_pdf_key'),
    signedPdfSha256: text('signed_pdf_sha256'),
    signedPdfBytes: bigint('signed_pdf_bytes', { mode: 'number' }),
    declinedAt: timestamp('declined_at', { withTimezone: true }),
    declineReason: text('decline_reason'),
    supersededAt: timestamp('superseded_at', { withTimezone: true }),
  },
  (t) => [
    unique('insertion_orders_contract_version_key').on(t.contractId, t.version),
    index('insertion_orders_pdf_sha_idx').on(t.pdfSha256),
    index('insertion_orders_signed_sha_idx').on(t.signedPdfSha256),
    check('insertion_orders_status_check', sql`${t.status} in ('sent','accepted','declined','superseded')`),
    check('insertion_orders_version_check', sql`${t.version} >= 1`),
    check(
      'insertion_orders_accepted_check',
      sql`${t.acceptedAt} is null or (${t.signerName} is not null and ${t.signedPdfSha256} is not null)`,
    ),
  ],
);

/** What happened to an insertion order, for its timeline and signing certificate: sent, viewed, accepted, declined, superseded. */
export const insertionOrderEvents = pgTable(
  'insertion_order_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    insertionOrderId: uuid('insertion_order_id')
      .notNull()
      .references(() => insertionOrders.id, { onDelete: 'cascade' }),
    contractId: uuid('contract_id')
      .notNull()
      .references(() => contracts.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    detail: text('detail'),
  },
  (t) => [
    index('insertion_order_events_io_idx').on(t.insertionOrderId, t.at),
    index('insertion_order_events_contract_idx').on(t.contractId, t.at),
    check('insertion_order_events_type_check', sql`${t.type} in ('sent','viewed','accepted','declined','superseded')`),
  ],
);
