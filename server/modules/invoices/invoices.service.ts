import type { CreditNote, CreditNoteListQuery } from '@shared/contracts/credit-notes';
import type {
  InvoiceEmailStatus,
  InvoiceEventKind,
  InvoiceTimeline,
  InvoiceTimelineEvent,
} from '@shared/contracts/invoice-timeline';
import type { Invoice, InvoiceListQuery, InvoiceSummary } from '@shared/contracts/invoices';
import { centsToAmount } from '@shared/money';
import { can } from '@shared/permissions';
import type { Db } from '../../db/client';
import type { BoundedTotal } from '../../lib/bounded-count';
import { businessDayOf, businessToday } from '../../lib/business-day';
import { notFound } from '../../lib/errors';
import type { SessionUser } from '../sessions/sessions';
import { invoiceAutopay } from './invoice-autopay';
import { selectInvoiceTimeline, type TimelineRow } from './invoice-timeline.repo';
import { invoiceDeliveryPeriods } from './invoices.delivery';
import { toCreditNote, toInvoice, toInvoiceSummary } from './invoices.dto';
import {
  type InvoiceListRow,
  type InvoiceScope,
  selectCreditNote,
  selectCreditNotePage,
  selectDocumentExports,
  selectInvoice,
  selectInvoiceCreditNotes,
  selectInvoiceFacts,
  selectInvoiceFactsOf,
  selectInvoiceLines,
  selectInvoicePage,
  selectInvoicePayments,
} from './invoices.repo';

/** Billed CPM periods and their delivery (records of the invoices), for the delivery module. */
export {
  liveBooking,
  type PeriodRow,
  selectPeriodPage,
  selectPeriodsByDay,
  selectPeriodsByKey,
  toDeliveryPeriod,
} from './invoices.delivery';

/**
 * Invoices as records: the list and detail by role (product.md section 3), what the PDF and e-mails say of
 * one. Money moves in payments/ (payments, voids, refunds); invoices are issued by billing/.
 */
type Actor = SessionUser;

const INVOICE = 'Invoice';

// ---------------------------------------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------------------------------------

/** product.md sections 3 and 20: all (invoice:read:any), a rep's own contracts', a client's: billed to its customer. */
export function invoiceScope(actor: Actor): InvoiceScope | null {
  if (can(actor, 'invoice:read:any')) return { kind: 'all' };
  if (can(actor, 'invoice:read:own')) return { kind: 'rep', userId: actor.id };
  if (can(actor, 'invoice:read:client') && actor.customerId) return { kind: 'customer', customerId: actor.customerId };
  return null;
}

function canSee(actor: Actor, invoice: { billToCustomerId: string }, salesRepId: string | null): boolean {
  const scope = invoiceScope(actor);
  if (!scope) return false;
  if (scope.kind === 'all') return true;
  if (scope.kind === 'rep') return salesRepId === scope.userId;
  return invoice.billToCustomerId === scope.customerId;
}

export async function listInvoices(
  db: Db,
  actor: Actor,
  query: InvoiceListQuery,
): Promise<{ rows: InvoiceSummary[] } & BoundedTotal> {
  const scope = invoiceScope(actor);
  if (!scope) return { rows: [], total: 0, totalIsLowerBound: false };
  const today = businessToday();
  const page = await selectInvoicePage(db, {
    scope,
    contractId: query.contractId,
    customerId: query.customerId,
    status: query.status,
    overdueBefore: query.overdue ? today : undefined,
    q: query.q || undefined,
    periodFrom: query.periodFrom,
    periodTo: query.periodTo,
    limit: query.limit,
    offset: query.offset,
  });
  return { ...page, rows: page.rows.map((row) => toInvoiceSummary(row, today)) };
}

/** The invoice (for the caller's eyes only: others' answer 404). */
export async function findVisibleInvoice(db: Db, actor: Actor, id: string): Promise<InvoiceListRow> {
  const row = await selectInvoice(db, id);
  if (!row || !canSee(actor, row.invoice, row.salesRepId)) throw notFound(INVOICE);
  return row;
}

export async function getInvoice(db: Db, actor: Actor, id: string): Promise<Invoice> {
  const row = await findVisibleInvoice(db, actor, id);
  const [lines, paymentRows, notes, delivery, autopay] = await Promise.all([
    selectInvoiceLines(db, id),
    selectInvoicePayments(db, id),
    selectInvoiceCreditNotes(db, id),
    invoiceDeliveryPeriods(db, id),
    invoiceAutopay(db, row.invoice),
  ]);
  const [invoiceExports, noteExports] = await Promise.all([
    exportsOf(db, actor, 'invoice', [id]),
    exportsOf(
      db,
      actor,
      'credit_note',
      notes.map((note) => note.note.id),
    ),
  ]);
  return toInvoice(
    row,
    lines,
    paymentRows,
    notes,
    delivery,
    businessToday(),
    { invoice: invoiceExports.get(id) ?? [], creditNotes: noteExports },
    autopay,
  );
}

