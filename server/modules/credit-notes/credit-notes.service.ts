import {
  CREDIT_MESSAGES,
  type CreditNote,
  type CreditNoteRequest,
  type CreditRefundRequest,
  type CustomerCredit,
  type CustomerCreditEntry,
} from '@shared/contracts/credit-notes';
import type { ManualPaymentMethod } from '@shared/contracts/invoices';
import { creditableCents } from '@shared/invoice-amounts';
import { centsToAmount, formatCents } from '@shared/money';
import { can } from '@shared/permissions';
import type { Db } from '../../db/client';
import { portalLink } from '../../lib/capability-links';
import { readCompanyProfile } from '../../lib/company-profile';
import { type AppError, badRequest, conflict, notFound } from '../../lib/errors';
import { enqueueEmail, type Mailer } from '../../lib/mailer';
import { type NotificationType, notify } from '../../lib/notify';
import { adjustCommissionForCreditNote, earnCommissionForInvoice } from '../commissions/commissions.ledger';
import { lockContractOfInvoice } from '../contract-status/contract-status.service';
import { contractDisplayName, creditNoteIssuedEmail } from '../invoices/invoices.emails';
import { findVisibleInvoice, getCreditNote, invoiceFacts } from '../invoices/invoices.service';
import type { SessionUser } from '../sessions/sessions';
import {
  type CreditNoteIssue,
  type CreditNoteRow,
  issueCreditNoteRow,
  refundCustomerCreditRow,
} from './credit-notes.ledger';
import { selectCreditBalance, selectCreditEntries } from './credit-notes.repo';

/**
 * Credit notes finance and admins issue on an invoice, and the customer's credit balance (product.md
 * section 14). A void's credit note is issued by the void itself (payments/refunds.service.ts); reading
 * credit notes is the invoices module's (they are records of the invoices they correct).
 */

export type CreditDeps = { db: Db; mailer: Mailer; baseUrl: string };

/**
 * A partial credit note, under the contract's lock (the first lock of every money path): at most the
 * invoice's total minus what is already credited (400 otherwise), never on a void or fully credited invoice
 * (409). The commission follows: a credit on a paid invoice takes back its share; one that settles an unpaid
 * invoice lets it earn on what remains. The customer is e-mailed; the rep and finance are notified.
 */
export async function issueCreditNote(
  deps: CreditDeps,
  actor: SessionUser,
  invoiceId: string,
  body: CreditNoteRequest,
): Promise<CreditNote> {
  await findVisibleInvoice(deps.db, actor, invoiceId);
  const noteId = await deps.db.transaction(async (tx) => {
    if (!(await lockContractOfInvoice(tx, invoiceId))) throw notFound('Invoice');
    const note = await creditInvoice(tx, deps.baseUrl, {
      invoiceId,
      kind: 'partial',
      reason: body.reason,
      amountCents: body.amount,
      actorId: actor.id,
    });
    if (!note) throw await creditRefusal(tx, invoiceId, body.amount);
    return note.id;
  });
  deps.mailer.kick(deps.db);
  return getCreditNote(deps.db, actor, noteId);
}

/** Who hears of a credit note besides the customer: its type and title (an under-delivery credit has its own). */
export type CreditNotice = { type: NotificationType; title: string };

/**
 * A credit note inside the caller's transaction, which holds the contract's lock: the ledger row, then the
 * commission (a credit on a paid invoice takes back its share; one that settles an unpaid invoice lets it
 * earn on what remains), the customer's e-mail, and a notice to the rep and finance. Undefined when the
 * invoice could not be credited (void, or not that much creditable). The caller kicks the mailer.
 */
