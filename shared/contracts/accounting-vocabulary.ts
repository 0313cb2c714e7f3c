/** accounting: the words and constants screens show (no zod here, so a screen can import them without the schemas). */
import type { AccountingFormat } from './accounting-formats';
import { AD_TYPE_LABELS, AD_TYPES, type AdType } from './product-vocabulary';

export * from './accounting-formats';

export const ACCOUNTING_FORMAT_HINTS: Record<AccountingFormat, string> = {
  'xero-invoices':
    'Sales invoices issued in the range, one row per line; 500 invoices a file, more make several parts (Xero: Business › Invoices › Import).',
  'xero-credit-notes':
    'Credit notes issued in the range; 500 a file, more make several parts (Xero: Business › Invoices › Import, credit notes).',
  'quickbooks-invoices':
    'Invoices issued in the range, one row per line; 100 invoices and 1,000 rows a file, more make several parts (QuickBooks Online: Import data › Invoices).',
  journal:
    'Invoices, credit notes, payments and refunds in the range as balanced journal entries (date, account, debit, credit); 10,000 rows a file.',
};

/** The longest range one export may cover, in days (a leap year). */
export const MAX_EXPORT_DAYS = 366;
/** Xero imports at most 500 invoices (or credit notes) from one file. */
export const XERO_MAX_DOCUMENTS = 500;
/** QuickBooks Online imports at most 100 invoices, in at most 1,000 rows, from one file. */
export const QUICKBOOKS_MAX_INVOICES = 100;
export const QUICKBOOKS_MAX_ROWS = 1000;
/**
 * The journal's own limit (no package sets one): 10,000 rows a file, about a megabyte, which a spreadsheet or an
 * import screen opens at once. Its entries are never split, so each part balances by itself.
 */
export const JOURNAL_MAX_ROWS = 10_000;

/**
 * How the Xero and QuickBooks files write dates (the organisation's own format; QuickBooks asks for it at
 * import). The journal always writes YYYY-MM-DD.
 */
export const ACCOUNTING_DATE_FORMATS = ['MM/DD/YYYY', 'DD/MM/YYYY', 'YYYY-MM-DD'] as const;
export type AccountingDateFormat = (typeof ACCOUNTING_DATE_FORMATS)[number];
export const ACCOUNTING_DATE_FORMAT_LABELS: Record<AccountingDateFormat, string> = {
  'MM/DD/YYYY': 'MM/DD/YYYY (03/05/2026 is March 5)',
  'DD/MM/YYYY': 'DD/MM/YYYY (03/05/2026 is 3 May)',
  'YYYY-MM-DD': 'YYYY-MM-DD (2026-03-05)',
};
/** A calendar day (YYYY-MM-DD) written in a file's date format. */
export function formatAccountingDate(day: string, format: AccountingDateFormat): string {
  const [year, month, date] = [day.slice(0, 4), day.slice(5, 7), day.slice(8, 10)];
  if (format === 'DD/MM/YYYY') return `${date}/${month}/${year}`;
  if (format === 'YYYY-MM-DD') return `${year}-${month}-${date}`;
  return `${month}/${date}/${year}`;
}

/** What an export records as exported, once per format: the unique (format, kind, id) decides. */
export const ACCOUNTING_DOCUMENT_KINDS = ['invoice', 'credit_note', 'payment', 'credit_refund'] as const;
export type AccountingDocumentKind = (typeof ACCOUNTING_DOCUMENT_KINDS)[number];

