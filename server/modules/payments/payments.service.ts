/**
 * Payments core: the one way money is applied to an invoice, whoever took it.
 *
 * For the checkout (built-in and Stripe providers), call inside your transaction:
 *   applyPayment(tx, { invoiceId, amountCents, method: 'card', provider: 'builtin' | 'stripe',
 *                      providerPaymentId, checkoutSessionId, cardBrand, cardLast4 })
 *     -> { payment, invoice, becamePaid, duplicate }
 *     A replayed confirmation (same provider + providerPaymentId + invoice) answers duplicate: true and
 *     changes nothing. More than the amount due -> 400; a paid or void invoice -> 409 (both throw, so
 *     your transaction rolls back). When the invoice becomes fully paid: commission, notifications,
 *     audit, in the same transaction. Every payment queues a receipt e-mail: kick the mailer after commit.
 *   recordFailedPayment(tx, { ...same, failureMessage }) -> { payment, invoice, duplicate }
 *     A declined card: a failed payment row; the invoice stays unpaid and is marked `failed` (still
 *     payable, still due, still overdue after its due date).
 * Finance's manual payments and "Resend Receipt" are here too; voids and refunds in refunds.service.ts.
 * The invoice's status and amounts are written by the invoice ledger (invoices/invoices.ledger.ts), which
 * these call. Every path first locks the invoice's contract (contract-status: lockContractOfInvoice), the
 * first lock of every money path. See docs/decisions/011-billing.md.
 */

import type { CompanyProfile } from '@shared/contracts/company-vocabulary';
import { CONTRACT_ACCESS_MESSAGES, canReadContract, canWriteContract } from '@shared/contracts/contract-access';
import type { Invoice, ReceiptSent } from '@shared/contracts/invoices';
import {
  INVOICE_MESSAGES,
  type ManualPayment,
  type PaymentMethod,
  type PaymentProvider,
} from '@shared/contracts/invoices';
import { amountDueCents } from '@shared/invoice-amounts';
import { formatCents } from '@shared/money';
import type { Db } from '../../db/client';
import { recordAudit, recordAudits } from '../../lib/audit';
import { businessToday } from '../../lib/business-day';
import { readCompanyProfile } from '../../lib/company-profile';
import { type AppError, badRequest, conflict, forbidden, notFound } from '../../lib/errors';
import { type EmailMessage, enqueueEmail, enqueueEmails, type Mailer } from '../../lib/mailer';
import { notify, notifyEach } from '../../lib/notify';
import { earnCommissionForInvoices } from '../commissions/commissions.ledger';
import { lockContractOfInvoice, lockContractsOfInvoices } from '../contract-status/contract-status.service';
import { dunningAfterPayment } from '../dunning/dunning.service';
import { invoiceEmailFacts, receiptEmail } from '../invoices/invoices.emails';
import { addPayments, markFailed } from '../invoices/invoices.ledger';
import {
  findVisibleInvoice,
  getInvoice,
  type InvoiceFacts,
  invoiceFacts,
  invoiceFactsOf,
} from '../invoices/invoices.service';
import type { SessionUser } from '../sessions/sessions';
import { emitWebhookEvent } from '../webhooks/webhook-events';
import {
  type InvoiceRow,
  insertPaymentRows,
  type PaymentInsert,
  type PaymentRow,
  selectContractRep,
  selectInvoiceOwner,
  selectLatestPayment,
  selectPaymentByProviderId,
} from './payments.repo';

export type { InvoiceRow, PaymentRow } from './payments.repo';

export type ApplyPaymentInput = {
  invoiceId: string;
  amountCents: number;
  method: PaymentMethod;
  provider: PaymentProvider;
  /** The provider's id of the charge: a second confirmation with the same id is a duplicate. */
  providerPaymentId?: string | null;
  checkoutSessionId?: string | null;
  /** A check number or wire reference. */
  reference?: string | null;
  cardBrand?: string | null;
  cardLast4?: string | null;
  /** When the money moved (default now). */
  paidAt?: Date;
  /** The staff user who recorded a manual payment. */
  recordedBy?: string | null;
  /** Accepted for symmetry with the checkout's calls; receipts carry no links. */
  baseUrl?: string | null;
};

