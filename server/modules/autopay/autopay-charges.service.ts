import { dayFromNumber, dayNumber } from '@shared/calendar-date';
import { AUTOPAY_MESSAGES, methodLabel } from '@shared/contracts/autopay';
import { portalContractPath } from '@shared/contracts/checkout';
import { amountDueCents } from '@shared/invoice-amounts';
import type { Db } from '../../db/client';
import { recordAudit, recordAudits } from '../../lib/audit';
import { businessToday } from '../../lib/business-day';
import { payLink } from '../../lib/capability-links';
import { readCompanyProfile } from '../../lib/company-profile';
import { loggableError } from '../../lib/db-errors';
import { conflict } from '../../lib/errors';
import { enqueueEmail, type Mailer } from '../../lib/mailer';
import { lockContractForMoney, lockContractsOfInvoices } from '../contract-status/contract-status.service';
import { dunningAfterPayment } from '../dunning/dunning.service';
import { invoiceFacts } from '../invoices/invoices.service';
import { applyPayments, recordFailedPayment } from '../payments/payments.service';
import { getSettings } from '../settings/settings.service';
import { emitWebhookEvent } from '../webhooks/webhook-events';
import { chargeFailedEmail, chargeNeedsConfirmationEmail } from './autopay.emails';
import {
  type AttemptRow,
  claimAttempts,
  type DueCharge,
  finishAttempt,
  finishAttempts,
  markMethod,
  selectAttempts,
  selectAutopayCustomer,
  selectDueCharges,
  selectInvoiceAmountsOf,
  selectPausedForNonPaymentOf,
} from './autopay.repo';
import {
  attemptIdempotencyKey,
  chargeOffSessionAll,
  declineKind,
  methodStatusAfterHardDecline,
  type OffSessionResult,
  refundOffSession,
} from './off-session';
import { lockAttempts, markAttemptProcessing, selectPendingAttemptCharge } from './provider-events.repo';
import { createSetupLink } from './setup-links';

/**
 * The charge run of autopay (product.md section 18, decision 057). Each open invoice of an autopay customer is
 * charged off-session on its charge day for what is due on it after credit; it goes with every billing run.
 *
 * Each attempt is claimed by ONE INSERT unique per (invoice, attempt number) before the provider is called with
 * the key `invoice-<id>-attempt-<n>`, so that on any number of instances an invoice is charged at most once per
 * attempt. The result is settled under the contract's money lock: what the invoice still owes then is applied
 * and anything beyond it (a manual payment or Pay Now raced the charge) is refunded at once.
 *
 * The run works a batch at a time, set-based: a batch's claims are one INSERT, the built-in provider's charges
 * one statement, and its successes one transaction of a fixed number of statements (payments/applyPayments);
 * each decline is settled alone, with its e-mails.
 *
 * Soft declines are retried 1, 3, 5 and 7 days after the first attempt (5 attempts at most); hard declines mark
 * the method and stop; a charge that needs the customer (3-D Secure) e-mails a link to pay it in person.
 */

export type AutopayDeps = { db: Db; mailer: Mailer; baseUrl: string };

/** Days after an invoice's first attempt of its retries: attempts 2 to 5. */
export const RETRY_AFTER_DAYS = [1, 3, 5, 7] as const;
export const MAX_SCHEDULED_ATTEMPTS = RETRY_AFTER_DAYS.length + 1;

/** Invoices a round of the run selects, claims, charges and settles together. */
const BATCH = 200;
/** Declines settled at once (each its own transaction): well below the connection pool's 10. */
const LANES = 4;

/** The day of the attempt after a soft decline of attempt `attempt` (never before tomorrow), or null: none left. */
export function nextAttemptOn(seriesStartedOn: string, attempt: number, today: string): string | null {
  const after = RETRY_AFTER_DAYS[attempt - 1];
  if (after === undefined) return null;
  return dayFromNumber(Math.max(dayNumber(seriesStartedOn) + after, dayNumber(today) + 1));
}

/** `pending`: the provider is still processing it (a bank debit); its webhook settles the attempt. */
export type ChargeOutcome = 'succeeded' | 'failed' | 'requires_action' | 'skipped' | 'taken' | 'pending';
export type ChargeRunResult = { attempted: number; succeeded: number; failed: number };

/**
 * Charges what is due now, for every autopay customer or one (a method just saved). Safe on any number of
 * instances at once: each invoice's attempt is claimed once. `at` (the demo's back-dated history) is the time its
 * attempts and payments are recorded at; without it, now.
 */
