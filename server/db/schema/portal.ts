import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { contracts } from './contracts';
import { users } from './users';

/** The largest creative accepted: 10 MiB. */
export const MAX_CREATIVE_BYTES = 10 * 1024 * 1024;

/**
 * A creative a client uploaded for one of its contracts. The bytes live in the storage (server/lib/storage.ts)
 * under storageKey; the type is the one detected from the content, never the name or the sent content type.
 */
export const creatives = pgTable(
  'creatives',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    contractId: uuid('contract_id')
      .notNull()
      .references(() => contracts.id, { onDelete: 'cascade' }),
    uploadedBy: uuid('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    storageKey: text('storage_key').notNull().unique(),
    originalName: text('original_name').notNull(),
    /** image, video, pdf, doc or docx. */
    kind: text('kind').notNull(),
    mimeType: text('mime_type').notNull(),
    extension: text('extension').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    uploadedAt: timestamp('uploaded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('creatives_contract_idx').on(t.contractId, t.uploadedAt),
    // The hourly upload cap counts a user's recent uploads.
    index('creatives_uploader_idx').on(t.uploadedBy, t.uploadedAt),
    check('creatives_kind_check', sql`${t.kind} in ('image','video','pdf','doc','docx')`),
    check('creatives_size_check', sql`${t.sizeBytes} between 1 and ${sql.raw(String(MAX_CREATIVE_BYTES))}`),
  ],
);