export type ApplyPaymentResult = {
  payment: PaymentRow;
  invoice: InvoiceRow;
  /** This payment completed the invoice (it was pending or failed, it is paid now). */
  becamePaid: boolean;
  /** The same provider payment was applied before: nothing changed. */
  duplicate: boolean;
};

export type FailedPaymentInput = Omit<ApplyPaymentInput, 'recordedBy'> & {
  failureMessage: string;
  /**
   * Tell the rep and finance (default). Autopay tells them only of the last failure of an invoice's retries
   * (product.md section 18): the customer hears of each one by its own e-mail.
   */
  notifyStaff?: boolean;
};

/**
 * Applies a payment to an invoice: the payment row (ON CONFLICT DO NOTHING on the provider's id), then the
 * invoice ledger's ONE conditional UPDATE that never lets the payment pass the amount due. Throws 404 for an
 * unknown invoice, 400 above the amount due, 409 for a paid or void invoice.
 */
export async function applyPayment(tx: Db, input: ApplyPaymentInput): Promise<ApplyPaymentResult> {
  const [result] = await applyPayments(tx, [input]);
  return result!;
}

/**
 * applyPayment for payments of several invoices (one each) at once, as a batch of autopay charges takes them:
 * the same rows, events, commissions, notifications and receipts, in a fixed number of statements however many
 * payments (their contracts locked in one statement, in id order). One refused payment throws for all, so the
 * caller's transaction rolls back; answers in the order given.
 */
export async function applyPayments(tx: Db, inputs: readonly ApplyPaymentInput[]): Promise<ApplyPaymentResult[]> {
  if (inputs.length === 0) return [];
  for (const input of inputs) {
    if (!Number.isSafeInteger(input.amountCents) || input.amountCents <= 0) {
      throw badRequest(INVOICE_MESSAGES.amountPositive, { amount: [INVOICE_MESSAGES.amountPositive] });
    }
  }
  const invoiceIds = inputs.map((input) => input.invoiceId);
  if (new Set(invoiceIds).size !== invoiceIds.length) throw new Error('applyPayments takes one payment per invoice');
  const owners = new Map((await lockContractsOfInvoices(tx, invoiceIds)).map((owner) => [owner.invoiceId, owner]));
  if (owners.size !== invoiceIds.length) throw notFound('Invoice');
  const now = new Date();
  const paidAtOf = (input: ApplyPaymentInput) => input.paidAt ?? now;

  const inserted = await insertPaymentRows(
    tx,
    inputs.map((input) => {
      const owner = owners.get(input.invoiceId)!;
      return paymentValues(input, owner, { status: 'succeeded', paidAt: paidAtOf(input), failureMessage: null });
    }),
  );
  const paymentOf = new Map(inserted.map((payment) => [payment.invoiceId, payment]));
  const fresh = inputs.filter((input) => paymentOf.has(input.invoiceId));
  const changed = await addPayments(
    tx,
    fresh.map((input) => ({ invoiceId: input.invoiceId, amountCents: input.amountCents, paidAt: paidAtOf(input) })),
  );
  if (changed.length !== fresh.length) {
    const done = new Set(changed.map(({ id }) => id));
    const refused = fresh.find((input) => !done.has(input.invoiceId))!;
    throw await refusal(tx, refused.invoiceId, refused.amountCents);
  }
  const facts = await invoiceFactsOf(tx, invoiceIds);

  const applied = fresh.map((input) => {
    const payment = paymentOf.get(input.invoiceId)!;
    const invoiceFacts = facts.get(input.invoiceId)!;
    return { input, payment, facts: invoiceFacts, becamePaid: invoiceFacts.invoice.status === 'paid' };
  });
  await recordAudits(
    tx,
    applied.flatMap(({ input, payment, facts: { invoice }, becamePaid }) => [
      {
        actorId: input.recordedBy ?? null,
        action: 'payment.recorded',
        entity: 'payment',
        entityId: payment.id,
        after: {
          invoiceId: invoice.id,
          invoiceNumber: invoice.number,
          amountCents: payment.amountCents,
          method: payment.method,
          provider: payment.provider,
          providerPaymentId: payment.providerPaymentId,
          reference: payment.reference,
          cardBrand: payment.cardBrand,
          cardLast4: payment.cardLast4,
          paidAt: payment.paidAt,
        },
      },
      ...(becamePaid
        ? [
            {
              actorId: input.recordedBy ?? null,
              action: 'invoice.paid',
              entity: 'invoice',
              entityId: invoice.id,
              before: { amountPaidCents: invoice.amountPaidCents - input.amountCents },
              after: { status: 'paid', amountPaidCents: invoice.amountPaidCents, paidAt: invoice.paidAt },
            },
          ]
        : []),
    ]),
  );
  await earnCommissionForInvoices(
    tx,
    applied.filter(({ becamePaid }) => becamePaid).map(({ facts: { invoice } }) => invoice.id),
  );
  await notifyEach(
    tx,
    applied.map(({ input, payment, facts: { invoice, contract, customer }, becamePaid }) => {
      const stillDue = amountDueCents(invoice);
      return {
        to: { userIds: contract.salesRepId ? [contract.salesRepId] : [], roles: ['finance'] },
        type: 'payment_received',
        title: becamePaid ? `Invoice ${invoice.number} paid` : `Payment received on invoice ${invoice.number}`,
        body: `${formatCents(input.amountCents)} from ${customer.name}${becamePaid ? ' (paid in full)' : `; ${formatCents(stillDue)} still due`}.`,
        link: `/contracts/${invoice.contractId}`,
        entity: 'invoice',
        entityId: invoice.id,
        dedupeKey: `payment_received:${payment.id}`,
        email: {
          subject: `Payment received: ${formatCents(input.amountCents)} on invoice ${invoice.number}`,
          text: `${customer.name} paid ${formatCents(input.amountCents)} on invoice ${invoice.number} (${methodWord(payment)}).${becamePaid ? ' The invoice is paid in full.' : ` ${formatCents(stillDue)} is still due.`}`,
        },
      };
    }),
  );
  if (applied.length > 0) {
    const company = await readCompanyProfile(tx);
    await enqueueEmails(
      tx,
      applied.map(({ payment, facts: invoiceFacts }) =>
        receiptMessage(payment, invoiceFacts.invoice, invoiceFacts, company),
      ),
    );
  }

  const appliedOf = new Map(applied.map((entry) => [entry.input.invoiceId, entry]));
  const results: ApplyPaymentResult[] = [];
  for (const input of inputs) {
    const entry = appliedOf.get(input.invoiceId);
    if (entry) {
      results.push({
        payment: entry.payment,
        invoice: entry.facts.invoice,
        becamePaid: entry.becamePaid,
        duplicate: false,
      });
    } else {
      results.push(await duplicateOf(tx, input, facts.get(input.invoiceId)!));
    }
  }
  return results;
}