export async function runAutopayCharges(
  deps: AutopayDeps,
  options: { today?: string; customerId?: string; contractId?: string; at?: Date } = {},
): Promise<ChargeRunResult> {
  const today = options.today ?? businessToday();
  const { autopayChargeOn } = await getSettings(deps.db, 'contracts');
  const result: ChargeRunResult = { attempted: 0, succeeded: 0, failed: 0 };
  // Each round's invoices leave the selection (paid, failed with a later retry day, or claimed elsewhere), so the
  // rounds end; the bound is a guard against a provider that answers nothing decisive.
  for (let round = 0; round < 1000; round++) {
    const due = await selectDueCharges(deps.db, {
      today,
      chargeOn: autopayChargeOn,
      customerId: options.customerId,
      contractId: options.contractId,
      limit: BATCH,
    });
    if (due.length === 0) break;
    for (const outcome of await chargeBatch(deps, due, { today, requestedBy: null, at: options.at })) {
      if (outcome === 'taken') continue;
      result.attempted++;
      if (outcome === 'succeeded') result.succeeded++;
      else if (outcome !== 'skipped' && outcome !== 'pending') result.failed++;
    }
    if (due.length < BATCH) break;
  }
  if (result.attempted > 0) deps.mailer.kick(deps.db);
  return result;
}

/**
 * The charge run of one contract right after its invoices were issued (an activation, a resume, a catch-up): a
 * failure here never undoes the billing; the next hourly run charges what is due.
 */
export async function chargeContractNow(deps: AutopayDeps, contractId: string, today?: string): Promise<void> {
  try {
    await runAutopayCharges(deps, { contractId, today });
  } catch (error) {
    process.emitWarning(
      `Autopay of contract ${contractId} failed; the next run charges it: ${loggableError(error).message}`,
    );
  }
}

/**
 * Finance's "Charge now": the same attempt rules, whatever the day. 409 when nothing is due, when the customer
 * has no method to charge, or when an attempt of the invoice is already running.
 */
export async function chargeInvoiceNow(
  deps: AutopayDeps,
  invoice: { id: string; customerId: string; amountDueCents: number },
  actorId: string,
): Promise<ChargeOutcome> {
  if (invoice.amountDueCents <= 0) throw conflict(AUTOPAY_MESSAGES.nothingDue);
  const today = businessToday();
  const [due] = await selectDueCharges(deps.db, {
    today,
    chargeOn: 'due_date',
    invoiceId: invoice.id,
    customerId: invoice.customerId,
    now: true,
    limit: 1,
  });
  if (!due) throw conflict(await whyNotDue(deps.db, invoice.id));
  const [outcome] = await chargeBatch(deps, [due], { today, requestedBy: actorId });
  if (outcome === 'taken') throw conflict(AUTOPAY_MESSAGES.attemptInProgress);
  deps.mailer.kick(deps.db);
  return outcome!;
}

/**
 * Why an invoice with something due when the request came is not chargeable now: an attempt is running, or one
 * just succeeded (another "Charge now" got there first: nothing is due any more), or the customer has no method.
 */
async function whyNotDue(db: Db, invoiceId: string): Promise<string> {
  const attempts = await selectAttempts(db, invoiceId);
  if (attempts.some(({ attempt }) => attempt.status === 'pending')) return AUTOPAY_MESSAGES.attemptInProgress;
  if (attempts.some(({ attempt }) => attempt.status === 'succeeded')) return AUTOPAY_MESSAGES.nothingDue;
  return AUTOPAY_MESSAGES.notAutopay;
}

type ChargeContext = { today: string; requestedBy: string | null; at?: Date };
type Claimed = { attempt: AttemptRow; due: DueCharge };
type Answered = Claimed & { answer: OffSessionResult };
type Settled = { outcome: ChargeOutcome; refundCents: number; pausedForNonPayment?: boolean };

/**
 * Claims the next attempt of each invoice (one statement), charges those claimed (the built-in provider's in one
 * statement), and settles the answers: the successes together in one transaction, each failure in its own.
 * Answers one outcome per invoice given (`taken`: another run claimed it first).
 */
