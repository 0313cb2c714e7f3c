import {
  type AccountingFormat,
  type AccountingSettings,
  QUICKBOOKS_MAX_INVOICES,
  QUICKBOOKS_MAX_ROWS,
  XERO_MAX_DOCUMENTS,
} from '@shared/contracts/accounting-vocabulary';
import { invoiceLineDetail, PAYMENT_METHOD_LABELS, type PaymentMethod } from '@shared/contracts/invoice-vocabulary';
import { AD_TYPE_LABELS } from '@shared/contracts/product-vocabulary';
import { type Cents, centsToPlain, formatCents, sumCents } from '@shared/money';
import { stringify } from 'csv-stringify/sync';
import { businessDayOf } from '../../lib/business-day';
import { conflict } from '../../lib/errors';
import type { CreditNoteDoc, CreditRefundDoc, InvoiceDoc, LineDoc, PaymentDoc } from './accounting.repo';
import { type AccountBook, accountBook, creditShares, type LineShare, lineShares } from './accounting.shares';

/**
 * The files of an accounting export (decision 043), written from the documents as recorded: one CSV per batch,
 * RFC 4180 with CRLF line ends and a header row, UTF-8 without a byte order mark. Amounts are the recorded
 * integer cents written with two decimals (centsToPlain), never floats. Xero and QuickBooks take amounts tax
 * exclusive (choose "Tax exclusive" when importing) and dates as MM/DD/YYYY (a US organisation's format: the
 * product bills in US dollars); the journal writes YYYY-MM-DD.
 */

export type Documents = {
  invoices: InvoiceDoc[];
  creditNotes: CreditNoteDoc[];
  payments: PaymentDoc[];
  creditRefunds: CreditRefundDoc[];
};

export type ExportContent = { content: string; rows: number; totalCents: Cents; taxCents: Cents | null };

/** The currency of every amount the product records. */
export const CURRENCY = 'USD';

export const XERO_INVOICE_COLUMNS = [
  '*ContactName',
  'EmailAddress',
  '*InvoiceNumber',
  'Reference',
  '*InvoiceDate',
  '*DueDate',
  '*Description',
  '*Quantity',
  '*UnitAmount',
  '*AccountCode',
  '*TaxType',
  'TaxAmount',
  'Currency',
] as const;

export const XERO_CREDIT_NOTE_COLUMNS = [
  '*ContactName',
  'EmailAddress',
  '*CreditNoteNumber',
  'Reference',
  '*CreditNoteDate',
  '*Description',
  '*Quantity',
  '*UnitAmount',
  '*AccountCode',
  '*TaxType',
  'TaxAmount',
  'Currency',
] as const;

export const QUICKBOOKS_INVOICE_COLUMNS = [
  'Invoice no.',
  'Customer',
  'Invoice date',
  'Due date',
  'Item(Product/Service)',
  'Item description',
  'Item quantity',
  'Item rate',
  'Item amount',
  'Item tax code',
  'Item tax amount',
] as const;

export const JOURNAL_COLUMNS = ['Date', 'Account', 'Description', 'Debit', 'Credit', 'Reference'] as const;

/** What the accounting packages import from one file (the journal has no limit of its own). */
const FILE_LIMITS: Partial<Record<AccountingFormat, { app: string; what: string; documents: number; rows?: number }>> =
  {
    'xero-invoices': { app: 'Xero', what: 'invoices', documents: XERO_MAX_DOCUMENTS },
    'xero-credit-notes': { app: 'Xero', what: 'credit notes', documents: XERO_MAX_DOCUMENTS },
    'quickbooks-invoices': {
      app: 'QuickBooks Online',
      what: 'invoices',
      documents: QUICKBOOKS_MAX_INVOICES,
      rows: QUICKBOOKS_MAX_ROWS,
    },
  };

/**
 * 409 (nothing saved) when a file would hold more than its package imports at once: more documents, or (when
 * the rows are known) more rows. One file a batch: a shorter range leaves the rest to the next batch.
 */