/**
 * A failed attempt (a declined card): a `failed` payment row, and the invoice marked `failed` when it was
 * pending (it stays payable). Idempotent on the provider's payment id like applyPayment.
 */
export async function recordFailedPayment(
  tx: Db,
  input: FailedPaymentInput,
): Promise<{ payment: PaymentRow; invoice: InvoiceRow; duplicate: boolean }> {
  const amountCents = Number.isSafeInteger(input.amountCents) && input.amountCents > 0 ? input.amountCents : 0;
  if (!(await lockContractOfInvoice(tx, input.invoiceId))) throw notFound('Invoice');
  const inserted = await insertPayment(
    tx,
    { ...input, amountCents },
    { status: 'failed', paidAt: input.paidAt ?? new Date(), failureMessage: input.failureMessage.slice(0, 500) },
  );
  if (!inserted) {
    const { payment, invoice } = await duplicateOf(tx, input);
    return { payment, invoice, duplicate: true };
  }
  await markFailed(tx, input.invoiceId);
  await emitWebhookEvent(tx, 'payment.failed', { ids: [inserted.id] });
  const facts = await invoiceFacts(tx, input.invoiceId);
  await recordAudit(tx, {
    actorId: null,
    action: 'payment.failed',
    entity: 'payment',
    entityId: inserted.id,
    after: {
      invoiceId: input.invoiceId,
      invoiceNumber: facts.invoice.number,
      amountCents,
      method: inserted.method,
      provider: inserted.provider,
      providerPaymentId: inserted.providerPaymentId,
      cardBrand: inserted.cardBrand,
      cardLast4: inserted.cardLast4,
      failureMessage: inserted.failureMessage,
    },
  });
  if (input.notifyStaff === false) return { payment: inserted, invoice: facts.invoice, duplicate: false };
  await notify(tx, {
    to: { userIds: facts.contract.salesRepId ? [facts.contract.salesRepId] : [], roles: ['finance'] },
    type: 'payment_failed',
    title: `Payment failed on invoice ${facts.invoice.number}`,
    body: `${facts.customer.name}: ${inserted.failureMessage ?? 'the payment failed'}`,
    link: `/contracts/${facts.invoice.contractId}`,
    entity: 'invoice',
    entityId: input.invoiceId,
    dedupeKey: `payment_failed:${inserted.id}`,
    email: {
      subject: `Payment failed on invoice ${facts.invoice.number}`,
      text: `A payment of ${formatCents(amountCents)} by ${facts.customer.name} on invoice ${facts.invoice.number} failed: ${inserted.failureMessage ?? 'no reason given'}. The invoice is still unpaid.`,
    },
  });
  return { payment: inserted, invoice: facts.invoice, duplicate: false };
}

