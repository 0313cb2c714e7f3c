import { randomBytes } from 'node:crypto';
import { CHECKOUT_MESSAGES } from '@shared/contracts/checkout';
import { amountDueCents } from '@shared/invoice-amounts';
import type { Db } from '../../db/client';
import { recordAudit } from '../../lib/audit';
import { businessToday } from '../../lib/business-day';
import { conflict } from '../../lib/errors';
import { issueDueInvoices } from '../billing/billing-run';
import { changeContractStatus, lockContractForMoney } from '../contract-status/contract-status.service';
import type { ChargeResult } from './builtin-provider';
import {
  type CheckoutSessionRow,
  completeSessionRow,
  expireOverlappingSessions,
  type InvoiceRow,
  selectContractWithCustomer,
  selectFirstInvoice,
  selectInvoicesByIds,
} from './checkout.repo';
import { applyPayment, recordFailedPayment } from './payments.service';
import type { ProviderName } from './provider';

/** A payment the provider reports as taken. */
export type ProviderPayment = {
  provider: ProviderName;
  providerPaymentId: string;
  amountCents: number;
  cardBrand: string | null;
  cardLast4: string | null;
  /** When the money moved (default now; the demo's history is back-dated). */
  paidAt?: Date;
  /**
   * Built-in: nothing has moved yet, so anything that no longer matches (an invoice paid meanwhile, a
   * changed amount) refuses the payment with 409 and rolls everything back. Stripe: the money is taken,
   * so it is applied as far as it goes and any rest is recorded for finance.
   */
  strict: boolean;
};

/** What settling needs beyond the transaction: the public origin for links in the e-mails it queues. */
export type SettleDeps = { baseUrl: string };

export type SettleResult =
  | { outcome: 'settled'; contractId: string; closedSessions: { provider: string; providerSessionId: string | null }[] }
  | { outcome: 'not_open' };

/**
 * Completes a checkout inside the caller's transaction, after locking its contract (the first lock of every
 * money path, so that confirmations of several checkouts of one contract never deadlock):
 * 1. one conditional update open -> completed (a replay or a concurrent confirmation stops here);
 * 2. a first payment activates the sent contract (one conditional update) and issues its first invoice;
 * 3. applyPayment marks each invoice paid exactly once (idempotent on the provider's payment id);
 * 4. the contract's other open checkouts are closed, so they cannot charge the same invoices again.
 */
export async function settleCheckout(
  tx: Db,
  deps: SettleDeps,
  session: CheckoutSessionRow,
  payment: ProviderPayment,
): Promise<SettleResult> {
  // The first lock of every money path: concurrent confirmations of this contract's checkouts wait here
  // for each other, instead of locking sessions, the contract and invoices in different orders.
  await lockContractForMoney(tx, session.contractId);
  const completed = await completeSessionRow(tx, session.id, { acceptExpired: !payment.strict });
  if (!completed) return { outcome: 'not_open' };

  const targets =
    completed.invoiceIds.length > 0
      ? await selectInvoicesByIds(tx, completed.invoiceIds)
      : await firstInvoiceOnPayment(tx, deps, completed, payment);

  let remaining = payment.amountCents;
  for (const invoice of targets) {
    const due = amountDueCents(invoice);
    if (due <= 0) {
      if (payment.strict) throw conflict(CHECKOUT_MESSAGES.alreadyPaid);
      continue;
    }
    const amount = Math.min(due, remaining);
    if (amount <= 0) break;
    if (payment.strict && amount !== due) throw conflict(CHECKOUT_MESSAGES.amountChanged);
    await applyPayment(tx, {
      invoiceId: invoice.id,
      amountCents: amount,
      method: 'card',
      provider: payment.provider,
      providerPaymentId: payment.providerPaymentId,
      checkoutSessionId: completed.id,
      cardBrand: payment.cardBrand,
      cardLast4: payment.cardLast4,
      paidAt: payment.paidAt,
      baseUrl: deps.baseUrl,
    });
    remaining -= amount;
  }
  if (remaining !== 0) {
    if (payment.strict) throw conflict(CHECKOUT_MESSAGES.amountChanged);
    // Money taken that no open invoice could absorb (paid meanwhile by another way): finance refunds it.
    await recordAudit(tx, {
      actorId: null,
      action: 'payment.unapplied',
      entity: 'contract',
      entityId: completed.contractId,
      after: {
        checkoutSessionId: completed.id,
        provider: payment.provider,
        providerPaymentId: payment.providerPaymentId,
        unappliedCents: remaining,
      },
    });
  }

  const closedSessions = await expireOverlappingSessions(tx, completed);
  return { outcome: 'settled', contractId: completed.contractId, closedSessions };
}