/** The account codes of the Settings screen's "Accounting" tab (null: not set). */
export type AccountingSettings = {
  /** The revenue (income) account of each ad type's sales. */
  revenueAccounts: Record<AdType, string | null>;
  /** Revenue of packages, setup fees and lines whose product is gone. */
  otherRevenueAccount: string | null;
  /** Sales tax collected (a liability). */
  taxAccount: string | null;
  /** Accounts receivable: what customers owe. */
  receivablesAccount: string | null;
  /** Where checks, wires, cash and other manual payments arrive, and credit refunds leave. */
  bankAccount: string | null;
  /** Card payments until the provider pays them out. */
  cardClearingAccount: string | null;
  /** Customers' credit balances (a liability): credit beyond an invoice's amount due, applied later or refunded. */
  customerCreditAccount: string | null;
  /** Xero's tax rate names ("Tax on Sales"), for taxed lines and for lines at 0%. */
  xeroTaxType: string | null;
  xeroNoTaxType: string | null;
  /** QuickBooks Online's tax codes ("TAX" and "NON" in the US). */
  quickbooksTaxCode: string | null;
  quickbooksNoTaxCode: string | null;
  /** How the Xero and QuickBooks files write dates. */
  dateFormat: AccountingDateFormat;
  /**
   * Agency billing (product.md section 20, decision 060): the account of agency commission (an expense or a
   * contra-revenue account), debited with a net-billed invoice's deducted commission line and with a
   * gross-billed invoice's commission once it is paid; and the payable (a liability) credited with the latter,
   * what is owed to the agency. Left out of a saved group (saved before they existed, or by a client that does
   * not send them): their defaults, AGENCY_ACCOUNT_DEFAULTS; null: not set.
   */
  agencyCommissionAccount?: string | null;
  agencyPayableAccount?: string | null;
};

/** The agency accounts (AccountingSettings), with their labels, hints and defaults. */
export const AGENCY_ACCOUNT_FIELDS = ['agencyCommissionAccount', 'agencyPayableAccount'] as const;
export type AgencyAccountField = (typeof AGENCY_ACCOUNT_FIELDS)[number];

export const AGENCY_ACCOUNT_LABELS: Record<AgencyAccountField, string> = {
  agencyCommissionAccount: 'Agency commission',
  agencyPayableAccount: 'Agency commissions payable',
};

export const AGENCY_ACCOUNT_HINTS: Record<AgencyAccountField, string> = {
  agencyCommissionAccount:
    'Commission of agencies: deducted on net-billed invoices, and owed on gross-billed ones once paid.',
  agencyPayableAccount: 'What is owed to agencies on gross-billed invoices once paid (a liability).',
};

/** Until an admin sets them: the accounts under these names. */
export const AGENCY_ACCOUNT_DEFAULTS: Record<AgencyAccountField, string> = {
  agencyCommissionAccount: 'Agency commission',
  agencyPayableAccount: 'Agency commissions payable',
};

/** An agency account as the files use it: the saved code, its default when never saved, null when cleared. */
export const agencyAccount = (settings: AccountingSettings, field: AgencyAccountField): string | null =>
  settings[field] === undefined ? AGENCY_ACCOUNT_DEFAULTS[field] : settings[field];

/** The settings' account fields besides revenue, with their labels and hints (form, messages, the notice). */
export const ACCOUNT_FIELDS = [
  'otherRevenueAccount',
  'taxAccount',
  'receivablesAccount',
  'bankAccount',
  'cardClearingAccount',
  'customerCreditAccount',
] as const;
export type AccountField = (typeof ACCOUNT_FIELDS)[number];

export const ACCOUNT_FIELD_LABELS: Record<AccountField, string> = {
  otherRevenueAccount: 'Other revenue',
  taxAccount: 'Sales tax',
  receivablesAccount: 'Receivables',
  bankAccount: 'Bank',
  cardClearingAccount: 'Card clearing',
  customerCreditAccount: 'Customer credit',
};

export const ACCOUNT_FIELD_HINTS: Record<AccountField, string> = {
  otherRevenueAccount: 'Packages, setup fees, and lines whose product no longer exists.',
  taxAccount: 'Tax collected on invoices (a liability).',
  receivablesAccount: 'Accounts receivable: what customers owe.',
  bankAccount: 'Checks, wires, cash and other payments recorded by hand; credit refunds.',
  cardClearingAccount: 'Card payments, until the payment provider pays them out.',
  customerCreditAccount: 'Credit beyond an invoice’s amount due, held for the customer (a liability).',
};

export const TAX_NAME_FIELDS = ['xeroTaxType', 'xeroNoTaxType', 'quickbooksTaxCode', 'quickbooksNoTaxCode'] as const;
export type TaxNameField = (typeof TAX_NAME_FIELDS)[number];

