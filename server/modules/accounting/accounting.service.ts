import { createHash } from 'node:crypto';
import {
  ACCOUNTING_FORMAT_LABELS,
  ACCOUNTING_MESSAGES,
  type AccountingExport,
  type AccountingExportRequest,
  type AccountingFormat,
  type AccountingSettings,
  type AccountingSettingsUpdate,
  AGENCY_ACCOUNT_FIELDS,
  noAccountCodes,
} from '@shared/contracts/accounting';
import type { ListQuery } from '@shared/contracts/common';
import { centsToAmount } from '@shared/money';
import type { Db } from '../../db/client';
import { takeNextNumber } from '../../db/number-series';
import { recordAudit } from '../../lib/audit';
import { getBusinessTimeZone } from '../../lib/business-day';
import { AppError, conflict, notFound } from '../../lib/errors';
import type { SessionUser } from '../sessions/sessions';
import { getSettings, saveSettings } from '../settings/settings.service';
import { type Documents, exportFile, zipParts } from './accounting.files';
import {
  claimDocuments,
  type DocumentRef,
  type ExportRow,
  insertExport,
  insertExportParts,
  selectCreditNoteDocs,
  selectCreditRefundDocs,
  selectExport,
  selectExportFiles,
  selectExportPage,
  selectInvoiceDocs,
  selectNewDocuments,
  selectPaymentDocs,
} from './accounting.repo';

/**
 * The accounting export (product.md sections 16 and 17, decisions 043 and 050): finance makes a numbered batch of
 * one format from a range of days; it holds the documents of the range that no earlier batch of that format
 * held, in as many files (parts) as the format's limits need, and never changes (each file's exact text and
 * SHA-256 are stored). The account codes and the files' date format live in the business settings
 * ('accounting' group), set by admins on the Settings screen's "Accounting" tab.
 */

export function getAccountingSettings(db: Db): Promise<AccountingSettings> {
  return getSettings(db, 'accounting');
}

/**
 * Saves every code and the date format (audited as a settings change, field by field); a request without a
 * date format, or without an agency account, keeps the saved one (an agency account never saved stays out of
 * the group: its default applies, AGENCY_ACCOUNT_DEFAULTS).
 */
export async function saveAccountingSettings(db: Db, actor: SessionUser, value: AccountingSettingsUpdate) {
  const saved = await getAccountingSettings(db);
  const merged: AccountingSettings = { ...value, dateFormat: value.dateFormat ?? saved.dateFormat };
  for (const field of AGENCY_ACCOUNT_FIELDS) {
    const kept = value[field] === undefined ? saved[field] : value[field];
    if (kept === undefined) delete merged[field];
    else merged[field] = kept;
  }
  return saveSettings(db, actor, 'accounting', merged);
}

const toView = (row: ExportRow): AccountingExport => {
  const { totalCents, taxCents, ...rest } = row;
  return { ...rest, total: centsToAmount(totalCents), tax: taxCents === null ? null : centsToAmount(taxCents) };
};

/** What a format holds, for messages: "invoices", "credit notes", "documents". */
const WHAT: Record<AccountingFormat, string> = {
  'xero-invoices': 'invoices',
  'quickbooks-invoices': 'invoices',
  'xero-credit-notes': 'credit notes',
  journal: 'invoices, credit notes, payments or refunds',
};

async function readDocuments(tx: Db, refs: DocumentRef[]): Promise<Documents> {
  const idsOf = (kind: DocumentRef['kind']) => refs.filter((ref) => ref.kind === kind).map((ref) => ref.id);
  const [invoices, creditNotes, payments, creditRefunds] = await Promise.all([
    selectInvoiceDocs(tx, idsOf('invoice')),
    selectCreditNoteDocs(tx, idsOf('credit_note')),
    selectPaymentDocs(tx, idsOf('payment')),
    selectCreditRefundDocs(tx, idsOf('credit_refund')),
  ]);
  return { invoices, creditNotes, payments, creditRefunds };
}

/** A part's file name: the batch's number and format, and which part it is when there are several. */
export const partFileName = (number: string, format: AccountingFormat, part: number, of: number) =>
  of === 1 ? `${number}-${format}.csv` : `${number}-${format}-part-${part}-of-${of}.csv`;