async function chargeBatch(deps: AutopayDeps, dues: readonly DueCharge[], context: ChargeContext) {
  const attempts = await claimAttempts(deps.db, dues, context.requestedBy, context.at);
  const dueOf = new Map(dues.map((due) => [due.invoiceId, due]));
  const claimed: Claimed[] = attempts.map((attempt) => ({ attempt, due: dueOf.get(attempt.invoiceId)! }));
  const outcomes: ChargeOutcome[] = dues.slice(claimed.length).map(() => 'taken');

  const replies = await chargeOffSessionAll(
    deps.db,
    claimed.map(({ attempt, due }) => ({
      attemptId: attempt.id,
      invoiceId: due.invoiceId,
      provider: due.method.provider,
      providerMethodId: due.method.providerMethodId,
      providerCustomerId: due.method.providerCustomerId,
      amountCents: attempt.amountCents,
      idempotencyKey: attemptIdempotencyKey(due.invoiceId, attempt.attemptNumber),
      description: `Invoice ${due.number}`,
    })),
  );
  const succeeded: Answered[] = [];
  const declined: Answered[] = [];
  for (const item of claimed) {
    const reply = replies.get(item.attempt.id)!;
    if ('error' in reply) {
      // The provider did not answer: a soft failure of this attempt, retried on the schedule (the same key makes
      // a charge the provider did take meanwhile answer as taken on the next attempt's check of the invoice).
      process.emitWarning(`An autopay charge got no answer from its provider: ${loggableError(reply.error).message}`);
      declined.push({ ...item, answer: unanswered(item.attempt.id) });
    } else if (reply.answer.outcome === 'processing') {
      await markAttemptProcessing(deps.db, item.attempt.id, reply.answer.providerPaymentId);
      outcomes.push('pending');
    } else if (reply.answer.outcome === 'succeeded') {
      succeeded.push({ ...item, answer: reply.answer });
    } else {
      declined.push({ ...item, answer: reply.answer });
    }
  }

  for (const settled of await settleSucceededBatch(deps, succeeded, context)) outcomes.push(settled.outcome);
  let next = 0;
  const lane = async () => {
    while (next < declined.length) {
      const item = declined[next++]!;
      outcomes.push((await settleDeclined(deps, item, context)).outcome);
    }
  };
  await Promise.all(Array.from({ length: Math.min(LANES, declined.length) }, lane));
  return outcomes;
}

/** The outcome of an attempt another writer settled first (its webhook), by the status it recorded. */
function settledAs(status: string | undefined): ChargeOutcome {
  return status === 'succeeded' || status === 'skipped' || status === 'requires_action' ? status : 'failed';
}

const unanswered = (attemptId: string): OffSessionResult => ({
  outcome: 'declined',
  providerPaymentId: `unanswered-${attemptId}`,
  declineCode: 'processing_error',
  message: 'The payment could not be processed. We will try again.',
});

/**
 * Settles succeeded charges together, then refunds what a raced payment made too much and lets dunning resume
 * contracts paused for non-payment. When the batch's transaction fails, each charge is settled again alone, so
 * that one charge's trouble never keeps the others from being recorded.
 */
async function settleSucceededBatch(
  deps: AutopayDeps,
  items: readonly Answered[],
  context: { at?: Date },
): Promise<Settled[]> {
  if (items.length === 0) return [];
  let settled: Settled[];
  try {
    settled = await settleSucceeded(deps, items, context);
  } catch (error) {
    if (items.length === 1) throw error;
    process.emitWarning(`A batch of autopay charges is settled one by one: ${loggableError(error).message}`);
    settled = [];
    for (const item of items) settled.push(...(await settleSucceeded(deps, [item], context)));
  }
  await followUp(deps, items, settled);
  return settled;
}

/** After the settling transaction: refunds of what was taken beyond the amount due, and dunning's resumes. */
async function followUp(deps: AutopayDeps, items: readonly Answered[], settled: readonly Settled[]): Promise<void> {
  const resumable = new Set<string>();
  for (const [index, item] of items.entries()) {
    const result = settled[index]!;
    if (result.refundCents > 0 && item.answer.outcome === 'succeeded') {
      await refundExcess(deps, item.due, item.answer.providerPaymentId, result.refundCents);
    }
    if (result.outcome === 'succeeded' && result.pausedForNonPayment) resumable.add(item.due.contractId);
  }
  // A payment resumes a contract paused for non-payment once nothing is overdue (dunning); others have nothing to do.
  for (const contractId of resumable) await dunningAfterPayment(deps, { contractId });
}

/**
 * Records succeeded charges under their contracts' money locks (one transaction, a fixed number of statements):
 * what each invoice still owes then is applied, and anything beyond it (a manual payment or Pay Now raced the
 * charge) is to be refunded. Answers in the order given.
 */