/**
 * The accounting export batches that exported these documents (decision 043): internal bookkeeping, so staff
 * see them and a client's answers carry none.
 */
function exportsOf(db: Db, actor: Actor, kind: 'invoice' | 'credit_note', ids: string[]) {
  if (can(actor, 'invoice:read:client')) return Promise.resolve(new Map<string, never[]>());
  return selectDocumentExports(db, kind, ids);
}

/**
 * The invoice's timeline, read exactly like the invoice (others' answer 404). A client sees what was done
 * for it: e-mails only once sent, and no staff names (who recorded, credited or voided is internal).
 */
export async function getInvoiceTimeline(db: Db, actor: Actor, id: string): Promise<InvoiceTimeline> {
  await findVisibleInvoice(db, actor, id);
  const staff = !can(actor, 'invoice:read:client');
  const rows = await selectInvoiceTimeline(db, id, { sentOnly: !staff });
  return { invoiceId: id, events: rows.map((row) => toTimelineEvent(row, staff)) };
}

function toTimelineEvent(row: TimelineRow, staff: boolean): InvoiceTimelineEvent {
  const at = row.at instanceof Date ? row.at : new Date(row.at);
  return {
    id: row.id,
    kind: row.kind as InvoiceEventKind,
    at: at.toISOString(),
    day: businessDayOf(at),
    amount: row.amount_cents === null ? null : centsToAmount(Number(row.amount_cents)),
    reference: row.reference,
    detail: row.detail,
    emailStatus: row.email_status as InvoiceEmailStatus | null,
    actor: staff ? row.actor : null,
  };
}

// ---------------------------------------------------------------------------------------------------------
// Credit notes (records of the invoices they correct; the credit-notes module issues them)
// ---------------------------------------------------------------------------------------------------------

export async function listCreditNotes(
  db: Db,
  actor: Actor,
  query: CreditNoteListQuery,
): Promise<{ rows: CreditNote[] } & BoundedTotal> {
  const scope = invoiceScope(actor);
  if (!scope) return { rows: [], total: 0, totalIsLowerBound: false };
  const page = await selectCreditNotePage(db, {
    scope,
    customerId: query.customerId,
    invoiceId: query.invoiceId,
    contractId: query.contractId,
    q: query.q || undefined,
    limit: query.limit,
    offset: query.offset,
  });
  const exports = await exportsOf(
    db,
    actor,
    'credit_note',
    page.rows.map((row) => row.note.id),
  );
  return { ...page, rows: page.rows.map((row) => toCreditNote(row, exports.get(row.note.id))) };
}

/** The credit note (for the caller's eyes only: others' answer 404). */
export async function getCreditNote(db: Db, actor: Actor, id: string): Promise<CreditNote> {
  const row = await selectCreditNote(db, id);
  if (!row || !canSee(actor, row, row.salesRepId)) throw notFound('Credit note');
  const exports = await exportsOf(db, actor, 'credit_note', [id]);
  return toCreditNote(row, exports.get(id));
}

// ---------------------------------------------------------------------------------------------------------
// PDF data
// ---------------------------------------------------------------------------------------------------------

/** What the PDF prints: the invoice (visible to the caller), its lines and the customer's address. */
export async function invoiceForPdf(db: Db, actor: Actor, id: string) {
  const invoice = await getInvoice(db, actor, id);
  const facts = await invoiceFacts(db, id);
  return { invoice, customer: facts.customer, contract: facts.contract };
}

export type InvoiceFacts = NonNullable<Awaited<ReturnType<typeof selectInvoiceFacts>>>;

/**
 * What a receipt, a void notice or the PDF says about an invoice: its figures, its contract's name and
 * sales rep, the customer's name, e-mail and address. 404 for an unknown invoice.
 */
export async function invoiceFacts(db: Db, id: string): Promise<InvoiceFacts> {
  const facts = await selectInvoiceFacts(db, id);
  if (!facts) throw notFound(INVOICE);
  return facts;
}

/** invoiceFacts of many invoices in one statement, by invoice id; 404 when one of them is unknown. */
export async function invoiceFactsOf(db: Db, ids: readonly string[]): Promise<Map<string, InvoiceFacts>> {
  const rows = await selectInvoiceFactsOf(db, ids);
  const facts = new Map(rows.map((row) => [row.invoice.id, row]));
  if (ids.some((id) => !facts.has(id))) throw notFound(INVOICE);
  return facts;
}