/**
 * A checkout opened before the contract was billed pays its first invoice: the contract becomes active
 * (draft or sent -> active, one conditional update; already active when staff activated it meanwhile)
 * and its first period is issued in this transaction (without the invoice e-mail: the receipt follows).
 * Later periods already due (a start date in the past) are issued and e-mailed as the billing run does.
 */
async function firstInvoiceOnPayment(
  tx: Db,
  deps: SettleDeps,
  session: CheckoutSessionRow,
  payment: ProviderPayment,
): Promise<InvoiceRow[]> {
  const found = await selectContractWithCustomer(tx, session.contractId);
  if (!found) throw conflict('This contract no longer exists.');
  const { contract } = found;
  await changeContractStatus(tx, contract.id, {
    action: 'activate',
    actorId: null,
    baseUrl: deps.baseUrl,
    cause: `first payment (${payment.provider})`,
    paymentStarted: {
      customerId: `cus_${randomBytes(12).toString('hex')}`,
      subscriptionId: `sub_${randomBytes(12).toString('hex')}`,
    },
  });
  const today = businessToday();
  // The first period is billed now even when the contract starts later: it is what the customer paid.
  await issueDueInvoices(tx, {
    contractId: contract.id,
    asOf: contract.startDate,
    baseUrl: deps.baseUrl,
    email: false,
  });
  if (contract.startDate < today) {
    await issueDueInvoices(tx, { contractId: contract.id, asOf: today, baseUrl: deps.baseUrl, email: true });
  }
  const first = await selectFirstInvoice(tx, contract.id);
  if (!first) {
    if (payment.strict) throw conflict('This contract can no longer be paid.');
    return [];
  }
  return [first];
}

/**
 * A declined card: the invoices stay unpaid and the attempt is recorded on each of them (a first
 * payment has no invoice yet: the attempt is recorded on the contract's audit trail).
 */
export async function recordDeclinedAttempt(
  tx: Db,
  deps: SettleDeps,
  session: CheckoutSessionRow,
  charge: Extract<ChargeResult, { outcome: 'declined' }>,
  at?: Date,
): Promise<void> {
  const invoices = await selectInvoicesByIds(tx, session.invoiceIds);
  for (const invoice of invoices) {
    await recordFailedPayment(tx, {
      invoiceId: invoice.id,
      amountCents: amountDueCents(invoice),
      method: 'card',
      provider: session.provider as ProviderName,
      providerPaymentId: charge.providerPaymentId,
      checkoutSessionId: session.id,
      cardBrand: charge.cardBrand,
      cardLast4: charge.cardLast4 || null,
      failureMessage: charge.message,
      paidAt: at,
      baseUrl: deps.baseUrl,
    });
  }
  if (invoices.length === 0) {
    await recordAudit(tx, {
      actorId: null,
      action: 'payment.failed',
      entity: 'contract',
      entityId: session.contractId,
      after: {
        checkoutSessionId: session.id,
        provider: session.provider,
        providerPaymentId: charge.providerPaymentId,
        amountCents: session.amountCents,
        cardBrand: charge.cardBrand,
        cardLast4: charge.cardLast4 || null,
        failureMessage: charge.message,
      },
    });
  }
}