async function settleSucceeded(
  deps: AutopayDeps,
  items: readonly Answered[],
  { at }: { at?: Date },
): Promise<Settled[]> {
  return deps.db.transaction(async (tx) => {
    const invoiceIds = items.map(({ due }) => due.invoiceId);
    await lockContractsOfInvoices(tx, invoiceIds);
    // Settled once: the charge's own answer, or its provider's webhook (a replay finds it settled).
    const statuses = await lockAttempts(
      tx,
      items.map(({ attempt }) => attempt.id),
    );
    const amounts = await selectInvoiceAmountsOf(tx, invoiceIds);
    const plans = items.map((item) => {
      if (statuses.get(item.attempt.id) !== 'pending') return null;
      const invoice = amounts.get(item.due.invoiceId);
      const applied = Math.min(invoice ? amountDueCents(invoice) : 0, item.attempt.amountCents);
      return { ...item, applied, refundCents: item.attempt.amountCents - applied };
    });
    const live = plans.filter((plan) => plan !== null);
    const paying = live.filter((plan) => plan.applied > 0);
    const payments = await applyPayments(
      tx,
      paying.map(({ due, answer, applied }) => ({
        invoiceId: due.invoiceId,
        amountCents: applied,
        method: due.method.kind === 'us_bank_account' ? ('bank_debit' as const) : ('card_on_file' as const),
        provider: due.method.provider as 'builtin' | 'stripe',
        providerPaymentId: answer.providerPaymentId,
        cardBrand: due.method.brand,
        cardLast4: due.method.last4,
        baseUrl: deps.baseUrl,
        paidAt: at,
      })),
    );
    const paymentOf = new Map(paying.map((plan, index) => [plan.attempt.id, payments[index]!.payment.id]));
    await finishAttempts(
      tx,
      live.map(({ attempt, answer, applied, refundCents }) => ({
        id: attempt.id,
        status: applied > 0 ? 'succeeded' : 'skipped',
        providerPaymentId: answer.providerPaymentId,
        paymentId: paymentOf.get(attempt.id) ?? null,
        reason: refundCents > 0 ? 'Paid meanwhile by another payment: the difference is refunded.' : null,
      })),
      at,
    );
    await recordAudits(
      tx,
      live.map(({ attempt, due, applied, refundCents }) => ({
        actorId: attempt.requestedBy,
        action: applied > 0 ? 'autopay.charged' : 'autopay.refunded',
        entity: 'invoice',
        entityId: due.invoiceId,
        after: {
          invoiceNumber: due.number,
          attempt: attempt.attemptNumber,
          amountCents: attempt.amountCents,
          appliedCents: applied,
          refundCents,
          method: methodLabel(due.method),
        },
      })),
    );
    const paused = await selectPausedForNonPaymentOf(
      tx,
      paying.map(({ due }) => due.contractId),
    );
    return plans.map((plan, index): Settled => {
      // Settled meanwhile by its provider's webhook: what that recorded is this charge's outcome.
      if (!plan) return { outcome: settledAs(statuses.get(items[index]!.attempt.id)), refundCents: 0 };
      const paid = plan.applied > 0;
      return {
        outcome: paid ? 'succeeded' : 'skipped',
        refundCents: plan.refundCents,
        pausedForNonPayment: paid && paused.has(plan.due.contractId),
      };
    });
  });
}

