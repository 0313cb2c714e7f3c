import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  date,
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * An accounting export batch (product.md sections 16 and 17, decisions 043 and 050): a numbered set of files
 * (its parts) of one format made from the documents of a range of days that no earlier batch of that format
 * held. Written once, with its parts, in the transaction that claims its documents.
 */
export const accountingExports = pgTable(
  'accounting_exports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** EXP-<year>-<6 digits>, from the gapless EXP series (decision 023). */
    number: text('number').notNull().unique('accounting_exports_number_key'),
    format: text('format').notNull(),
    fromDate: date('from_date', { mode: 'string' }).notNull(),
    toDate: date('to_date', { mode: 'string' }).notNull(),
    documentCount: integer('document_count').notNull(),
    /** Invoices: their totals; credit notes: their amounts; the journal: its debits. */
    totalCents: bigint('total_cents', { mode: 'number' }).notNull(),
    /** The tax of the invoices or credit notes; null for the journal. */
    taxCents: bigint('tax_cents', { mode: 'number' }),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // The documents' rows name the batch with its format (their foreign key), so a row's format is its batch's.
    unique('accounting_exports_id_format_key').on(t.id, t.format),
    index('accounting_exports_created_idx').on(t.createdAt, t.id),
    check(
      'accounting_exports_format_check',
      sql`${t.format} in ('xero-invoices','xero-credit-notes','quickbooks-invoices','journal')`,
    ),
    check('accounting_exports_range_check', sql`${t.fromDate} <= ${t.toDate}`),
    check('accounting_exports_count_check', sql`${t.documentCount} > 0`),
  ],
);

/**
 * A batch's files, numbered from 1 (decision 050): as many as the format's limits need (QuickBooks Online: 100
 * invoices and 1,000 rows a file; Xero: 500 documents; the journal: 10,000 rows), a document's rows always in
 * one part. Each file's exact text (UTF-8) and its SHA-256 are kept, so a download is always the same bytes.
 */
export const accountingExportParts = pgTable(
  'accounting_export_parts',
  {
    exportId: uuid('export_id')
      .notNull()
      .references(() => accountingExports.id, { onDelete: 'restrict' }),
    part: integer('part').notNull(),
    fileName: text('file_name').notNull(),
    content: text('content').notNull(),
    sha256: text('sha256').notNull(),
    documentCount: integer('document_count').notNull(),
  },
  (t) => [
    primaryKey({ name: 'accounting_export_parts_pkey', columns: [t.exportId, t.part] }),
    check('accounting_export_parts_part_check', sql`${t.part} >= 1`),
    check('accounting_export_parts_count_check', sql`${t.documentCount} > 0`),
  ],
);

/**
 * What each batch exported, and in which of its parts: one row per format and document, ever. The primary key decides that a document
 * goes into one batch of a format only, whatever runs at once (INSERT ... ON CONFLICT DO NOTHING claims).
 * Kinds: `invoice`, `credit_note`, `payment` (a payment or refund row) and `credit_refund` (a customer credit
 * entry paid back). The id is the document's own; the records are never deleted.
 */
export const accountingExportDocuments = pgTable(
  'accounting_export_documents',
  {
    exportId: uuid('export_id').notNull(),
    /** The part of the batch whose file holds the document. */
    part: integer('part').notNull(),
    format: text('format').notNull(),
    documentKind: text('document_kind').notNull(),
    documentId: uuid('document_id').notNull(),
  },
  (t) => [
    primaryKey({ name: 'accounting_export_documents_pkey', columns: [t.format, t.documentKind, t.documentId] }),
    foreignKey({
      name: 'accounting_export_documents_export_fk',
      columns: [t.exportId, t.format],
      foreignColumns: [accountingExports.id, accountingExports.format],
    }).onDelete('restrict'),
    foreignKey({
      name: 'accounting_export_documents_part_fk',
      columns: [t.exportId, t.part],
      foreignColumns: [accountingExportParts.exportId, accountingExportParts.part],
    }).onDelete('restrict'),
    index('accounting_export_documents_export_idx').on(t.exportId),
    // An invoice's or credit note's batches, for their answers ("Exported: EXP-...").
    index('accounting_export_documents_document_idx').on(t.documentKind, t.documentId),
    check(
      'accounting_export_documents_kind_check',
      sql`${t.documentKind} in ('invoice','credit_note','payment','credit_refund')`,
    ),
  ],
);
