import type {
  AccountingDocumentKind,
  AccountingExport,
  AccountingFormat,
} from '@shared/contracts/accounting-vocabulary';
import type { AdType, PriceMetric } from '@shared/contracts/product-vocabulary';
import { and, asc, type Column, desc, eq, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import {
  accountingExportParts,
  accountingExports,
  contracts,
  creditNotes,
  customerCreditEntries,
  customers,
  invoiceLines,
  invoices,
  payments,
  products,
  users,
} from '../../db/schema';

// ---------------------------------------------------------------------------------------------------------
// Batches
// ---------------------------------------------------------------------------------------------------------

export type NewExport = {
  number: string;
  format: AccountingFormat;
  from: string;
  to: string;
  documentCount: number;
  totalCents: number;
  taxCents: number | null;
  createdBy: string;
};

/** One file of a batch as it is stored. */
export type NewExportPart = { part: number; fileName: string; content: string; sha256: string; documentCount: number };

/** The batch row, written once; its parts are inserted and its documents claimed under its id right after. */
export async function insertExport(tx: Db, batch: NewExport): Promise<string> {
  const [row] = await tx
    .insert(accountingExports)
    .values({
      number: batch.number,
      format: batch.format,
      fromDate: batch.from,
      toDate: batch.to,
      documentCount: batch.documentCount,
      totalCents: batch.totalCents,
      taxCents: batch.taxCents,
      createdBy: batch.createdBy,
    })
    .returning({ id: accountingExports.id });
  return row!.id;
}

/** A batch's files, all in one statement. */
export async function insertExportParts(tx: Db, exportId: string, parts: NewExportPart[]): Promise<void> {
  await tx.insert(accountingExportParts).values(parts.map((part) => ({ exportId, ...part })));
}

/** Which documents a format takes: the kinds of each. */
const KINDS_OF: Record<AccountingFormat, readonly AccountingDocumentKind[]> = {
  'xero-invoices': ['invoice'],
  'quickbooks-invoices': ['invoice'],
  'xero-credit-notes': ['credit_note'],
  journal: ['invoice', 'credit_note', 'payment', 'credit_refund'],
};

/** The documents of a kind dated within [start, end): invoices and credit notes by issue, money by when it moved. */
function candidatesOf(kind: AccountingDocumentKind, start: SQL, end: SQL): SQL {
  switch (kind) {
    case 'invoice':
      return sql`select 'invoice'::text as kind, i.id, i.issued_at as at from invoices i
                 where i.issued_at >= ${start} and i.issued_at < ${end}`;
    case 'credit_note':
      return sql`select 'credit_note'::text as kind, n.id, n.issued_at as at from credit_notes n
                 where n.issued_at >= ${start} and n.issued_at < ${end}`;
    case 'payment':
      return sql`select 'payment'::text as kind, p.id, p.paid_at as at from payments p
                 where p.status = 'succeeded' and p.paid_at >= ${start} and p.paid_at < ${end}`;
    case 'credit_refund':
      return sql`select 'credit_refund'::text as kind, e.id, e.created_at as at from customer_credit_entries e
                 where e.kind = 'refunded' and e.created_at >= ${start} and e.created_at < ${end}`;
  }
}

export type DocumentRef = { kind: AccountingDocumentKind; id: string };
/** A document and the part of its batch whose file holds it. */
export type PartDocumentRef = DocumentRef & { part: number };

/**
 * The documents of a format dated in the range (days of the business's calendar, both included) that no batch
 * of the format holds yet, oldest first.
 */
export async function selectNewDocuments(
  tx: Db,
  query: { format: AccountingFormat; from: string; to: string; timeZone: string },
): Promise<DocumentRef[]> {
  const start = sql`((${query.from}::date)::timestamp at time zone ${query.timeZone})`;
  const end = sql`((${query.to}::date + 1)::timestamp at time zone ${query.timeZone})`;
  const candidates = sql.join(
    KINDS_OF[query.format].map((kind) => candidatesOf(kind, start, end)),
    sql` union all `,
  );
  const result = await tx.execute(sql`
    select c.kind, c.id from (${candidates}) c
    where not exists (
      select 1 from accounting_export_documents d
      where d.format = ${query.format} and d.document_kind = c.kind and d.document_id = c.id)
    order by c.at, c.id`);
  return (result as unknown as { rows: DocumentRef[] }).rows;
}

/**
 * Claims documents for a batch (its row and parts inserted already), each in its part: ONE insert whose primary
 * key (format, kind, id) decides, so two exports running at once never both take a document (the second waits
 * for the first's rows, then skips them). Answers how many this batch took.
 */
export async function claimDocuments(
  tx: Db,
  claim: { exportId: string; format: AccountingFormat; documents: PartDocumentRef[] },
): Promise<number> {
  if (claim.documents.length === 0) return 0;
  const kinds = claim.documents.map((d) => d.kind).join(',');
  const ids = claim.documents.map((d) => d.id).join(',');
  const parts = claim.documents.map((d) => d.part).join(',');
  const result = await tx.execute(sql`
    insert into accounting_export_documents (export_id, part, format, document_kind, document_id)
    select ${claim.exportId}::uuid, t.part, ${claim.format}, t.kind, t.id
    from unnest(string_to_array(${kinds}, ','), string_to_array(${ids}, ',')::uuid[],
                string_to_array(${parts}, ',')::int[]) as t(kind, id, part)
    on conflict do nothing
    returning document_id`);
  return (result as unknown as { rows: unknown[] }).rows.length;
}

const creator = sql<string | null>`nullif(trim(${users.firstName} || ' ' || ${users.lastName}), '')`;
const countOf = (kind: AccountingDocumentKind) =>
  sql<number>`(select count(*) from accounting_export_documents d
               where d.export_id = ${accountingExports.id} and d.document_kind = ${kind})`.mapWith(Number);

const viewColumns = () => ({
  id: accountingExports.id,
  number: accountingExports.number,
  format: sql<AccountingFormat>`${accountingExports.format}`,
  fromDate: accountingExports.fromDate,
  toDate: accountingExports.toDate,
  documentCount: accountingExports.documentCount,
  totalCents: accountingExports.totalCents,
  taxCents: accountingExports.taxCents,
  createdAt: accountingExports.createdAt,
  creatorId: users.id,
  creatorName: creator,
  invoices: countOf('invoice'),
  creditNotes: countOf('credit_note'),
  payments: countOf('payment'),
  creditRefunds: countOf('credit_refund'),
});

type ViewRow = {
  id: string;
  number: string;
  format: AccountingFormat;
  fromDate: string;
  toDate: string;
  documentCount: number;
  totalCents: number;
  taxCents: number | null;
  createdAt: Date;
  creatorId: string | null;
  creatorName: string | null;
  invoices: number;
  creditNotes: number;
  payments: number;
  creditRefunds: number;
};

/** A batch's row with figures in cents (the service answers dollars). */
export type ExportRow = Omit<AccountingExport, 'total' | 'tax'> & { totalCents: number; taxCents: number | null };

type PartRow = AccountingExport['parts'][number];

/** The parts of these batches (without their files' text), in order, by batch. */
async function selectPartsOf(db: Db, exportIds: string[]): Promise<Map<string, PartRow[]>> {
  const byExport = new Map<string, PartRow[]>();
  if (exportIds.length === 0) return byExport;
  const rows = await db
    .select({
      exportId: accountingExportParts.exportId,
      part: accountingExportParts.part,
      fileName: accountingExportParts.fileName,
      sha256: accountingExportParts.sha256,
      documentCount: accountingExportParts.documentCount,
    })
    .from(accountingExportParts)
    .where(idIn(accountingExportParts.exportId, exportIds))
    .orderBy(asc(accountingExportParts.exportId), asc(accountingExportParts.part));
  for (const { exportId, ...part } of rows) {
    const parts = byExport.get(exportId) ?? [];
    parts.push(part);
    byExport.set(exportId, parts);
  }
  return byExport;
}

const toRow = (row: ViewRow, parts: PartRow[]): ExportRow => ({
  id: row.id,
  number: row.number,
  format: row.format,
  from: row.fromDate,
  to: row.toDate,
  documentCount: row.documentCount,
  documents: {
    invoices: row.invoices,
    creditNotes: row.creditNotes,
    payments: row.payments,
    creditRefunds: row.creditRefunds,
  },
  totalCents: row.totalCents,
  taxCents: row.taxCents,
  parts,
  fileName: parts[0]?.fileName ?? '',
  sha256: parts[0]?.sha256 ?? '',
  createdBy: row.creatorId ? { id: row.creatorId, name: row.creatorName ?? '' } : null,
  createdAt: row.createdAt.toISOString(),
});

/** Batches newest first, a page at a time, with the count in the same statement. */
export async function selectExportPage(db: Db, page: { limit: number; offset: number }) {
  const rows = await db
    .select({ ...viewColumns(), total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(accountingExports)
    .leftJoin(users, eq(users.id, accountingExports.createdBy))
    .orderBy(desc(accountingExports.createdAt), desc(accountingExports.number))
    .limit(page.limit)
    .offset(page.offset);
  const parts = await selectPartsOf(
    db,
    rows.map((row) => row.id),
  );
  return { rows: rows.map((row) => toRow(row, parts.get(row.id) ?? [])), total: rows[0]?.total ?? 0 };
}

export async function selectExport(db: Db, id: string): Promise<ExportRow | undefined> {
  const [row] = await db
    .select(viewColumns())
    .from(accountingExports)
    .leftJoin(users, eq(users.id, accountingExports.createdBy))
    .where(eq(accountingExports.id, id));
  return row ? toRow(row, (await selectPartsOf(db, [id])).get(id) ?? []) : undefined;
}

export type StoredPart = { part: number; fileName: string; content: string; sha256: string };

/**
 * A batch's stored files (every part, or the one asked for), each its name, exact text and SHA-256, with the
 * batch's number, format, when it was made and how many parts it has; undefined when there is no such batch.
 */
export async function selectExportFiles(db: Db, id: string, part?: number) {
  const [batch] = await db
    .select({
      number: accountingExports.number,
      format: sql<AccountingFormat>`${accountingExports.format}`,
      createdAt: accountingExports.createdAt,
      partCount:
        sql<number>`(select count(*) from accounting_export_parts p where p.export_id = ${accountingExports.id})`.mapWith(
          Number,
        ),
    })
    .from(accountingExports)
    .where(eq(accountingExports.id, id));
  if (!batch) return undefined;
  const files: StoredPart[] = await db
    .select({
      part: accountingExportParts.part,
      fileName: accountingExportParts.fileName,
      content: accountingExportParts.content,
      sha256: accountingExportParts.sha256,
    })
    .from(accountingExportParts)
    .where(
      part === undefined
        ? eq(accountingExportParts.exportId, id)
        : and(eq(accountingExportParts.exportId, id), eq(accountingExportParts.part, part)),
    )
    .orderBy(asc(accountingExportParts.part));
  return { ...batch, files };
}

// ---------------------------------------------------------------------------------------------------------
// The documents a batch took, as they are recorded (never recomputed)
// ---------------------------------------------------------------------------------------------------------

export type LineDoc = {
  invoiceId: string;
  kind: string;
  description: string;
  quantity: number;
  unitPriceCents: number;
  discountCents: number;
  amountCents: number;
  /** Billed at the in-season unit price (unitPriceCents is that price). */
  seasonal: boolean;
  priceMetric: PriceMetric | null;
  coversStart: string | null;
  coversEnd: string | null;
  proratedDays: number | null;
  periodDays: number | null;
  impressions: number | null;
  /** The ad type of the line's product; null for the package, the setup fee and a product no longer there. */
  adType: AdType | null;
};

export type InvoiceTaxTerms = { taxCents: number; taxRateBp: number; taxIncluded: boolean; lines: LineDoc[] };

/** The customer's postal address as the customer record holds it (each part null when not set). */
export type AddressDoc = {
  street: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  country: string | null;
};

/**
 * An invoice as the files write it. The contact (customerName, e-mail, address) is the invoice's bill-to, who is
 * invoiced and pays: the advertiser, or its agency (decision 060); advertiserName names the advertiser when the
 * invoice is billed to someone else (null or left out otherwise).
 */
export type InvoiceDoc = InvoiceTaxTerms & {
  id: string;
  number: string;
  issuedAt: Date;
  dueDate: string;
  customerName: string;
  advertiserName?: string | null;
  customerEmail: string;
  customerAddress: AddressDoc;
  contractTitle: string | null;
  subtotalCents: number;
  totalCents: number;
};

export type CreditNoteDoc = {
  id: string;
  number: string;
  kind: string;
  reason: string;
  issuedAt: Date;
  amountCents: number;
  taxCents: number;
  appliedCents: number;
  toBalanceCents: number;
  /** The credited invoice's bill-to (InvoiceDoc), and its advertiser when that is someone else. */
  customerName: string;
  advertiserName?: string | null;
  customerEmail: string;
  customerAddress: AddressDoc;
  invoiceNumber: string;
  /** The credited invoice's tax terms and lines: a credit is spread over its revenue accounts. */
  invoice: InvoiceTaxTerms;
};

export type PaymentDoc = {
  id: string;
  kind: 'payment' | 'refund';
  method: string;
  amountCents: number;
  paidAt: Date;
  reference: string | null;
  invoiceNumber: string;
  /** The invoice's bill-to (who pays), and its advertiser when that is someone else. */
  customerName: string;
  advertiserName?: string | null;
  /**
   * A gross-billed invoice's agency commission, owed to the agency once the invoice is paid (decision 060): on
   * the payment that paid it in full (the invoice paid, and this its latest succeeded payment up to when it
   * was), with the agency's name; null or left out on every other payment.
   */
  agencyPayable?: { cents: number; agencyName: string } | null;
};

export type CreditRefundDoc = {
  id: string;
  /** What was paid back (positive). */
  amountCents: number;
  method: string | null;
  reference: string | null;
  createdAt: Date;
  customerName: string;
};

const addressColumns = () => ({
  street: customers.address,
  city: customers.city,
  state: customers.state,
  zip: customers.zipCode,
  country: customers.country,
});

/** The advertiser of an invoice billed to someone else (its agency): the invoice's customer. */
const advertisers = alias(customers, 'advertiser');
const advertiserName = () =>
  sql<string | null>`case when ${invoices.billToCustomerId} <> ${invoices.customerId} then ${advertisers.name} end`;

/**
 * The rows whose id is one of these, as ONE array parameter: a year of documents can be more than the 65,535
 * parameters a statement takes one by one.
 */
const idIn = (column: Column, ids: string[]) => sql`${column} = any(string_to_array(${ids.join(',')}, ',')::uuid[])`;

/** The lines of these invoices in their order, each with its product's ad type. */
async function selectLines(db: Db, invoiceIds: string[]): Promise<Map<string, LineDoc[]>> {
  const byInvoice = new Map<string, LineDoc[]>();
  if (invoiceIds.length === 0) return byInvoice;
  const rows = await db
    .select({
      invoiceId: invoiceLines.invoiceId,
      kind: invoiceLines.kind,
      description: invoiceLines.description,
      quantity: invoiceLines.quantity,
      unitPriceCents: invoiceLines.unitPriceCents,
      discountCents: invoiceLines.discountCents,
      amountCents: invoiceLines.amountCents,
      seasonal: invoiceLines.seasonal,
      priceMetric: sql<PriceMetric | null>`${invoiceLines.priceMetric}`,
      coversStart: invoiceLines.coversStart,
      coversEnd: invoiceLines.coversEnd,
      proratedDays: invoiceLines.proratedDays,
      periodDays: invoiceLines.periodDays,
      impressions: invoiceLines.impressions,
      adType: sql<AdType | null>`${products.adType}`,
    })
    .from(invoiceLines)
    .leftJoin(products, eq(products.id, invoiceLines.productId))
    .where(idIn(invoiceLines.invoiceId, invoiceIds))
    .orderBy(asc(invoiceLines.invoiceId), asc(invoiceLines.position), asc(invoiceLines.id));
  for (const row of rows) {
    const lines = byInvoice.get(row.invoiceId) ?? [];
    lines.push(row);
    byInvoice.set(row.invoiceId, lines);
  }
  return byInvoice;
}

/** Invoices with their lines, in the order they were issued. */
export async function selectInvoiceDocs(db: Db, ids: string[]): Promise<InvoiceDoc[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({
      id: invoices.id,
      number: invoices.number,
      issuedAt: invoices.issuedAt,
      dueDate: invoices.dueDate,
      customerName: customers.name,
      advertiserName: advertiserName(),
      customerEmail: customers.email,
      ...addressColumns(),
      contractTitle: contracts.title,
      subtotalCents: invoices.subtotalCents,
      taxCents: invoices.taxCents,
      totalCents: invoices.totalCents,
      taxRateBp: invoices.taxRateBp,
      taxIncluded: invoices.taxIncluded,
    })
    .from(invoices)
    .innerJoin(customers, eq(customers.id, invoices.billToCustomerId))
    .innerJoin(advertisers, eq(advertisers.id, invoices.customerId))
    .innerJoin(contracts, eq(contracts.id, invoices.contractId))
    .where(idIn(invoices.id, ids))
    .orderBy(asc(invoices.issuedAt), asc(invoices.number));
  const lines = await selectLines(db, ids);
  return rows.map(({ street, city, state, zip, country, ...row }) => ({
    ...row,
    customerAddress: { street, city, state, zip, country },
    lines: lines.get(row.id) ?? [],
  }));
}

/** Credit notes with their invoice's tax terms and lines, in the order they were issued. */
export async function selectCreditNoteDocs(db: Db, ids: string[]): Promise<CreditNoteDoc[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({
      id: creditNotes.id,
      number: creditNotes.number,
      kind: creditNotes.kind,
      reason: creditNotes.reason,
      issuedAt: creditNotes.issuedAt,
      amountCents: creditNotes.amountCents,
      taxCents: creditNotes.taxCents,
      appliedCents: creditNotes.appliedCents,
      toBalanceCents: creditNotes.toBalanceCents,
      customerName: customers.name,
      advertiserName: advertiserName(),
      customerEmail: customers.email,
      ...addressColumns(),
      invoiceId: invoices.id,
      invoiceNumber: invoices.number,
      invoiceTaxCents: invoices.taxCents,
      taxRateBp: invoices.taxRateBp,
      taxIncluded: invoices.taxIncluded,
    })
    .from(creditNotes)
    .innerJoin(invoices, eq(invoices.id, creditNotes.invoiceId))
    .innerJoin(customers, eq(customers.id, invoices.billToCustomerId))
    .innerJoin(advertisers, eq(advertisers.id, invoices.customerId))
    .where(idIn(creditNotes.id, ids))
    .orderBy(asc(creditNotes.issuedAt), asc(creditNotes.number));
  const lines = await selectLines(db, [...new Set(rows.map((row) => row.invoiceId))]);
  return rows.map(
    ({ invoiceId, invoiceTaxCents, taxRateBp, taxIncluded, street, city, state, zip, country, ...note }) => ({
      ...note,
      customerAddress: { street, city, state, zip, country },
      invoice: { taxCents: invoiceTaxCents, taxRateBp, taxIncluded, lines: lines.get(invoiceId) ?? [] },
    }),
  );
}

/**
 * Payments and refunds received or made, in the order the money moved, each named by its invoice's bill-to; the
 * payment that paid a gross-billed invoice in full carries the commission then owed to the agency.
 */
export async function selectPaymentDocs(db: Db, ids: string[]): Promise<PaymentDoc[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({
      id: payments.id,
      kind: sql<'payment' | 'refund'>`${payments.kind}`,
      method: payments.method,
      amountCents: payments.amountCents,
      paidAt: payments.paidAt,
      reference: payments.reference,
      invoiceNumber: invoices.number,
      customerName: customers.name,
      advertiserName: advertiserName(),
      payableCents: sql<number>`case
        when ${payments.kind} = 'payment' and ${invoices.agencyBillingMode} = 'gross' and ${invoices.status} = 'paid'
             and ${invoices.agencyCommissionCents} > 0
             and ${payments.id} = (select x.id from payments x
                                   where x.invoice_id = ${invoices.id} and x.kind = 'payment'
                                     and x.status = 'succeeded' and x.paid_at <= ${invoices.paidAt}
                                   order by x.paid_at desc, x.created_at desc, x.id desc limit 1)
        then ${invoices.agencyCommissionCents} else 0 end`.mapWith(Number),
    })
    .from(payments)
    .innerJoin(invoices, eq(invoices.id, payments.invoiceId))
    .innerJoin(customers, eq(customers.id, invoices.billToCustomerId))
    .innerJoin(advertisers, eq(advertisers.id, invoices.customerId))
    .where(idIn(payments.id, ids))
    .orderBy(asc(payments.paidAt), asc(payments.createdAt), asc(payments.id));
  return rows.map(({ payableCents, ...payment }) => ({
    ...payment,
    agencyPayable: payableCents > 0 ? { cents: payableCents, agencyName: payment.customerName } : null,
  }));
}

/** Customer credit paid back by finance, oldest first. */
export async function selectCreditRefundDocs(db: Db, ids: string[]): Promise<CreditRefundDoc[]> {
  if (ids.length === 0) return [];
  return db
    .select({
      id: customerCreditEntries.id,
      amountCents: sql<number>`-${customerCreditEntries.amountCents}`.mapWith(Number),
      method: customerCreditEntries.method,
      reference: customerCreditEntries.reference,
      createdAt: customerCreditEntries.createdAt,
      customerName: customers.name,
    })
    .from(customerCreditEntries)
    .innerJoin(customers, eq(customers.id, customerCreditEntries.customerId))
    .where(idIn(customerCreditEntries.id, ids))
    .orderBy(asc(customerCreditEntries.createdAt), asc(customerCreditEntries.id));
}
