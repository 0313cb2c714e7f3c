/**
 * The accounting export's formats and how a document names the batches that exported it: all an invoice's
 * screen needs (no zod, nothing else), so the invoices' screens and the shell do not load the export's words.
 */

/**
 * The files an accounting export makes (product.md section 16, decision 043): Xero's sales invoice and credit
 * note imports, QuickBooks Online's invoice import, and a journal any package can take.
 */
export const ACCOUNTING_FORMATS = ['xero-invoices', 'xero-credit-notes', 'quickbooks-invoices', 'journal'] as const;
export type AccountingFormat = (typeof ACCOUNTING_FORMATS)[number];

export const ACCOUNTING_FORMAT_LABELS: Record<AccountingFormat, string> = {
  'xero-invoices': 'Xero invoices',
  'xero-credit-notes': 'Xero credit notes',
  'quickbooks-invoices': 'QuickBooks invoices',
  journal: 'Journal',
};

/** A batch that exported a document: what the invoice and credit note answers carry ("Exported: EXP-..."). */
export type DocumentExport = { id: string; number: string; format: AccountingFormat };

/** "EXP-2026-000003 (Xero invoices)" */
export const documentExportLabel = (exported: Pick<DocumentExport, 'number' | 'format'>) =>
  `${exported.number} (${ACCOUNTING_FORMAT_LABELS[exported.format]})`;
