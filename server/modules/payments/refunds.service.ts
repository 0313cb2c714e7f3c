import { INVOICE_MESSAGES, type Invoice, type PaymentProvider } from '@shared/contracts/invoices';
import { uncreditedCents } from '@shared/invoice-amounts';
import type { Db } from '../../db/client';
import { recordAudit } from '../../lib/audit';
import { readCompanyProfile } from '../../lib/company-profile';
import { conflict, notFound } from '../../lib/errors';
import { enqueueEmail } from '../../lib/mailer';
import { reverseCommissionForInvoice } from '../commissions/commissions.ledger';
import { lockContractOfInvoice } from '../contract-status/contract-status.service';
import { issueCreditNoteRow, returnAppliedCredit } from '../credit-notes/credit-notes.ledger';
import { dunningAfterPayment } from '../dunning/dunning.service';
import { invoiceEmailFacts, invoiceVoidedEmail } from '../invoices/invoices.emails';
import { voidInvoiceRow } from '../invoices/invoices.ledger';
import { findVisibleInvoice, getInvoice, invoiceFacts } from '../invoices/invoices.service';
import type { SessionUser } from '../sessions/sessions';
import { insertPaymentRow, type PaymentRow, selectReceivedPayments } from './payments.repo';
import type { PaymentDeps } from './payments.service';

/** A refund through a provider (Stripe), for a voided paid invoice. */
export type RefundHandler = (tx: Db, payment: PaymentRow) => Promise<void>;
const refundHandlers = new Map<string, RefundHandler>();

/** The checkout registers its provider's refund here (e.g. 'stripe'); manual and built-in need none. */
export function registerRefundHandler(provider: PaymentProvider, handler: RefundHandler): void {
  refundHandlers.set(provider, handler);
}

export function refundHandlerFor(provider: string): RefundHandler | undefined {
  return refundHandlers.get(provider);
}

/**
 * Voids an invoice with a reason: a credit note credits what remained uncredited; money received on it
 * (paid, or partly paid) and not already credited is refunded: one refund row per payment received, through
 * the provider's refund handler where one is registered (Stripe), a credit-balance payment back to the
 * balance. Commission earned on it (less what credit notes took back) is reversed. The invoice ledger's one
 * conditional UPDATE decides, after the contract's lock (the first lock of every money path).
 */
export async function voidInvoice(deps: PaymentDeps, actor: SessionUser, id: string, reason: string): Promise<Invoice> {
  await findVisibleInvoice(deps.db, actor, id);
  await deps.db.transaction(async (tx) => {
    if (!(await lockContractOfInvoice(tx, id))) throw notFound('Invoice');
    const voided = await voidInvoiceRow(tx, id, reason);
    if (!voided) throw conflict(`${INVOICE_MESSAGES.isVoid} It cannot be voided again.`);
    // The credit note of what remained uncredited: the void corrects the invoice, it does not rewrite it.
    const uncredited = uncreditedCents(voided);
    if (uncredited > 0) {
      await issueCreditNoteRow(tx, { invoiceId: id, kind: 'void', reason, amountCents: uncredited, actorId: actor.id });
    }

    // Refunds, oldest payment first, up to what is refunded; a payment the credit balance made returns to it.
    let toRefund = voided.refundedCents;
    for (const received of await selectReceivedPayments(tx, id)) {
      if (toRefund <= 0) break;
      const payment = { ...received, amountCents: Math.min(received.amountCents, toRefund) };
      toRefund -= payment.amountCents;
      if (payment.method === 'credit') await returnAppliedCredit(tx, payment, payment.amountCents, actor.id);
      const handler = refundHandlerFor(payment.provider);
      if (handler) await handler(tx, payment);
      const refund = await insertPaymentRow(tx, {
        invoiceId: id,
        contractId: payment.contractId,
        customerId: payment.customerId,
        kind: 'refund',
        status: 'succeeded',
        amountCents: payment.amountCents,
        method: payment.method,
        provider: payment.provider,
        providerPaymentId: payment.providerPaymentId,
        reference: `Refund of ${payment.reference ?? payment.providerPaymentId ?? payment.id}`.slice(0, 200),
        cardBrand: payment.cardBrand,
        cardLast4: payment.cardLast4,
        recordedBy: actor.id,
      });
      if (refund) {
        await recordAudit(tx, {
          actorId: actor.id,
          action: 'payment.refunded',
          entity: 'payment',
          entityId: refund.id,
          after: {
            invoiceId: id,
            refundOf: payment.id,
            amountCents: refund.amountCents,
            method: refund.method,
            provider: refund.provider,
          },
        });
      }
    }
    await reverseCommissionForInvoice(tx, id);
    await recordAudit(tx, {
      actorId: actor.id,
      action: voided.amountPaidCents > 0 ? 'invoice.refunded' : 'invoice.voided',
      entity: 'invoice',
      entityId: id,
      after: { status: 'void', reason, refundedCents: voided.refundedCents, number: voided.number },
    });
    const facts = await invoiceFacts(tx, id);
    await enqueueEmail(
      tx,
      invoiceVoidedEmail({
        invoice: invoiceEmailFacts(voided, facts.contract, facts.customer.advertiserName),
        customer: facts.customer,
        company: await readCompanyProfile(tx),
        refundCents: voided.refundedCents,
      }),
    );
  });
  deps.mailer.kick(deps.db);
  // A void settles what was overdue on it too: a contract paused for non-payment may resume.
  await dunningAfterPayment(deps, { invoiceId: id });
  return getInvoice(deps.db, actor, id);
}