export function assertWithinLimits(format: AccountingFormat, documents: number, rows?: number): void {
  const limit = FILE_LIMITS[format];
  if (!limit) return;
  if (documents > limit.documents) {
    throw conflict(
      `${limit.app} imports at most ${limit.documents} ${limit.what} a file; this range has ${documents} new ones. Choose a shorter range.`,
    );
  }
  if (limit.rows !== undefined && rows !== undefined && rows > limit.rows) {
    throw conflict(
      `${limit.app} imports at most ${limit.rows.toLocaleString('en-US')} rows a file; these ${documents} ${limit.what} make ${rows.toLocaleString('en-US')}. Choose a shorter range.`,
    );
  }
}

/**
 * The file of a format from its documents; 409 (nothing saved) when it needs an account code not set, or holds
 * more rows than its package imports.
 */
export function exportFile(
  format: AccountingFormat,
  documents: Documents,
  settings: AccountingSettings,
): ExportContent {
  const book = accountBook(settings);
  const file = WRITERS[format](documents, book);
  book.assertComplete();
  assertWithinLimits(format, documents.invoices.length + documents.creditNotes.length, file.rows);
  return file;
}

const WRITERS: Record<AccountingFormat, (documents: Documents, book: AccountBook) => ExportContent> = {
  'xero-invoices': xeroInvoices,
  'xero-credit-notes': xeroCreditNotes,
  'quickbooks-invoices': quickbooksInvoices,
  journal,
};

function csv(columns: readonly string[], rows: string[][]): string {
  return stringify(rows, { header: true, columns: [...columns], record_delimiter: 'windows' });
}

/**
 * Text a spreadsheet would run as a formula (starting with = + - @, a tab or a carriage return) gets a single
 * quote in front, as the product's other CSV files do; amounts are written apart and never pass here.
 */
export function text(value: string | null): string {
  const plain = value ?? '';
  return /^[=+\-@\t\r]/.test(plain) ? `'${plain}` : plain;
}

/** 2026-03-05 -> 03/05/2026 (how a US Xero or QuickBooks organisation reads dates). */
export const usDate = (day: string) => `${day.slice(5, 7)}/${day.slice(8, 10)}/${day.slice(0, 4)}`;

/**
 * A line's quantity and unit amount (tax exclusive) whose product is its net revenue to the cent: the line as
 * billed when that is exactly quantity x unit price (no discount, no proration, tax not included), else one
 * unit of its net amount (the description then says how it was priced).
 */
export function quantityAndUnit(share: LineShare, taxIncluded: boolean): { quantity: number; unitCents: Cents } {
  const { line } = share;
  if (!taxIncluded && line.quantity > 0 && line.amountCents === line.quantity * line.unitPriceCents) {
    return { quantity: line.quantity, unitCents: line.unitPriceCents };
  }
  return { quantity: 1, unitCents: share.netCents };
}

/** The line's description with how it was priced: the invoice's own line detail and its discount. */
export function lineDescription(line: LineDoc): string {
  const details = [invoiceLineDetail(line)];
  if (line.discountCents > 0) {
    details.push(
      `${line.quantity} × ${formatCents(line.unitPriceCents)} less ${formatCents(line.discountCents)} discount`,
    );
  }
  const detail = details.filter(Boolean).join(' · ');
  return detail ? `${line.description} (${detail})` : line.description;
}

const taxed = (invoice: { taxRateBp: number }) => invoice.taxRateBp > 0;

function xeroInvoices({ invoices }: Documents, book: AccountBook): ExportContent {
  const rows = invoices.flatMap((invoice) =>
    lineShares(invoice).map((share) => {
      const { quantity, unitCents } = quantityAndUnit(share, invoice.taxIncluded);
      return [
        text(invoice.customerName),
        text(invoice.customerEmail),
        invoice.number,
        text(invoice.contractTitle),
        usDate(businessDayOf(invoice.issuedAt)),
        usDate(invoice.dueDate),
        text(lineDescription(share.line)),
        String(quantity),
        centsToPlain(unitCents),
        book.revenue(share.key),
        book.taxName(taxed(invoice) ? 'xeroTaxType' : 'xeroNoTaxType'),
        centsToPlain(share.taxCents),
        CURRENCY,
      ];
    }),
  );
  return invoicesFile(XERO_INVOICE_COLUMNS, rows, invoices);
}