export const TAX_NAME_LABELS: Record<TaxNameField, string> = {
  xeroTaxType: 'Xero tax rate (taxed lines)',
  xeroNoTaxType: 'Xero tax rate (lines at 0%)',
  quickbooksTaxCode: 'QuickBooks tax code (taxed lines)',
  quickbooksNoTaxCode: 'QuickBooks tax code (lines at 0%)',
};

/** A revenue account's label: "Revenue: Banner Ad". */
export const revenueLabel = (adType: AdType) => `Revenue: ${AD_TYPE_LABELS[adType]}`;

/** Nothing set yet: the tax names carry each package's usual defaults, the account codes are the business's own. */
export const DEFAULT_ACCOUNTING_SETTINGS: AccountingSettings = {
  revenueAccounts: Object.fromEntries(AD_TYPES.map((adType) => [adType, null])) as Record<AdType, string | null>,
  otherRevenueAccount: null,
  taxAccount: null,
  receivablesAccount: null,
  bankAccount: null,
  cardClearingAccount: null,
  customerCreditAccount: null,
  xeroTaxType: 'Tax on Sales',
  xeroNoTaxType: 'Tax Exempt',
  quickbooksTaxCode: 'TAX',
  quickbooksNoTaxCode: 'NON',
  dateFormat: 'MM/DD/YYYY',
};

/** The labels of the account codes not set yet (revenue per ad type first); empty when every one is set. */
export function unsetAccounts(settings: AccountingSettings): string[] {
  return [
    ...AD_TYPES.filter((adType) => !settings.revenueAccounts[adType]).map(revenueLabel),
    ...ACCOUNT_FIELDS.filter((field) => !settings[field]).map((field) => ACCOUNT_FIELD_LABELS[field]),
  ];
}

/** True when not one account code is set (every export is refused until an admin sets them). */
export function noAccountCodes(settings: AccountingSettings): boolean {
  return unsetAccounts(settings).length === AD_TYPES.length + ACCOUNT_FIELDS.length;
}

export const ACCOUNTING_MESSAGES = {
  fromRequired: 'From is required',
  toRequired: 'To is required',
  format: 'Choose a format',
  toBeforeFrom: 'To must be on or after From',
  tooLong: `The range cannot be longer than 1 year (${MAX_EXPORT_DAYS} days)`,
  codeTooLong: 'A code cannot be longer than 60 characters',
  codeInvalid: 'Use letters, digits, spaces and punctuation; not a line break, and not = + - @ first',
  noCodes: 'No account codes are set. An admin sets them in Settings › Accounting.',
  dateFormat: `Choose a date format: ${ACCOUNTING_DATE_FORMATS.join(', ')}`,
  part: 'The part is a whole number from 1',
} as const;

/** An export batch as the API answers it (amounts in dollars). A batch never changes once made. */
export type AccountingExport = {
  id: string;
  /** EXP-2026-000001: one gapless series for every format. */
  number: string;
  format: AccountingFormat;
  /** The range of days (the business's calendar), both included. */
  from: string;
  to: string;
  documentCount: number;
  /** How many of each kind it holds. */
  documents: { invoices: number; creditNotes: number; payments: number; creditRefunds: number };
  /**
   * Its files, numbered from 1: one when the documents fit in one file of the format, else as many as its
   * limits need (a document's rows always in one part). `GET .../{id}/file?part=N`, all of them `.../{id}/zip`.
   */
  parts: AccountingExportPart[];
  /** Invoices: their totals; credit notes: their amounts; the journal: its debits (which equal its credits). */
  total: number;
  /** The tax of the invoices or credit notes; null for the journal. */
  tax: number | null;
  /** The first part's file name and SHA-256 (the batch's only file when it has one part). */
  fileName: string;
  sha256: string;
  createdBy: { id: string; name: string } | null;
  createdAt: string;
};

/** One file of a batch: made with the batch, never changed. */
export type AccountingExportPart = {
  /** 1, 2, ... */
  part: number;
  /** EXP-2026-000001-quickbooks-invoices.csv, or ...-part-2-of-3.csv when the batch has several. */
  fileName: string;
  /** SHA-256 (hex) of the file's bytes, stored when the batch was made. */
  sha256: string;
  /** The documents this file holds (their counts add up to the batch's). */
  documentCount: number;
};

/** "Part 2 of 3" */
export const partLabel = (part: number, of: number) => `Part ${part} of ${of}`;