/** Queues the receipt of a payment (inside the caller's transaction). */
export async function queueReceipt(
  tx: Db,
  payment: PaymentRow,
  invoice: InvoiceRow,
  facts: InvoiceFacts,
  options: { resent?: boolean } = {},
): Promise<void> {
  await enqueueEmail(tx, receiptMessage(payment, invoice, facts, await readCompanyProfile(tx), options));
}

/** The receipt e-mail of a payment, with the invoice's balance as given. */
function receiptMessage(
  payment: PaymentRow,
  invoice: InvoiceRow,
  facts: InvoiceFacts,
  company: CompanyProfile,
  options: { resent?: boolean } = {},
): EmailMessage {
  return receiptEmail({
    invoice: invoiceEmailFacts(invoice, facts.contract, facts.customer.advertiserName),
    payment: {
      id: payment.id,
      amountCents: payment.amountCents,
      method: payment.method as PaymentMethod,
      paidAt: payment.paidAt,
      reference: payment.reference,
      cardBrand: payment.cardBrand,
      cardLast4: payment.cardLast4,
    },
    customer: facts.customer,
    company,
    resent: options.resent,
  });
}

// ---------------------------------------------------------------------------------------------------------
// Finance's manual payments, and receipts sent again
// ---------------------------------------------------------------------------------------------------------

export type PaymentDeps = { db: Db; mailer: Mailer; baseUrl: string };

/** A check, wire, cash or other payment recorded by finance: partial allowed, never more than due. */
export async function recordManualPayment(
  deps: PaymentDeps,
  actor: SessionUser,
  id: string,
  body: ManualPayment,
): Promise<Invoice> {
  await findVisibleInvoice(deps.db, actor, id);
  const today = businessToday();
  if (body.paidAt && body.paidAt > today) {
    throw badRequest(INVOICE_MESSAGES.paidAtFuture, { paidAt: [INVOICE_MESSAGES.paidAtFuture] });
  }
  // Today's payment carries the moment it was recorded; a back-dated one noon UTC of its day.
  const paidAt = !body.paidAt || body.paidAt === today ? new Date() : new Date(`${body.paidAt}T12:00:00Z`);
  await deps.db.transaction((tx) =>
    applyPayment(tx, {
      invoiceId: id,
      amountCents: body.amount,
      method: body.method,
      provider: 'manual',
      reference: body.reference,
      paidAt,
      recordedBy: actor.id,
    }),
  );
  deps.mailer.kick(deps.db);
  await dunningAfterPayment(deps, { invoiceId: id });
  return getInvoice(deps.db, actor, id);
}

/**
 * "Resend Receipt" on a contract: its latest payment's receipt e-mailed again, with the invoice's current
 * balance. For whoever may change the contract (others' contracts answer 404, a contract the caller only reads
 * 403); 409 while the contract has no payment.
 */
export async function resendReceipt(deps: PaymentDeps, actor: SessionUser, contractId: string): Promise<ReceiptSent> {
  const contract = await selectContractRep(deps.db, contractId);
  if (!contract || !canReadContract(actor, contract)) throw notFound('Contract');
  if (!canWriteContract(actor, contract)) throw forbidden(CONTRACT_ACCESS_MESSAGES.cannotChange);
  const sent = await deps.db.transaction((tx) => resendLatestReceipt(tx, actor, contractId));
  deps.mailer.kick(deps.db);
  return sent;
}

