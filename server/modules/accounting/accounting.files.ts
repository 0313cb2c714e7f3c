import {
  ACCOUNTING_FORMAT_LABELS,
  type AccountingDateFormat,
  type AccountingFormat,
  type AccountingSettings,
  formatAccountingDate,
  JOURNAL_MAX_ROWS,
  QUICKBOOKS_MAX_INVOICES,
  QUICKBOOKS_MAX_ROWS,
  XERO_MAX_DOCUMENTS,
} from '@shared/contracts/accounting-vocabulary';
import { invoiceLineDetail, PAYMENT_METHOD_LABELS, type PaymentMethod } from '@shared/contracts/invoice-vocabulary';
import { AD_TYPE_LABELS } from '@shared/contracts/product-vocabulary';
import { type Cents, centsToPlain, formatCents, sumCents } from '@shared/money';
import { stringify } from 'csv-stringify/sync';
import { zipSync } from 'fflate';
import { businessDayOf } from '../../lib/business-day';
import { conflict } from '../../lib/errors';
import type {
  AddressDoc,
  CreditNoteDoc,
  CreditRefundDoc,
  DocumentRef,
  InvoiceDoc,
  LineDoc,
  PaymentDoc,
} from './accounting.repo';
import { type AccountBook, accountBook, creditShares, type LineShare, lineShares } from './accounting.shares';

/**
 * The files of an accounting export (decisions 043 and 050), written from the documents as recorded: CSV, RFC
 * 4180 with CRLF line ends and a header row, UTF-8 without a byte order mark, split into as many parts as the
 * format's package imports at once (a document's rows always in one part). Amounts are the recorded integer
 * cents written with two decimals (centsToPlain), never floats. Xero and QuickBooks take amounts tax exclusive
 * (choose "Tax exclusive" when importing) and dates in the format the settings name (MM/DD/YYYY unless set
 * otherwise); the journal writes YYYY-MM-DD.
 */

export type Documents = {
  invoices: InvoiceDoc[];
  creditNotes: CreditNoteDoc[];
  payments: PaymentDoc[];
  creditRefunds: CreditRefundDoc[];
};

/** One part's file: its text, its rows (the header not counted), and the documents it holds in their order. */
export type ExportPartFile = { content: string; rows: number; documents: DocumentRef[] };

/** A batch's files and figures: the parts in order, the documents' totals and tax (null for the journal). */
export type ExportContent = { parts: ExportPartFile[]; totalCents: Cents; taxCents: Cents | null };

/** A document's rows in a file, kept together: a part holds all of them or none. */
type DocumentRows = { ref: DocumentRef; label: string; rows: string[][] };
type Written = { documents: DocumentRows[]; totalCents: Cents; taxCents: Cents | null };

/** The currency of every amount the product records. */
export const CURRENCY = 'USD';

/** The contact's postal address, as Xero's templates name its columns (a new contact is made with it). */
const XERO_ADDRESS_COLUMNS = ['POAddressLine1', 'POCity', 'PORegion', 'POPostalCode', 'POCountry'] as const;

export const XERO_INVOICE_COLUMNS = [
  '*ContactName',
  'EmailAddress',
  ...XERO_ADDRESS_COLUMNS,
  '*InvoiceNumber',
  'Reference',
  '*InvoiceDate',
  '*DueDate',
  '*Description',
  '*Quantity',
  '*UnitAmount',
  'Discount',
  '*AccountCode',
  '*TaxType',
  'TaxAmount',
  'Currency',
] as const;