export async function creditInvoice(
  tx: Db,
  baseUrl: string,
  issue: CreditNoteIssue,
  notice: CreditNotice = { type: 'credit_note_issued', title: 'Credit note issued' },
): Promise<CreditNoteRow | undefined> {
  const issued = await issueCreditNoteRow(tx, issue);
  if (!issued) return undefined;
  if (issued.settled) await earnCommissionForInvoice(tx, issue.invoiceId);
  else await adjustCommissionForCreditNote(tx, issued.note.id);

  const facts = await invoiceFacts(tx, issue.invoiceId);
  const contractName = contractDisplayName(facts.contract);
  const { note } = issued;
  await enqueueEmail(
    tx,
    creditNoteIssuedEmail({
      creditNote: {
        id: note.id,
        number: note.number,
        reason: note.reason,
        amountCents: note.amountCents,
        appliedToInvoiceCents: note.appliedCents,
        toCreditBalanceCents: note.toBalanceCents,
        invoiceNumber: facts.invoice.number,
        contractName,
      },
      customer: facts.customer,
      company: await readCompanyProfile(tx),
      portalUrl: portalLink(baseUrl),
    }),
  );
  const summary = `${note.number}: ${formatCents(note.amountCents)} on invoice ${facts.invoice.number} for ${facts.customer.name} (${contractName}).`;
  const link = `/customers/${facts.customer.id}`;
  await notify(tx, {
    to: { userIds: facts.contract.salesRepId ? [facts.contract.salesRepId] : [], roles: ['finance'] },
    type: notice.type,
    title: notice.title,
    body: issue.kind === 'delivery' ? `${summary} ${note.reason}` : summary,
    link,
    entity: 'credit_note',
    entityId: note.id,
    email: { subject: `${notice.title}: ${note.number}`, text: `${summary}\n\n${baseUrl}${link}` },
  });
  return note;
}

/** Why the credit matched nothing, read after the fact (under the same lock). */
async function creditRefusal(tx: Db, invoiceId: string, amountCents: number): Promise<AppError> {
  const { invoice } = await invoiceFacts(tx, invoiceId);
  if (invoice.status === 'void') return conflict(CREDIT_MESSAGES.invoiceVoid);
  const creditable = creditableCents(invoice);
  if (creditable <= 0) return conflict(CREDIT_MESSAGES.fullyCredited);
  const message = `${CREDIT_MESSAGES.amountAboveCreditable} (${formatCents(creditable)}); ${formatCents(amountCents)} was given.`;
  if (amountCents > creditable) return badRequest(message, { amount: [message] });
  // The invoice changed between the read and the update (only possible without the contract's lock).
  return conflict('The invoice changed while the credit was being issued. Please try again.');
}

/** Who may see a customer's credit: staff who read every invoice, and the customer's own client accounts. */
function canSeeCredit(actor: SessionUser, customerId: string): boolean {
  if (can(actor, 'invoice:read:any')) return true;
  return can(actor, 'invoice:read:client') && actor.customerId === customerId;
}

/** The customer's credit balance and its movements, newest first (404 for others' customers). */
export async function getCustomerCredit(db: Db, actor: SessionUser, customerId: string): Promise<CustomerCredit> {
  if (!canSeeCredit(actor, customerId)) throw notFound('Customer');
  const balance = await selectCreditBalance(db, customerId);
  if (balance === undefined) throw notFound('Customer');
  const rows = await selectCreditEntries(db, customerId);
  const entries: CustomerCreditEntry[] = rows.map(({ entry, creditNoteNumber, invoiceNumber }) => ({
    id: entry.id,
    kind: entry.kind as CustomerCreditEntry['kind'],
    amount: centsToAmount(entry.amountCents),
    creditNoteId: entry.creditNoteId,
    creditNoteNumber,
    invoiceId: entry.invoiceId,
    invoiceNumber,
    method: entry.method as ManualPaymentMethod | null,
    reference: entry.reference,
    createdAt: entry.createdAt.toISOString(),
  }));
  return { customerId, balance: centsToAmount(balance), entries };
}

/**
 * Finance pays back part or all of a customer's credit balance: one conditional UPDATE never takes it below
 * zero (400 above the balance, 409 when there is none).
 */
export async function refundCustomerCredit(
  deps: CreditDeps,
  actor: SessionUser,
  customerId: string,
  body: CreditRefundRequest,
): Promise<CustomerCredit> {
  await deps.db.transaction(async (tx) => {
    const entry = await refundCustomerCreditRow(tx, {
      customerId,
      amountCents: body.amount,
      method: body.method,
      reference: body.reference,
      actorId: actor.id,
    });
    if (entry) return;
    const balance = await selectCreditBalance(tx, customerId);
    if (balance === undefined) throw notFound('Customer');
    if (balance === 0) throw conflict(CREDIT_MESSAGES.noBalance);
    const message = `${CREDIT_MESSAGES.amountAboveBalance} (${formatCents(balance)})`;
    throw badRequest(message, { amount: [message] });
  });
  return getCustomerCredit(deps.db, actor, customerId);
}
