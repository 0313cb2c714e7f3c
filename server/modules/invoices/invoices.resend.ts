import type { ReceiptSent } from '@shared/contracts/invoices';
import type { Db } from '../../db/client';
import { recordAudit } from '../../lib/audit';
import { businessToday } from '../../lib/business-day';
import { payLink, portalLink } from '../../lib/capability-links';
import { readCompanyProfile } from '../../lib/company-profile';
import { conflict } from '../../lib/errors';
import { enqueueEmail, type Mailer } from '../../lib/mailer';
import type { SessionUser } from '../sessions/sessions';
import { invoiceAutopay } from './invoice-autopay';
import { holdPayableInvoice } from './invoice-resend.repo';
import { invoiceEmailFacts, invoiceIssuedEmail, type PayWhere } from './invoices.emails';
import { findVisibleInvoice, invoiceFacts } from './invoices.service';

export type ResendDeps = { db: Db; mailer: Mailer; baseUrl: string };

/**
 * "Resend" on an invoice: its e-mail queued again for the customer, with what is due today and where to pay
 * (the contract's pay link, or the client portal), or, for an autopay customer, the day its card on file is
 * charged (never a day past: the next charge run takes it today), and an audit event. Only while the invoice still asks for
 * money (409 otherwise); the invoice's row is held (FOR SHARE) while the message is queued, so a payment or a
 * void committing at the same moment is seen either before (409) or after (the message was right when sent).
 */
export async function resendInvoice(deps: ResendDeps, actor: SessionUser, id: string): Promise<ReceiptSent> {
  await findVisibleInvoice(deps.db, actor, id);
  const sent = await deps.db.transaction(async (tx) => {
    if (!(await holdPayableInvoice(tx, id))) throw conflict('Only an unpaid invoice can be sent again.');
    const facts = await invoiceFacts(tx, id);
    const pay: PayWhere =
      facts.contract.paymentMode === 'pay_link' && facts.contract.payLinkToken
        ? { kind: 'pay_link', url: payLink(deps.baseUrl, facts.contract.payLinkToken) }
        : { kind: 'portal', url: portalLink(deps.baseUrl) };
    // An autopay customer's copy says when the card on file is charged, as the invoice's first e-mail did.
    const autopay = await invoiceAutopay(tx, facts.invoice);
    const today = businessToday();
    const chargedOn =
      autopay?.method && autopay.scheduledOn ? { method: autopay.method, on: autopay.scheduledOn } : null;
    await enqueueEmail(
      tx,
      invoiceIssuedEmail({
        invoice: invoiceEmailFacts(facts.invoice, facts.contract, facts.customer.advertiserName),
        customer: facts.customer,
        company: await readCompanyProfile(tx),
        pay,
        autopay: chargedOn && chargedOn.on < today ? { ...chargedOn, on: today } : chargedOn,
      }),
    );
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'invoice.resent',
      entity: 'invoice',
      entityId: id,
      after: { number: facts.invoice.number, to: facts.customer.email },
    });
    return { message: `Invoice ${facts.invoice.number} was e-mailed again to ${facts.customer.email}.` };
  });
  deps.mailer.kick(deps.db);
  return sent;
}