function quickbooksInvoices({ invoices }: Documents, book: AccountBook): ExportContent {
  const rows = invoices.flatMap((invoice) =>
    lineShares(invoice).map((share) => {
      const { quantity, unitCents } = quantityAndUnit(share, invoice.taxIncluded);
      return [
        invoice.number,
        text(invoice.customerName),
        usDate(businessDayOf(invoice.issuedAt)),
        usDate(invoice.dueDate),
        book.revenue(share.key),
        text(lineDescription(share.line)),
        String(quantity),
        centsToPlain(unitCents),
        centsToPlain(share.netCents),
        book.taxName(taxed(invoice) ? 'quickbooksTaxCode' : 'quickbooksNoTaxCode'),
        centsToPlain(share.taxCents),
      ];
    }),
  );
  return invoicesFile(QUICKBOOKS_INVOICE_COLUMNS, rows, invoices);
}

/** An invoices file: its rows under the package's columns, and the invoices' totals and tax. */
function invoicesFile(columns: readonly string[], rows: string[][], invoices: Documents['invoices']): ExportContent {
  return {
    content: csv(columns, rows),
    rows: rows.length,
    totalCents: sumCents(invoices.map((i) => i.totalCents)),
    taxCents: sumCents(invoices.map((i) => i.taxCents)),
  };
}

/** What a credit note's row says: its reason and the invoice it credits (and the ad type, when split over several). */
function creditDescription(note: CreditNoteDoc, key: string, split: boolean): string {
  const what = split
    ? `, ${key === 'other' ? 'other revenue' : AD_TYPE_LABELS[key as keyof typeof AD_TYPE_LABELS]}`
    : '';
  return `${note.reason} (credit on ${note.invoiceNumber}${what})`;
}

function xeroCreditNotes({ creditNotes }: Documents, book: AccountBook): ExportContent {
  const rows = creditNotes.flatMap((note) => {
    const shares = creditShares(note, note.invoice);
    return shares.map((share) => [
      text(note.customerName),
      text(note.customerEmail),
      note.number,
      note.invoiceNumber,
      usDate(businessDayOf(note.issuedAt)),
      text(creditDescription(note, share.key, shares.length > 1)),
      '1',
      centsToPlain(share.netCents),
      book.revenue(share.key),
      book.taxName(taxed(note.invoice) ? 'xeroTaxType' : 'xeroNoTaxType'),
      centsToPlain(share.taxCents),
      CURRENCY,
    ]);
  });
  return {
    content: csv(XERO_CREDIT_NOTE_COLUMNS, rows),
    rows: rows.length,
    totalCents: sumCents(creditNotes.map((n) => n.amountCents)),
    taxCents: sumCents(creditNotes.map((n) => n.taxCents)),
  };
}

// ---------------------------------------------------------------------------------------------------------
// The journal
// ---------------------------------------------------------------------------------------------------------

/** One journal entry: its postings by account (positive: debit, negative: credit), netted per account. */
class Entry {
  private readonly amounts = new Map<string, Cents>();
  constructor(
    readonly day: string,
    readonly description: string,
    readonly reference: string,
  ) {}
  post(account: string, cents: Cents): this {
    this.amounts.set(account, (this.amounts.get(account) ?? 0) + cents);
    return this;
  }
  rows(): string[][] {
    return [...this.amounts]
      .filter(([, cents]) => cents !== 0)
      .map(([account, cents]) => [
        this.day,
        account,
        text(this.description),
        cents > 0 ? centsToPlain(cents) : '',
        cents < 0 ? centsToPlain(-cents) : '',
        text(this.reference),
      ]);
  }
  debits(): Cents {
    return sumCents([...this.amounts.values()].filter((cents) => cents > 0));
  }
}

/** Where money of a method is: card payments in card clearing, credit in the customers' credit, the rest the bank. */
function moneyAccount(book: AccountBook, method: string | null): string {
  if (method === 'card') return book.account('cardClearingAccount');
  if (method === 'credit') return book.account('customerCreditAccount');
  return book.account('bankAccount');
}

