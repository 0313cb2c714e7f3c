import { randomBytes } from 'node:crypto';
import { CHECKOUT_MESSAGES } from '@shared/contracts/checkout';
import { amountDueCents } from '@shared/invoice-amounts';
import { formatCents } from '@shared/money';
import type { Db } from '../../db/client';
import { recordAudit } from '../../lib/audit';
import { businessToday } from '../../lib/business-day';
import { conflict } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { issueDueInvoices } from '../billing/billing-run';
import {
  changeContractStatus,
  lockContractForMoney,
  lockContractsOfInvoices,
} from '../contract-status/contract-status.service';
import type { ChargeResult } from './builtin-provider';
import {
  type CheckoutSessionRow,
  completeSessionRow,
  expireOverlappingSessions,
  type InvoiceRow,
  selectContractWithCustomer,
  selectFirstInvoice,
  selectInvoicesByIds,
  selectInvoicesOldestFirst,
} from './checkout.repo';
import { type ApplyPaymentInput, applyPayment, applyPayments, recordFailedPayment } from './payments.service';
import type { PaymentProvider, ProviderName } from './provider';

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

/**
 * What settling needs beyond the transaction: the public origin for links in the e-mails it queues, and the
 * providers, through which a "Pay all due" gives back what its invoices no longer owed.
 */
export type SettleDeps = { baseUrl: string; providers?: { byName(name: string): PaymentProvider | null } };

export type SettleResult =
  | {
      outcome: 'settled';
      /** The contracts whose invoices it paid (one, but for a "Pay all due"): dunning runs for each. */
      contractIds: string[];
      closedSessions: { provider: string; providerSessionId: string | null }[];
    }
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
  const contractId = session.contractId;
  if (contractId === null) return settlePayAll(tx, deps, session, payment);
  // The first lock of every money path: concurrent confirmations of this contract's checkouts wait here
  // for each other, instead of locking sessions, the contract and invoices in different orders.
  await lockContractForMoney(tx, contractId);
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
      entityId: contractId,
      after: {
        checkoutSessionId: completed.id,
        provider: payment.provider,
        providerPaymentId: payment.providerPaymentId,
        unappliedCents: remaining,
      },
    });
  }

  const closedSessions = await expireOverlappingSessions(tx, completed);
  return { outcome: 'settled', contractIds: [contractId], closedSessions };
}

/**
 * Completes a "Pay all due" checkout (product.md section 20, decision 060): its invoices' contracts are locked
 * first, in one statement and in id order (so that it and a Pay Now of one of them wait for each other instead
 * of deadlocking); then the one conditional update open -> completed decides, as for any checkout. The amount
 * goes to its invoices oldest first (due date, then number), each up to what is due on it NOW: an invoice paid
 * meanwhile (a Pay Now, autopay, finance) takes nothing, whichever provider. Each invoice gets its own payment
 * through applyPayments (payment row, receipt, commission, paid status: the effects of any payment). What no
 * invoice took is refunded at once through the provider that took it (refundUnapplied), never kept.
 */
async function settlePayAll(
  tx: Db,
  deps: SettleDeps,
  session: CheckoutSessionRow,
  payment: ProviderPayment,
): Promise<SettleResult> {
  const payerId = session.payerId;
  if (payerId === null) throw new Error(`Checkout ${session.id} has neither a contract nor a payer`);
  await lockContractsOfInvoices(tx, session.invoiceIds);
  const completed = await completeSessionRow(tx, session.id, { acceptExpired: !payment.strict });
  if (!completed) return { outcome: 'not_open' };

  let remaining = payment.amountCents;
  const inputs: ApplyPaymentInput[] = [];
  for (const invoice of await selectInvoicesOldestFirst(tx, completed.invoiceIds)) {
    const amount = Math.min(amountDueCents(invoice), remaining);
    if (amount <= 0) continue;
    inputs.push({
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
  const applied = await applyPayments(tx, inputs);
  if (remaining > 0) await refundUnapplied(tx, deps, completed, payment, remaining);

  const closedSessions = await expireOverlappingSessions(tx, completed);
  const contractIds = [...new Set(applied.map(({ invoice }) => invoice.contractId))];
  return { outcome: 'settled', contractIds, closedSessions };
}

/**
 * The part of a "Pay all due" that its invoices no longer owed (paid meanwhile) goes back to the card, in the
 * settling transaction: a provider that fails throws, so the confirmation rolls back and comes again (Stripe
 * retries its webhook; the refund's idempotency key is the session's, so it is made once). Audited on the payer,
 * and finance is told.
 */
async function refundUnapplied(
  tx: Db,
  deps: SettleDeps,
  session: CheckoutSessionRow,
  payment: ProviderPayment,
  unappliedCents: number,
): Promise<void> {
  const provider = deps.providers?.byName(payment.provider);
  if (!provider) throw new Error(`No ${payment.provider} provider to refund checkout ${session.id}`);
  const { providerRefundId } = await provider.refund({
    providerPaymentId: payment.providerPaymentId,
    amountCents: unappliedCents,
    reason: 'Pay all due: invoices paid meanwhile',
    idempotencyKey: `pay-all-unapplied-${session.id}`,
  });
  // "Refund of $X by Card" on the payer's history: no invoice had it.
  await recordAudit(tx, {
    actorId: null,
    action: 'payment.refunded',
    entity: 'customer',
    entityId: session.payerId!,
    after: {
      checkoutSessionId: session.id,
      amountCents: unappliedCents,
      method: 'card',
      provider: payment.provider,
      providerPaymentId: payment.providerPaymentId,
      providerRefundId,
      unapplied: true,
    },
  });
  await notify(tx, {
    to: { roles: ['finance'] },
    type: 'payment_received',
    title: `Pay all due: ${formatCents(unappliedCents)} refunded`,
    body: `${formatCents(unappliedCents)} of a ${formatCents(payment.amountCents)} payment went to no invoice (paid meanwhile) and was refunded to the card.`,
    link: `/customers/${session.payerId}`,
    entity: 'customer',
    entityId: session.payerId!,
    dedupeKey: `payment_unapplied_refunded:${session.id}`,
  });
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
  const found = await selectContractWithCustomer(tx, session.contractId!);
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
  if (invoices.length === 0 && session.contractId) {
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