/** The latest payment's receipt queued again, with an audit event; 409 when there is none. */
async function resendLatestReceipt(tx: Db, actor: SessionUser, contractId: string): Promise<ReceiptSent> {
  const payment = await selectLatestPayment(tx, contractId);
  if (!payment) throw conflict(INVOICE_MESSAGES.noReceipt);
  const facts = await invoiceFacts(tx, payment.invoiceId);
  await queueReceipt(tx, payment, facts.invoice, facts, { resent: true });
  await recordAudit(tx, {
    actorId: actor.id,
    action: 'receipt.resent',
    entity: 'invoice',
    entityId: facts.invoice.id,
    after: { paymentId: payment.id, to: facts.customer.email },
  });
  return {
    message: `The receipt for ${formatCents(payment.amountCents)} on invoice ${facts.invoice.number} was e-mailed to ${facts.customer.email}.`,
  };
}

// ---------------------------------------------------------------------------------------------------------
// Internals
// ---------------------------------------------------------------------------------------------------------

type PaymentExtra = { status: 'succeeded' | 'failed'; paidAt: Date; failureMessage: string | null };

async function insertPayment(tx: Db, input: ApplyPaymentInput, extra: PaymentExtra): Promise<PaymentRow | undefined> {
  // The invoice's contract and customer never change: reading them first decides nothing.
  const owner = await selectInvoiceOwner(tx, input.invoiceId);
  if (!owner) throw notFound('Invoice');
  const [row] = await insertPaymentRows(tx, [paymentValues(input, owner, extra)]);
  return row;
}

function paymentValues(
  input: ApplyPaymentInput,
  owner: { contractId: string; customerId: string },
  extra: PaymentExtra,
): PaymentInsert {
  return {
    invoiceId: input.invoiceId,
    contractId: owner.contractId,
    customerId: owner.customerId,
    kind: 'payment',
    status: extra.status,
    amountCents: input.amountCents,
    method: input.method,
    provider: input.provider,
    providerPaymentId: input.providerPaymentId ?? null,
    checkoutSessionId: input.checkoutSessionId ?? null,
    reference: input.reference ?? null,
    cardBrand: input.cardBrand ?? null,
    cardLast4: input.cardLast4 ?? null,
    failureMessage: extra.failureMessage,
    paidAt: extra.paidAt,
    recordedBy: input.recordedBy ?? null,
  };
}

/** The payment recorded before under the same provider payment id, with the invoice as it is now. */
async function duplicateOf(tx: Db, input: ApplyPaymentInput, facts?: InvoiceFacts): Promise<ApplyPaymentResult> {
  const payment = await selectPaymentByProviderId(tx, {
    provider: input.provider,
    providerPaymentId: input.providerPaymentId ?? '',
    invoiceId: input.invoiceId,
  });
  const invoice = (facts ?? (await invoiceFacts(tx, input.invoiceId))).invoice;
  return { payment: payment!, invoice, becamePaid: false, duplicate: true };
}

/** Why the conditional update matched nothing, read after the fact. */
async function refusal(tx: Db, invoiceId: string, amountCents: number): Promise<AppError> {
  const facts = await invoiceFacts(tx, invoiceId).catch(() => null);
  if (!facts) return notFound('Invoice');
  const invoice = facts.invoice;
  if (invoice.status === 'paid') return conflict(INVOICE_MESSAGES.alreadyPaid);
  if (invoice.status === 'void') return conflict(INVOICE_MESSAGES.isVoid);
  const due = amountDueCents(invoice);
  const message = `${INVOICE_MESSAGES.amountAboveDue}: ${formatCents(due)} is due on invoice ${invoice.number}, ${formatCents(amountCents)} was given.`;
  return badRequest(message, { amount: [message] });
}

function methodWord(payment: PaymentRow): string {
  if (payment.method === 'card') return payment.cardLast4 ? `card ending in ${payment.cardLast4}` : 'card';
  if (payment.method === 'card_on_file') {
    return payment.cardLast4 ? `card on file ending in ${payment.cardLast4}` : 'card on file';
  }
  if (payment.method === 'bank_debit') return 'bank debit';
  return payment.method;
}
