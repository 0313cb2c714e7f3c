/**
 * Card payments for the demo data, through the built-in provider's own code path (a checkout session,
 * the test-card processor, then settleCheckout / recordDeclinedAttempt exactly as POST
 * /api/checkout/{token}/pay does). For server/demo/seed-billing.ts:
 *
 *   await payWithTestCard(db, { invoiceId, paidAt })                         // 4242 4242 4242 4242: paid
 *   await payWithTestCard(db, { invoiceId, card: 'declined', paidAt })      // 4000 0000 0000 0002: declined
 *
 * It answers { outcome: 'succeeded' } or { outcome: 'declined', message }; the invoice must be pending
 * or failed with something due (otherwise it throws the checkout's 409). E-mails (receipts, notices)
 * are queued in the outbox like real payments; nothing is kicked.
 */
import { randomBytes } from 'node:crypto';
import { TEST_CARDS } from '@shared/contracts/checkout';
import { amountDueCents } from '@shared/invoice-amounts';
import type { Db } from '../../db/client';
import { conflict, notFound } from '../../lib/errors';
import { chargeTestCard } from './builtin-provider';
import { insertSession, selectContractWithCustomer, selectInvoice } from './checkout.repo';
import { recordDeclinedAttempt, settleCheckout } from './checkout.settle';

export type DemoCard = keyof typeof TEST_CARDS;

export async function payWithTestCard(
  db: Db,
  options: { invoiceId: string; card?: DemoCard; paidAt?: Date; baseUrl?: string },
): Promise<{ outcome: 'succeeded' } | { outcome: 'declined'; message: string }> {
  const deps = { baseUrl: (options.baseUrl ?? 'http://localhost:3000').replace(/\/+$/, '') };
  const invoice = await selectInvoice(db, options.invoiceId);
  if (!invoice) throw notFound('Invoice');
  const due = amountDueCents(invoice);
  if (due <= 0) throw conflict('This invoice has nothing due.');
  const found = await selectContractWithCustomer(db, invoice.contractId);
  if (!found) throw notFound('Contract');
  const at = options.paidAt ?? new Date();

  const session = await insertSession(db, {
    token: randomBytes(24).toString('base64url'),
    contractId: invoice.contractId,
    invoiceIds: [invoice.id],
    amountCents: due,
    provider: 'builtin',
    providerSessionId: `cs_${randomBytes(12).toString('hex')}`,
    source: found.contract.paymentMode === 'pay_link' ? 'pay_link' : 'portal',
    createdAt: at,
    // Still open now, so that it can be paid like a checkout the customer has just opened.
    expiresAt: new Date(Date.now() + 60 * 60 * 1000),
  });
  const charge = chargeTestCard({ cardNumber: TEST_CARDS[options.card ?? 'visa'] });
  if (charge.outcome === 'declined') {
    await db.transaction((tx) => recordDeclinedAttempt(tx, deps, session, charge, at));
    return { outcome: 'declined', message: charge.message };
  }
  await db.transaction((tx) =>
    settleCheckout(tx, deps, session, {
      provider: 'builtin',
      providerPaymentId: charge.providerPaymentId,
      amountCents: session.amountCents,
      cardBrand: charge.cardBrand,
      cardLast4: charge.cardLast4,
      paidAt: at,
      strict: true,
    }),
  );
  return { outcome: 'succeeded' };
}