export const XERO_CREDIT_NOTE_COLUMNS = [
  '*ContactName',
  'EmailAddress',
  ...XERO_ADDRESS_COLUMNS,
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

/**
 * What one file of a format may hold: what the package imports at once (QuickBooks Online: 100 invoices in
 * 1,000 rows; Xero: 500 invoices or credit notes), and the journal's own limit of 10,000 rows.
 */
export const FILE_LIMITS: Record<AccountingFormat, { app: string; documents?: number; rows?: number }> = {
  'xero-invoices': { app: 'Xero', documents: XERO_MAX_DOCUMENTS },
  'xero-credit-notes': { app: 'Xero', documents: XERO_MAX_DOCUMENTS },
  'quickbooks-invoices': { app: 'QuickBooks Online', documents: QUICKBOOKS_MAX_INVOICES, rows: QUICKBOOKS_MAX_ROWS },
  journal: { app: 'The journal', rows: JOURNAL_MAX_ROWS },
};

/**
 * The documents in parts, in their order: a document goes into the current part while the part stays within
 * the format's limits (documents and rows) with it, else it starts the next part; its rows are never split.
 * A document whose rows alone are more than a file may hold cannot be exported in this format (409).
 */
export function splitIntoParts<T extends { label: string; rows: unknown[] }>(
  format: AccountingFormat,
  documents: T[],
): T[][] {
  const limit = FILE_LIMITS[format];
  const parts: T[][] = [];
  let current: T[] = [];
  let rows = 0;
  for (const document of documents) {
    if (limit.rows !== undefined && document.rows.length > limit.rows) {
      throw conflict(
        `${limit.app} imports at most ${limit.rows.toLocaleString('en-US')} rows a file, and ${document.label} alone makes ${document.rows.length.toLocaleString('en-US')}: it cannot be exported as ${ACCOUNTING_FORMAT_LABELS[format]}. Choose another format for it.`,
      );
    }
    const full =
      (limit.documents !== undefined && current.length >= limit.documents) ||
      (limit.rows !== undefined && rows + document.rows.length > limit.rows);
    if (current.length > 0 && full) {
      parts.push(current);
      current = [];
      rows = 0;
    }
    current.push(document);
    rows += document.rows.length;
  }
  if (current.length > 0) parts.push(current);
  return parts;
}

/**
 * The files of a format from its documents, in parts within the format's limits; 409 (nothing saved) when it
 * needs an account code not set, or a document holds more rows than one file may.
 */
export function exportFile(
  format: AccountingFormat,
  documents: Documents,
  settings: AccountingSettings,
): ExportContent {
  const book = accountBook(settings);
  const written = WRITERS[format](documents, book, settings.dateFormat);
  book.assertComplete();
  const columns = COLUMNS[format];
  return {
    parts: splitIntoParts(format, written.documents).map((part) => {
      const rows = part.flatMap((document) => document.rows);
      return { content: csv(columns, rows), rows: rows.length, documents: part.map((document) => document.ref) };
    }),
    totalCents: written.totalCents,
    taxCents: written.taxCents,
  };
}

/**
 * A batch's parts in one zip (fflate): each entry named as its part's file and holding its exact bytes, dated
 * when the batch was made, so the same parts always make the same zip.
 */
export function zipParts(parts: { fileName: string; content: string }[], madeAt: Date): Uint8Array {
  const encoder = new TextEncoder();
  return zipSync(
    Object.fromEntries(parts.map((part) => [part.fileName, [encoder.encode(part.content), { mtime: madeAt }]])),
    { level: 6 },
  );
}

const WRITERS: Record<
  AccountingFormat,
  (documents: Documents, book: AccountBook, dateFormat: AccountingDateFormat) => Written
> = {
  'xero-invoices': xeroInvoices,
  'xero-credit-notes': xeroCreditNotes,
  'quickbooks-invoices': quickbooksInvoices,
  journal,
};

const COLUMNS: Record<AccountingFormat, readonly string[]> = {
  'xero-invoices': XERO_INVOICE_COLUMNS,
  'xero-credit-notes': XERO_CREDIT_NOTE_COLUMNS,
  'quickbooks-invoices': QUICKBOOKS_INVOICE_COLUMNS,
  journal: JOURNAL_COLUMNS,
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

/**
 * The contact's address as Xero's five columns: the street (its lines joined by commas: one line of the
 * address), city, state (region), ZIP (postal code) and country; empty cells for what the customer lacks.
 */
export function xeroAddress(address: AddressDoc): string[] {
  const street = (address.street ?? '')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean)
    .join(', ');
  return [street, address.city, address.state, address.zip, address.country].map((value) => text(value || null));
}

/**
 * The discount, in hundredths of a percent (1000: 10.00%), that makes Xero's own arithmetic give `netCents`
 * from `grossCents` (quantity x unit price): Xero takes the Discount column as a percentage with two decimals
 * and computes a line's amount as quantity x unit amount x (100 - discount) / 100, rounded to the cent. The
 * one nearest the line's own reduction is taken, when it lands strictly within half a cent of the net (so
 * however Xero rounds a half, the cent is the same); null when no such percentage exists (possible only when
 * the gross is above $100.00, where a step of 0.01% is more than a cent) or the net is not a reduction of
 * the gross.
 */
export function xeroDiscount(grossCents: Cents, netCents: Cents): number | null {
  if (grossCents <= 0 || netCents < 0 || netCents > grossCents || grossCents > 900_000_000_000) return null;
  const off = 10_000 * (grossCents - netCents);
  // The nearest whole number of hundredths of a percent to off / gross, by integers alone.
  const nearest = Math.floor((2 * off + grossCents) / (2 * grossCents));
  const missBy = Math.abs(grossCents * nearest - off);
  return nearest <= 10_000 && 2 * missBy < 10_000 ? nearest : null;
}

/** 1000 -> "10.00", 6774 -> "67.74": a Discount cell. */
export const discountText = (hundredths: number) =>
  `${Math.floor(hundredths / 100)}.${String(hundredths % 100).padStart(2, '0')}`;

/**
 * A Xero invoice line (tax exclusive) whose amount, as Xero computes it, is the line's net revenue to the
 * cent: as billed when that is exactly quantity x unit price; a discounted or prorated line as its quantity
 * and unit price (the in-season one in season, as billed) with the discount percentage that gives its amount
 * (xeroDiscount); otherwise (prices including tax, a negative line, no such percentage) one unit of its net
 * amount, the description saying how it was priced.
 */
export function xeroLine(
  share: LineShare,
  taxIncluded: boolean,
): { quantity: number; unitCents: Cents; discount: string } {
  const { line } = share;
  if (!taxIncluded && line.quantity > 0 && Number.isInteger(line.quantity)) {
    const grossCents = line.quantity * line.unitPriceCents;
    if (line.amountCents === grossCents)
      return { quantity: line.quantity, unitCents: line.unitPriceCents, discount: '' };
    const discount = xeroDiscount(grossCents, share.netCents);
    if (discount !== null) {
      return { quantity: line.quantity, unitCents: line.unitPriceCents, discount: discountText(discount) };
    }
  }
  return { quantity: 1, unitCents: share.netCents, discount: '' };
}

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

/** The line's description with how it was priced: the invoice's own line detail, the in-season price, the discount. */
export function lineDescription(line: LineDoc): string {
  const details = [invoiceLineDetail(line)];
  if (line.seasonal) details.push('in-season price');
  if (line.discountCents > 0) {
    details.push(
      `${line.quantity} × ${formatCents(line.unitPriceCents)} less ${formatCents(line.discountCents)} discount`,
    );
  }
  const detail = details.filter(Boolean).join(' · ');
  return detail ? `${line.description} (${detail})` : line.description;
}

const taxed = (invoice: { taxRateBp: number }) => invoice.taxRateBp > 0;

/**
 * The advertiser of a document billed to its agency (decision 060), as the files name it: "Advertiser: Bella
 * Notte Trattoria"; null when the document is billed to the advertiser itself.
 */
export const advertiserNote = (doc: { advertiserName?: string | null }) =>
  doc.advertiserName ? `Advertiser: ${doc.advertiserName}` : null;

/** Text with the advertiser appended when the document is billed to its agency: "Spring campaign · Advertiser: …". */
const withAdvertiser = (value: string | null, doc: { advertiserName?: string | null }): string | null => {
  const note = advertiserNote(doc);
  if (!note) return value;
  return value ? `${value} · ${note}` : note;
};

function xeroInvoices({ invoices }: Documents, book: AccountBook, dateFormat: AccountingDateFormat): Written {
  const day = (value: string) => formatAccountingDate(value, dateFormat);
  return invoicesWritten(invoices, (invoice) =>
    lineShares(invoice).map((share) => {
      const { quantity, unitCents, discount } = xeroLine(share, invoice.taxIncluded);
      return [
        text(invoice.customerName),
        text(invoice.customerEmail),
        ...xeroAddress(invoice.customerAddress),
        invoice.number,
        text(withAdvertiser(invoice.contractTitle, invoice)),
        day(businessDayOf(invoice.issuedAt)),
        day(invoice.dueDate),
        text(lineDescription(share.line)),
        String(quantity),
        centsToPlain(unitCents),
        discount,
        book.revenue(share.key),
        book.taxName(taxed(invoice) ? 'xeroTaxType' : 'xeroNoTaxType'),
        centsToPlain(share.taxCents),
        CURRENCY,
      ];
    }),
  );
}

function quickbooksInvoices({ invoices }: Documents, book: AccountBook, dateFormat: AccountingDateFormat): Written {
  const day = (value: string) => formatAccountingDate(value, dateFormat);
  return invoicesWritten(invoices, (invoice) =>
    lineShares(invoice).map((share) => {
      const { quantity, unitCents } = quantityAndUnit(share, invoice.taxIncluded);
      return [
        invoice.number,
        text(invoice.customerName),
        day(businessDayOf(invoice.issuedAt)),
        day(invoice.dueDate),
        book.revenue(share.key),
        text(withAdvertiser(lineDescription(share.line), invoice)),
        String(quantity),
        centsToPlain(unitCents),
        centsToPlain(share.netCents),
        book.taxName(taxed(invoice) ? 'quickbooksTaxCode' : 'quickbooksNoTaxCode'),
        centsToPlain(share.taxCents),
      ];
    }),
  );
}

/** Invoices' rows, invoice by invoice, and their totals and tax. */
function invoicesWritten(invoices: InvoiceDoc[], rowsOf: (invoice: InvoiceDoc) => string[][]): Written {
  return {
    documents: invoices.map((invoice) => ({
      ref: { kind: 'invoice', id: invoice.id },
      label: `invoice ${invoice.number}`,
      rows: rowsOf(invoice),
    })),
    totalCents: sumCents(invoices.map((i) => i.totalCents)),
    taxCents: sumCents(invoices.map((i) => i.taxCents)),
  };
}

/**
 * What a credit note's row says: its reason and the invoice it credits (and the ad type, when split over several;
 * the advertiser when billed to its agency).
 */
function creditDescription(note: CreditNoteDoc, key: string, split: boolean): string {
  const what = split
    ? `, ${key === 'other' ? 'other revenue' : AD_TYPE_LABELS[key as keyof typeof AD_TYPE_LABELS]}`
    : '';
  return withAdvertiser(`${note.reason} (credit on ${note.invoiceNumber}${what})`, note) ?? '';
}

function xeroCreditNotes({ creditNotes }: Documents, book: AccountBook, dateFormat: AccountingDateFormat): Written {
  return {
    documents: creditNotes.map((note) => {
      const shares = creditShares(note, note.invoice);
      return {
        ref: { kind: 'credit_note', id: note.id },
        label: `credit note ${note.number}`,
        rows: shares.map((share) => [
          text(note.customerName),
          text(note.customerEmail),
          ...xeroAddress(note.customerAddress),
          note.number,
          note.invoiceNumber,
          formatAccountingDate(businessDayOf(note.issuedAt), dateFormat),
          text(creditDescription(note, share.key, shares.length > 1)),
          '1',
          centsToPlain(share.netCents),
          book.revenue(share.key),
          book.taxName(taxed(note.invoice) ? 'xeroTaxType' : 'xeroNoTaxType'),
          centsToPlain(share.taxCents),
          CURRENCY,
        ]),
      };
    }),
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

/**
 * Where money of a method is: card payments (at a checkout or a card on file) in card clearing, credit in the
 * customers' credit, the rest the bank (a bank debit lands there directly).
 */
function moneyAccount(book: AccountBook, method: string | null): string {
  if (method === 'card' || method === 'card_on_file') return book.account('cardClearingAccount');
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
 *   receivables credited; a refund the other way round; the payment that pays a gross-billed invoice in full is
 *   followed by a second entry of the same document: agency commission debited, agency commissions payable
 *   credited, the commission now owed to the agency (decision 060);
 * - a net-billed invoice's agency commission line (negative) is debited to agency commission, not revenue;
 * - credit refunded to a customer: customer credit debited, the bank (or card clearing) credited.
 */
function journal(documents: Documents, book: AccountBook): Written {
  type Dated = {
    at: Date;
    order: number;
    ref: DocumentRef;
    label: string;
    entry: () => Entry;
    /** A second entry of the same document (a payment's agency payable): its rows follow the first's. */
    payable?: () => Entry;
  };
  const dated: Dated[] = [];
  const receivables = () => book.account('receivablesAccount');

  for (const invoice of documents.invoices) {
    dated.push({
      at: invoice.issuedAt,
      order: 0,
      ref: { kind: 'invoice', id: invoice.id },
      label: `invoice ${invoice.number}`,
      entry: () => {
        const entry = new Entry(
          businessDayOf(invoice.issuedAt),
          withAdvertiser(`Invoice ${invoice.number} · ${invoice.customerName}`, invoice) ?? '',
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
      ref: { kind: 'credit_note', id: note.id },
      label: `credit note ${note.number}`,
      entry: () => {
        const entry = new Entry(
          businessDayOf(note.issuedAt),
          withAdvertiser(`Credit note ${note.number} on ${note.invoiceNumber} · ${note.customerName}`, note) ?? '',
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
      ref: { kind: 'payment', id: payment.id },
      label: `the ${payment.kind} of ${payment.invoiceNumber}`,
      entry: () => {
        const refund = payment.kind === 'refund';
        const entry = new Entry(
          businessDayOf(payment.paidAt),
          withAdvertiser(
            `${refund ? 'Refund' : 'Payment'} of ${payment.invoiceNumber} by ${methodLabel(payment.method)} · ${payment.customerName}`,
            payment,
          ) ?? '',
          payment.invoiceNumber,
        );
        const sign = refund ? -1 : 1;
        entry.post(moneyAccount(book, payment.method), sign * payment.amountCents);
        entry.post(receivables(), -sign * payment.amountCents);
        return entry;
      },
      // A gross-billed invoice paid in full: the agency's commission is now owed to it (decision 060).
      payable: payment.agencyPayable
        ? () => {
            const { cents, agencyName } = payment.agencyPayable!;
            const entry = new Entry(
              businessDayOf(payment.paidAt),
              withAdvertiser(`Agency commission on ${payment.invoiceNumber} owed to ${agencyName}`, payment) ?? '',
              payment.invoiceNumber,
            );
            entry.post(book.agency('agencyCommissionAccount'), cents);
            entry.post(book.agency('agencyPayableAccount'), -cents);
            return entry;
          }
        : undefined,
    });
  }
  for (const refund of documents.creditRefunds) {
    dated.push({
      at: refund.createdAt,
      order: 3,
      ref: { kind: 'credit_refund', id: refund.id },
      label: `the credit refund to ${refund.customerName}`,
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
  const entries = dated.map((d) => ({
    ref: d.ref,
    label: d.label,
    entries: d.payable ? [d.entry(), d.payable()] : [d.entry()],
  }));
  return {
    documents: entries.map(({ ref, label, entries }) => ({ ref, label, rows: entries.flatMap((e) => e.rows()) })),
    totalCents: sumCents(entries.flatMap(({ entries }) => entries.map((e) => e.debits()))),
    taxCents: null,
  };
}
