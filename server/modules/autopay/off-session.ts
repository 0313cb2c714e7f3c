import type { Db } from '../../db/client';
import { chargeSavedCard, chargeSavedCards, refundSavedCardCharge } from './builtin-vault';
import { autopayStripe, chargeWithStripe, refundWithStripe } from './stripe-off-session';

/**
 * Charging a method on file without the customer (product.md section 18), whichever provider keeps it. The
 * idempotency key `invoice-<id>-attempt-<n>` goes to the provider: a repeated request answers the first result.
 */

export type OffSessionResult =
  | { outcome: 'succeeded'; providerPaymentId: string }
  | { outcome: 'declined' | 'requires_action'; providerPaymentId: string; declineCode: string; message: string };

/** A provider's first answer: a bank debit is still processing, and its webhook settles it later. */
export type OffSessionAnswer = OffSessionResult | { outcome: 'processing'; providerPaymentId: string };

export type OffSessionCharge = {
  /** The attempt and its invoice, which the provider's charge carries in its metadata. */
  attemptId: string;
  invoiceId: string;
  provider: string;
  providerMethodId: string;
  providerCustomerId: string | null;
  amountCents: number;
  idempotencyKey: string;
  description: string;
};

export class ProviderUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProviderUnavailableError';
  }
}

export const attemptIdempotencyKey = (invoiceId: string, attemptNumber: number) =>
  `invoice-${invoiceId}-attempt-${attemptNumber}`;

export async function chargeOffSession(db: Db, charge: OffSessionCharge): Promise<OffSessionAnswer> {
  if (charge.provider === 'builtin') return chargeSavedCard(db, charge);
  const stripe = charge.provider === 'stripe' ? autopayStripe() : null;
  if (stripe) return chargeWithStripe(stripe, charge);
  throw new ProviderUnavailableError(`Off-session charges with ${charge.provider} are not available`);
}

/** A charge's answer, or why its provider gave none (the charge run treats that as a soft failure). */
export type ChargeReply = { answer: OffSessionAnswer } | { error: unknown };

/** Requests to another provider than the built-in one in flight at once (each its own HTTP request). */
const PROVIDER_LANES = 4;

/**
 * Many charges at once, by attempt id: the built-in provider's in one statement, the others' a few at a time
 * (Stripe takes one request a charge).
 */
export async function chargeOffSessionAll(
  db: Db,
  charges: readonly OffSessionCharge[],
): Promise<Map<string, ChargeReply>> {
  const replies = new Map<string, ChargeReply>();
  const builtin = charges.filter((charge) => charge.provider === 'builtin');
  if (builtin.length > 0) {
    try {
      const answers = await chargeSavedCards(db, builtin);
      for (const charge of builtin) replies.set(charge.attemptId, { answer: answers.get(charge.idempotencyKey)! });
    } catch (error) {
      for (const charge of builtin) replies.set(charge.attemptId, { error });
    }
  }
  const others = charges.filter((charge) => charge.provider !== 'builtin');
  let next = 0;
  const lane = async () => {
    while (next < others.length) {
      const charge = others[next++]!;
      try {
        replies.set(charge.attemptId, { answer: await chargeOffSession(db, charge) });
      } catch (error) {
        replies.set(charge.attemptId, { error });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PROVIDER_LANES, others.length) }, lane));
  return replies;
}

export async function refundOffSession(
  db: Db,
  payment: { provider: string; providerPaymentId: string; amountCents: number },
): Promise<boolean> {
  if (payment.provider === 'builtin') return refundSavedCardCharge(db, payment.providerPaymentId, payment.amountCents);
  const stripe = payment.provider === 'stripe' ? autopayStripe() : null;
  if (stripe) return refundWithStripe(stripe, payment);
  throw new ProviderUnavailableError(`Refunds with ${payment.provider} are not available`);
}

/**
 * How a failure is retried, by Stripe's decline codes: soft ones (insufficient funds, processing error, issuer
 * unavailable, a generic decline) on the schedule; hard ones (expired, lost or stolen, incorrect number, do not
 * honor / try again) never, and they mark the method; authentication needs the customer.
 */
export type DeclineKind = 'soft' | 'hard' | 'authentication';
const HARD_DECLINES: Record<string, 'expired' | 'failed'> = {
  expired_card: 'expired',
  lost_card: 'failed',
  stolen_card: 'failed',
  incorrect_number: 'failed',
  invalid_account: 'failed',
  do_not_honor: 'failed',
  do_not_try_again: 'failed',
  pickup_card: 'failed',
  card_not_found: 'failed',
};

export function declineKind(result: Exclude<OffSessionResult, { outcome: 'succeeded' }>): DeclineKind {
  if (result.outcome === 'requires_action') return 'authentication';
  return result.declineCode in HARD_DECLINES ? 'hard' : 'soft';
}

/** The status a hard decline gives the method. */
export const methodStatusAfterHardDecline = (declineCode: string): 'expired' | 'failed' =>
  HARD_DECLINES[declineCode] ?? 'failed';
