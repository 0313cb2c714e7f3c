import { createHash } from 'node:crypto';
import {
  ACCOUNTING_FORMAT_LABELS,
  ACCOUNTING_MESSAGES,
  type AccountingExport,
  type AccountingExportRequest,
  type AccountingFormat,
  type AccountingSettings,
  noAccountCodes,
} from '@shared/contracts/accounting';
import type { ListQuery } from '@shared/contracts/common';
import { centsToAmount } from '@shared/money';
import type { Db } from '../../db/client';
import { takeNextNumber } from '../../db/number-series';
import { recordAudit } from '../../lib/audit';
import { getBusinessTimeZone } from '../../lib/business-day';
import { conflict, notFound } from '../../lib/errors';
import type { SessionUser } from '../sessions/sessions';
import { getSettings, saveSettings } from '../settings/settings.service';
import { assertWithinLimits, type Documents, exportFile } from './accounting.files';
import {
  claimDocuments,
  type DocumentRef,
  type ExportRow,
  insertExport,
  selectCreditNoteDocs,
  selectCreditRefundDocs,
  selectExport,
  selectExportFile,
  selectExportPage,
  selectInvoiceDocs,
  selectNewDocuments,
  selectPaymentDocs,
} from './accounting.repo';

/**
 * The accounting export (product.md section 16, decision 043): finance makes a numbered batch of one format
 * from a range of days; it holds the documents of the range that no earlier batch of that format held, and
 * never changes (its file's exact text and SHA-256 are stored). The account codes live in the business
 * settings ('accounting' group), set by admins on the Settings screen's "Accounting" tab.
 */

export function getAccountingSettings(db: Db): Promise<AccountingSettings> {
  return getSettings(db, 'accounting');
}

/** Saves every code (audited as a settings change, field by field). */
export function saveAccountingSettings(db: Db, actor: SessionUser, value: AccountingSettings) {
  return saveSettings(db, actor, 'accounting', value);
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

/**
 * Makes a batch, all in one transaction, or nothing at all: the next EXP number (its series' row stays locked
 * until the end, so batches are made one after another), the documents of the range not exported before in
 * the format, the file from their recorded figures, the batch row, and the claim of its documents, whose
 * primary key decides (a document some other batch of the format holds makes this one fail, and nothing is
 * kept). 409 when no account code is set, when the file needs a code that is not, when nothing is new in the
 * range, and past what the package imports from one file (Xero: 500 documents; QuickBooks: 100 invoices in
 * 1,000 rows).
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
    assertWithinLimits(input.format, refs.length);
    const documents = await readDocuments(tx, refs);
    const file = exportFile(input.format, documents, settings);
    const batchId = await insertExport(
      tx,
      {
        number,
        format: input.format,
        from: input.from,
        to: input.to,
        fileName: `${number}-${input.format}.csv`,
        createdBy: actor.id,
      },
      {
        content: file.content,
        sha256: createHash('sha256').update(file.content, 'utf8').digest('hex'),
        documentCount: refs.length,
        totalCents: file.totalCents,
        taxCents: file.taxCents,
      },
    );
    const claimed = await claimDocuments(tx, { exportId: batchId, format: input.format, documents: refs });
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
        documentCount: refs.length,
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

/** The batch's file exactly as it was made. */
export async function exportFileOf(db: Db, id: string) {
  const file = await selectExportFile(db, id);
  if (!file) throw notFound('Export');
  return file;
}