/** Records a declined charge (or one that needs the customer) under the contract's money lock, with its e-mails. */
async function settleDeclined(
  deps: AutopayDeps,
  { attempt, due, answer }: Answered,
  { today, at }: { today: string; at?: Date },
): Promise<Settled> {
  if (answer.outcome === 'succeeded') throw new Error('settleDeclined takes a declined charge');
  const label = methodLabel(due.method);
  return deps.db.transaction(async (tx) => {
    await lockContractForMoney(tx, due.contractId);
    const status = (await lockAttempts(tx, [attempt.id])).get(attempt.id);
    if (status !== 'pending') return { outcome: settledAs(status), refundCents: 0 };
    const kind = declineKind(answer);
    const retryOn = kind === 'soft' ? nextAttemptOn(attempt.seriesStartedOn, attempt.attemptNumber, today) : null;
    await finishAttempt(
      tx,
      attempt.id,
      {
        status: kind === 'authentication' ? 'requires_action' : 'failed',
        declineKind: kind,
        declineCode: answer.declineCode,
        reason: answer.message,
        providerPaymentId: answer.providerPaymentId,
        retryOn,
      },
      at,
    );
    if (kind === 'hard' && (await markMethod(tx, due.method.id, methodStatusAfterHardDecline(answer.declineCode)))) {
      await emitWebhookEvent(tx, 'payment_method.failed', { ids: [due.method.id] });
    }
    await recordFailedPayment(tx, {
      invoiceId: due.invoiceId,
      amountCents: attempt.amountCents,
      method: due.method.kind === 'us_bank_account' ? 'bank_debit' : 'card_on_file',
      provider: due.method.provider as 'builtin' | 'stripe',
      providerPaymentId: answer.providerPaymentId,
      cardBrand: due.method.brand,
      cardLast4: due.method.last4,
      failureMessage: answer.message,
      baseUrl: deps.baseUrl,
      paidAt: at,
      // The rep and finance hear of the last failure, when no automatic attempt is left.
      notifyStaff: retryOn === null,
    });
    const facts = await invoiceFacts(tx, due.invoiceId);
    const payer = (await selectAutopayCustomer(tx, due.customerId))!;
    const company = await readCompanyProfile(tx);
    // The payer whose method was charged (the invoice's bill-to: an agency for its advertiser), at its billing contact.
    const to = { name: payer.name, email: payer.billingEmail, contactPerson: payer.billingContactName };
    const charge = {
      invoiceId: due.invoiceId,
      invoiceNumber: due.number,
      amountCents: attempt.amountCents,
      method: label,
      reason: answer.message,
    };
    if (kind === 'authentication') {
      const confirmUrl =
        facts.contract.paymentMode === 'pay_link' && facts.contract.payLinkToken
          ? payLink(deps.baseUrl, facts.contract.payLinkToken)
          : `${deps.baseUrl}${portalContractPath(facts.contract.id)}`;
      await enqueueEmail(tx, chargeNeedsConfirmationEmail({ to, company, charge, confirmUrl }));
    } else {
      const link = await createSetupLink(tx, {
        baseUrl: deps.baseUrl,
        customerId: due.customerId,
        purpose: 'email',
        createdBy: null,
      });
      await enqueueEmail(
        tx,
        chargeFailedEmail({ to, company, charge: { ...charge, nextAttemptOn: retryOn }, updateUrl: link.url }),
      );
    }
    await recordAudit(tx, {
      actorId: attempt.requestedBy,
      action: 'autopay.failed',
      entity: 'invoice',
      entityId: due.invoiceId,
      after: {
        invoiceNumber: due.number,
        attempt: attempt.attemptNumber,
        amountCents: attempt.amountCents,
        method: label,
        declineKind: kind,
        declineCode: answer.declineCode,
        reason: answer.message,
        nextAttemptOn: retryOn,
      },
    });
    return { outcome: kind === 'authentication' ? 'requires_action' : 'failed', refundCents: 0 };
  });
}

/** Money taken beyond what the invoice still owed (another payment raced the charge) goes back at once. */
async function refundExcess(deps: AutopayDeps, due: DueCharge, providerPaymentId: string, amountCents: number) {
  let refunded = false;
  try {
    refunded = await refundOffSession(deps.db, { provider: due.method.provider, providerPaymentId, amountCents });
  } catch (error) {
    process.emitWarning(`An autopay refund failed: ${loggableError(error).message}`);
  }
  await recordAudit(deps.db, {
    actorId: null,
    action: refunded ? 'autopay.excess_refunded' : 'autopay.refund_failed',
    entity: 'invoice',
    entityId: due.invoiceId,
    after: { invoiceNumber: due.number, provider: due.method.provider, providerPaymentId, unappliedCents: amountCents },
  });
}

/**
 * A provider's later answer to a pending attempt (Stripe's `payment_intent.succeeded` or `payment_failed` for a
 * bank debit that was processing), settled as the charge's own answer would be: once, whoever comes first.
 */
export async function settleAttemptLater(
  deps: AutopayDeps,
  attemptId: string,
  answer: OffSessionResult,
): Promise<ChargeOutcome> {
  const pending = await selectPendingAttemptCharge(deps.db, attemptId);
  if (!pending) return 'taken';
  const item: Answered = { ...pending, answer };
  const [settled] =
    answer.outcome === 'succeeded'
      ? await settleSucceededBatch(deps, [item], {})
      : [await settleDeclined(deps, item, { today: businessToday() })];
  deps.mailer.kick(deps.db);
  return settled!.outcome;
}