/**
 * Makes a batch, all in one transaction, or nothing at all: the next EXP number (its series' row stays locked
 * until the end, so batches are made one after another), the documents of the range not exported before in
 * the format, the files from their recorded figures in as many parts as the format's limits need (QuickBooks:
 * 100 invoices in 1,000 rows; Xero: 500 documents; the journal: 10,000 rows), the batch row and its parts, and
 * the claim of its documents, each in its part, whose primary key decides (a document some other batch of the
 * format holds makes this one fail, and nothing is kept). 409 when no account code is set, when a file needs
 * a code that is not, when nothing is new in the range, and when one document alone is more than a file holds.
 */
export async function createExport(
  db: Db,
  actor: SessionUser,
  input: AccountingExportRequest,
): Promise<AccountingExport> {
  const settings = await getAccountingSettings(db);
  if (noAccountCodes(settings)) throw conflict(ACCOUNTING_MESSAGES.noCodes);
  const label = ACCOUNTING_FORMAT_LABELS[input.format];

  const id = await db.transaction(async (tx) => {
    const number = await takeNextNumber(tx, 'EXP');
    const refs = await selectNewDocuments(tx, { ...input, timeZone: getBusinessTimeZone() });
    if (refs.length === 0) {
      throw conflict(
        `Nothing to export: no ${WHAT[input.format]} from ${input.from} to ${input.to} that an earlier ${label} batch does not already hold.`,
      );
    }
    const documents = await readDocuments(tx, refs);
    const file = exportFile(input.format, documents, settings);
    const held = file.parts.flatMap((part, i) => part.documents.map((ref) => ({ ...ref, part: i + 1 })));
    // Every document selected is in exactly one part: the batch counts what its files hold.
    if (held.length !== refs.length) throw new Error('An export file did not hold every document of its batch');
    const batchId = await insertExport(tx, {
      number,
      format: input.format,
      from: input.from,
      to: input.to,
      documentCount: held.length,
      totalCents: file.totalCents,
      taxCents: file.taxCents,
      createdBy: actor.id,
    });
    await insertExportParts(
      tx,
      batchId,
      file.parts.map((part, i) => ({
        part: i + 1,
        fileName: partFileName(number, input.format, i + 1, file.parts.length),
        content: part.content,
        sha256: createHash('sha256').update(part.content, 'utf8').digest('hex'),
        documentCount: part.documents.length,
      })),
    );
    const claimed = await claimDocuments(tx, { exportId: batchId, format: input.format, documents: held });
    if (claimed !== refs.length) {
      throw conflict(`Another ${label} batch took some of these documents just now. Make the export again.`);
    }
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'accounting_export.created',
      entity: 'accounting_export',
      entityId: batchId,
      after: {
        number,
        format: input.format,
        from: input.from,
        to: input.to,
        documentCount: held.length,
        parts: file.parts.length,
        totalCents: file.totalCents,
      },
    });
    return batchId;
  });
  return getExport(db, id);
}

export async function listExports(db: Db, query: ListQuery) {
  const page = await selectExportPage(db, { limit: query.limit, offset: query.offset });
  return { rows: page.rows.map(toView), total: page.total };
}

export async function getExport(db: Db, id: string): Promise<AccountingExport> {
  const row = await selectExport(db, id);
  if (!row) throw notFound('Export');
  return toView(row);
}

/**
 * One file of a batch exactly as it was made: part N (from 1), or with no part the batch's only file. A batch of
 * several parts asked for no part is 409, naming its parts and the zip (an older client cannot take a third of
 * the batch for all of it); a part it does not have is 404.
 */
export async function exportFileOf(db: Db, id: string, part?: number) {
  const batch = await selectExportFiles(db, id, part ?? 1);
  if (!batch) throw notFound('Export');
  if (part === undefined && batch.partCount > 1) {
    throw conflict(
      `${batch.number} has ${batch.partCount} parts: download each with ?part=1 to ?part=${batch.partCount}, or all of them in one zip (/api/accounting/exports/${id}/zip).`,
    );
  }
  const [file] = batch.files;
  if (!file) {
    throw new AppError(
      'NOT_FOUND',
      `${batch.number} has ${batch.partCount === 1 ? '1 part' : `${batch.partCount} parts`}: there is no part ${part}.`,
    );
  }
  return file;
}

/**
 * Every part of a batch in one zip, each entry its part's file name and exact bytes; the same zip on every
 * download (the entries dated when the batch was made).
 */
export async function exportZipOf(db: Db, id: string) {
  const batch = await selectExportFiles(db, id);
  if (!batch) throw notFound('Export');
  return {
    fileName: `${batch.number}-${batch.format}.zip`,
    content: zipParts(batch.files, batch.createdAt),
  };
}