const methodLabel = (method: string | null) =>
  method === 'credit' ? 'credit balance' : (PAYMENT_METHOD_LABELS[method as PaymentMethod] ?? 'Other').toLowerCase();

/**
 * Balanced entries (debits = credits in each) for every document, in date order:
 * - an invoice: receivables debited its total, revenue credited its net per account, tax credited its tax;
 * - a credit note: revenue and tax debited (spread as the invoice was), receivables credited what it took off
 *   the amount due, customer credit what went to the credit balance;
 * - a payment: the money's account (bank, card clearing, or customer credit when the balance paid) debited,
 *   receivables credited; a refund the other way round;
 * - credit refunded to a customer: customer credit debited, the bank (or card clearing) credited.
 */
function journal(documents: Documents, book: AccountBook): ExportContent {
  type Dated = { at: Date; order: number; entry: () => Entry };
  const dated: Dated[] = [];
  const receivables = () => book.account('receivablesAccount');

  for (const invoice of documents.invoices) {
    dated.push({
      at: invoice.issuedAt,
      order: 0,
      entry: () => {
        const entry = new Entry(
          businessDayOf(invoice.issuedAt),
          `Invoice ${invoice.number} · ${invoice.customerName}`,
          invoice.number,
        );
        entry.post(receivables(), invoice.totalCents);
        for (const share of lineShares(invoice)) entry.post(book.revenue(share.key), -share.netCents);
        if (invoice.taxCents !== 0) entry.post(book.account('taxAccount'), -invoice.taxCents);
        return entry;
      },
    });
  }
  for (const note of documents.creditNotes) {
    dated.push({
      at: note.issuedAt,
      order: 1,
      entry: () => {
        const entry = new Entry(
          businessDayOf(note.issuedAt),
          `Credit note ${note.number} on ${note.invoiceNumber} · ${note.customerName}`,
          note.number,
        );
        for (const share of creditShares(note, note.invoice)) entry.post(book.revenue(share.key), share.netCents);
        if (note.taxCents !== 0) entry.post(book.account('taxAccount'), note.taxCents);
        if (note.appliedCents !== 0) entry.post(receivables(), -note.appliedCents);
        if (note.toBalanceCents !== 0) entry.post(book.account('customerCreditAccount'), -note.toBalanceCents);
        return entry;
      },
    });
  }
  for (const payment of documents.payments) {
    dated.push({
      at: payment.paidAt,
      order: 2,
      entry: () => {
        const refund = payment.kind === 'refund';
        const entry = new Entry(
          businessDayOf(payment.paidAt),
          `${refund ? 'Refund' : 'Payment'} of ${payment.invoiceNumber} by ${methodLabel(payment.method)} · ${payment.customerName}`,
          payment.invoiceNumber,
        );
        const sign = refund ? -1 : 1;
        entry.post(moneyAccount(book, payment.method), sign * payment.amountCents);
        entry.post(receivables(), -sign * payment.amountCents);
        return entry;
      },
    });
  }
  for (const refund of documents.creditRefunds) {
    dated.push({
      at: refund.createdAt,
      order: 3,
      entry: () => {
        const entry = new Entry(
          businessDayOf(refund.createdAt),
          `Credit balance refunded by ${methodLabel(refund.method)} · ${refund.customerName}`,
          refund.reference ?? '',
        );
        entry.post(book.account('customerCreditAccount'), refund.amountCents);
        entry.post(moneyAccount(book, refund.method === 'card' ? 'card' : 'bank'), -refund.amountCents);
        return entry;
      },
    });
  }

  dated.sort((a, b) => a.at.getTime() - b.at.getTime() || a.order - b.order);
  const entries = dated.map((d) => d.entry());
  const rows = entries.flatMap((entry) => entry.rows());
  return {
    content: csv(JOURNAL_COLUMNS, rows),
    rows: rows.length,
    totalCents: sumCents(entries.map((entry) => entry.debits())),
    taxCents: null,
  };
}
