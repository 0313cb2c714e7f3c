import type { AccountingFormat, DocumentExport } from '@shared/contracts/accounting-formats';
import { PAYABLE_INVOICE_STATUSES } from '@shared/invoice-amounts';
import { and, asc, count, desc, eq, gte, inArray, lt, lte, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { sqlBillingContactName, sqlBillingEmail } from '../../db/billing-recipient';
import type { Db } from '../../db/client';
import { sqlPausedForNonPayment, sqlReminderLevel } from '../../db/dunning-stage';
import {
  accountingExportDocuments,
  accountingExports,
  contracts,
  creditNotes,
  customers,
  invoiceLines,
  invoices,
  payments,
} from '../../db/schema';
import { type BoundedTotal, boundedTotal, countBound } from '../../lib/bounded-count';
import { likePattern } from '../../lib/http';

export type InvoiceRow = typeof invoices.$inferSelect;
export type InvoiceLineRow = typeof invoiceLines.$inferSelect;
export type PaymentRow = typeof payments.$inferSelect;
export type CreditNoteRow = typeof creditNotes.$inferSelect;
/** A credit note with the names shown beside it. */
export type CreditNoteListRow = { note: CreditNoteRow; invoiceNumber: string; customerName: string | null };

/** An invoice with the names shown beside it and how far dunning has chased it. */
export type InvoiceListRow = {
  invoice: InvoiceRow;
  customerName: string | null;
  contractTitle: string | null;
  /** The latest reminder sent: 0 none, 1 the first, 2 the second. */
  reminderLevel: number;
  contractPausedForNonPayment: boolean;
};

/** Whose invoices a caller sees: all, a sales rep's contracts', or those billed to a client's customer. */
export type InvoiceScope = { kind: 'all' } | { kind: 'rep'; userId: string } | { kind: 'customer'; customerId: string };

export type InvoiceFilter = {
  scope: InvoiceScope;
  contractId?: string;
  customerId?: string;
  status?: string;
  /** Unpaid and due before this day. */
  overdueBefore?: string;
  q?: string;
  periodFrom?: string;
  periodTo?: string;
  limit: number;
  offset: number;
};

const listColumns = {
  invoice: invoices,
  customerName: customers.name,
  contractTitle: contracts.title,
  reminderLevel: sqlReminderLevel('invoices').mapWith(Number),
  contractPausedForNonPayment: sqlPausedForNonPayment('contracts').mapWith(Boolean),
};

export function scopeCondition(scope: InvoiceScope): SQL | undefined {
  if (scope.kind === 'rep') return eq(contracts.salesRepId, scope.userId);
  if (scope.kind === 'customer') return eq(invoices.billToCustomerId, scope.customerId);
  return undefined;
}

/** The page and its total, two statements; the caller's scope is part of the WHERE clause. */
export async function selectInvoicePage(
  db: Db,
  filter: InvoiceFilter,
): Promise<{ rows: InvoiceListRow[] } & BoundedTotal> {
  const conditions: (SQL | undefined)[] = [scopeCondition(filter.scope)];
  if (filter.contractId) conditions.push(eq(invoices.contractId, filter.contractId));
  if (filter.customerId) conditions.push(eq(invoices.customerId, filter.customerId));
  if (filter.status) conditions.push(eq(invoices.status, filter.status));
  if (filter.overdueBefore) {
    conditions.push(
      inArray(invoices.status, [...PAYABLE_INVOICE_STATUSES]),
      lt(invoices.dueDate, filter.overdueBefore),
    );
  }
  if (filter.periodFrom) conditions.push(gte(invoices.periodStart, filter.periodFrom));
  if (filter.periodTo) conditions.push(lte(invoices.periodStart, filter.periodTo));
  if (filter.q) {
    const pattern = likePattern(filter.q);
    // The invoice's number, or its customer's name. Both arms are conditions on invoices that an index serves
    // (the number's trigram index; the customer index with the ids of the customers whose name matches, found
    // through customers_search_idx's expression and then checked on the name), so PostgreSQL ORs two bitmaps
    // instead of joining every invoice to its customer to test the name (1,000,000 invoices: 2.2 s -> 20 ms).
    const named = alias(customers, 'named');
    const namedIds = db
      .select({ id: named.id })
      .from(named)
      .where(
        and(
          sql`lower(${named.name} || ' ' || ${named.email} || ' ' || coalesce(${named.company}, '')) like ${pattern}`,
          sql`lower(${named.name}) like ${pattern}`,
        ),
      );
    conditions.push(
      or(sql`lower(${invoices.number}) like ${pattern}`, sql`${invoices.customerId} = any(array${namedIds})`),
    );
  }
  const where = and(...conditions.filter(Boolean));
  const bound = countBound(filter);
  const [rows, [{ total }]] = await Promise.all([
    db
      .select(listColumns)
      .from(invoices)
      .innerJoin(contracts, eq(contracts.id, invoices.contractId))
      .innerJoin(customers, eq(customers.id, invoices.customerId))
      .where(where)
      .orderBy(desc(invoices.periodStart), desc(invoices.number))
      .limit(filter.limit)
      .offset(filter.offset),
    db.select({ total: count() }).from(
      db
        .select({ one: sql`1` })
        .from(invoices)
        .innerJoin(contracts, eq(contracts.id, invoices.contractId))
        .innerJoin(customers, eq(customers.id, invoices.customerId))
        .where(where)
        .limit(bound + 1)
        .as('matches'),
    ),
  ]);
  return { rows, ...boundedTotal(total, bound) };
}

/** One invoice with its names and its contract's sales rep (for scope checks), or undefined. */
export async function selectInvoice(db: Db, id: string) {
  const [row] = await db
    .select({ ...listColumns, salesRepId: contracts.salesRepId })
    .from(invoices)
    .innerJoin(contracts, eq(contracts.id, invoices.contractId))
    .innerJoin(customers, eq(customers.id, invoices.customerId))
    .where(eq(invoices.id, id))
    .limit(1);
  return row;
}

export async function selectInvoiceLines(db: Db, invoiceId: string): Promise<InvoiceLineRow[]> {
  return db
    .select()
    .from(invoiceLines)
    .where(eq(invoiceLines.invoiceId, invoiceId))
    .orderBy(asc(invoiceLines.position), asc(invoiceLines.id));
}

export async function selectInvoicePayments(db: Db, invoiceId: string): Promise<PaymentRow[]> {
  return db
    .select()
    .from(payments)
    .where(eq(payments.invoiceId, invoiceId))
    .orderBy(asc(payments.createdAt), asc(payments.id));
}

/**
 * What a receipt or a void notice says about the invoice: its figures, its contract's name, the
 * customer's e-mail, the contract's sales rep. The customer is the one the invoice is addressed to, its
 * bill-to (the advertiser, or the agency that buys for it: product.md section 20), as its invoices reach it:
 * `email` and `contactPerson` are its billing contact's when it has one (db/billing-recipient.ts);
 * `advertiserName` names the advertiser when the bill-to is its agency (null otherwise).
 */
const invoiceFactsQuery = (db: Db) =>
  db
    .select({
      invoice: invoices,
      contract: {
        id: contracts.id,
        title: contracts.title,
        description: contracts.description,
        salesRepId: contracts.salesRepId,
        paymentMode: contracts.paymentMode,
        payLinkToken: contracts.payLinkToken,
      },
      customer: {
        id: customers.id,
        name: customers.name,
        email: sqlBillingEmail('customers'),
        company: customers.company,
        address: customers.address,
        city: customers.city,
        state: customers.state,
        zipCode: customers.zipCode,
        country: customers.country,
        contactPerson: sqlBillingContactName('customers'),
        advertiserName: sql<string | null>`(select advertiser.name from customers advertiser
          where advertiser.id = ${invoices.customerId} and ${invoices.customerId} <> ${invoices.billToCustomerId})`,
      },
    })
    .from(invoices)
    .innerJoin(contracts, eq(contracts.id, invoices.contractId))
    .innerJoin(customers, eq(customers.id, invoices.billToCustomerId));

export async function selectInvoiceFacts(db: Db, invoiceId: string) {
  const [row] = await invoiceFactsQuery(db).where(eq(invoices.id, invoiceId)).limit(1);
  return row;
}

/** selectInvoiceFacts of many invoices in one statement (a batch of payments). */
export async function selectInvoiceFactsOf(db: Db, invoiceIds: readonly string[]) {
  if (invoiceIds.length === 0) return [];
  return invoiceFactsQuery(db).where(inArray(invoices.id, [...invoiceIds]));
}

// ---------------------------------------------------------------------------------------------------------
// Credit notes: records of the invoices they correct (issued by the credit-notes module)
// ---------------------------------------------------------------------------------------------------------

const creditNoteColumns = { note: creditNotes, invoiceNumber: invoices.number, customerName: customers.name };

export type CreditNoteFilter = {
  scope: InvoiceScope;
  customerId?: string;
  invoiceId?: string;
  contractId?: string;
  q?: string;
  limit: number;
  offset: number;
};

/** A page of credit notes, newest first, and the total; the caller's scope is part of the WHERE clause. */
export async function selectCreditNotePage(
  db: Db,
  filter: CreditNoteFilter,
): Promise<{ rows: CreditNoteListRow[] } & BoundedTotal> {
  const conditions: (SQL | undefined)[] = [scopeCondition(filter.scope)];
  if (filter.customerId) conditions.push(eq(creditNotes.customerId, filter.customerId));
  if (filter.invoiceId) conditions.push(eq(creditNotes.invoiceId, filter.invoiceId));
  if (filter.contractId) conditions.push(eq(creditNotes.contractId, filter.contractId));
  if (filter.q) {
    const pattern = likePattern(filter.q);
    conditions.push(
      or(
        sql`lower(${creditNotes.number}) like ${pattern}`,
        sql`lower(${invoices.number}) like ${pattern}`,
        sql`lower(${customers.name}) like ${pattern}`,
      ),
    );
  }
  const where = and(...conditions.filter(Boolean));
  const bound = countBound(filter);
  const [rows, [{ total }]] = await Promise.all([
    db
      .select(creditNoteColumns)
      .from(creditNotes)
      .innerJoin(invoices, eq(invoices.id, creditNotes.invoiceId))
      .innerJoin(contracts, eq(contracts.id, creditNotes.contractId))
      .innerJoin(customers, eq(customers.id, creditNotes.customerId))
      .where(where)
      .orderBy(desc(creditNotes.issuedAt), desc(creditNotes.number))
      .limit(filter.limit)
      .offset(filter.offset),
    db.select({ total: count() }).from(
      db
        .select({ one: sql`1` })
        .from(creditNotes)
        .innerJoin(invoices, eq(invoices.id, creditNotes.invoiceId))
        .innerJoin(contracts, eq(contracts.id, creditNotes.contractId))
        .innerJoin(customers, eq(customers.id, creditNotes.customerId))
        .where(where)
        .limit(bound + 1)
        .as('matches'),
    ),
  ]);
  return { rows, ...boundedTotal(total, bound) };
}

/** One credit note with its names and its contract's sales rep (for scope checks), or undefined. */
export async function selectCreditNote(db: Db, id: string) {
  const [row] = await db
    .select({ ...creditNoteColumns, salesRepId: contracts.salesRepId, billToCustomerId: invoices.billToCustomerId })
    .from(creditNotes)
    .innerJoin(invoices, eq(invoices.id, creditNotes.invoiceId))
    .innerJoin(contracts, eq(contracts.id, creditNotes.contractId))
    .innerJoin(customers, eq(customers.id, creditNotes.customerId))
    .where(eq(creditNotes.id, id))
    .limit(1);
  return row;
}

/** An invoice's credit notes, oldest first. */
export async function selectInvoiceCreditNotes(db: Db, invoiceId: string): Promise<CreditNoteListRow[]> {
  return db
    .select(creditNoteColumns)
    .from(creditNotes)
    .innerJoin(invoices, eq(invoices.id, creditNotes.invoiceId))
    .innerJoin(customers, eq(customers.id, creditNotes.customerId))
    .where(eq(creditNotes.invoiceId, invoiceId))
    .orderBy(asc(creditNotes.issuedAt), asc(creditNotes.number));
}

// ---------------------------------------------------------------------------------------------------------
// Accounting exports: which batches exported these records (decision 043; the accounting module makes them)
// ---------------------------------------------------------------------------------------------------------

/** The batches that exported each of these invoices or credit notes, oldest first, by document id. */
export async function selectDocumentExports(
  db: Db,
  kind: 'invoice' | 'credit_note',
  ids: string[],
): Promise<Map<string, DocumentExport[]>> {
  const byDocument = new Map<string, DocumentExport[]>();
  if (ids.length === 0) return byDocument;
  const rows = await db
    .select({
      documentId: accountingExportDocuments.documentId,
      id: accountingExports.id,
      number: accountingExports.number,
      format: sql<AccountingFormat>`${accountingExports.format}`,
    })
    .from(accountingExportDocuments)
    .innerJoin(accountingExports, eq(accountingExports.id, accountingExportDocuments.exportId))
    .where(and(eq(accountingExportDocuments.documentKind, kind), inArray(accountingExportDocuments.documentId, ids)))
    .orderBy(asc(accountingExports.createdAt), asc(accountingExports.number));
  for (const { documentId, ...exported } of rows) {
    byDocument.set(documentId, [...(byDocument.get(documentId) ?? []), exported]);
  }
  return byDocument;
}
