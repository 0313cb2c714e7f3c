import { createHash, randomBytes } from 'node:crypto';
import { type CardBrand, type CardPayment, cardBrand, parseExpiry, TEST_CARDS } from '@shared/contracts/checkout';
import type { Db } from '../../db/client';
import { insertChargesOnce, insertSavedCard, refundCharge } from './builtin-vault.repo';
import type { OffSessionResult } from './off-session';

/**
 * The built-in provider's side of saved cards (product.md section 18): it accepts Stripe's test numbers only and
 * remembers of each saved card how its later off-session charges behave, never the number. Its charges are
 * idempotent by key, as Stripe's are: the same key answers the first result and never charges twice.
 */

export type SavedCardBehaviour = 'succeeds' | 'declines' | 'insufficient_funds' | 'expired' | 'authentication';

const SAVES_AS: Record<string, SavedCardBehaviour> = {
  [TEST_CARDS.visa]: 'succeeds',
  [TEST_CARDS.mastercard]: 'succeeds',
  [TEST_CARDS.amex]: 'succeeds',
  [TEST_CARDS.declinesOffSession]: 'declines',
  [TEST_CARDS.insufficientFunds]: 'insufficient_funds',
  [TEST_CARDS.expired]: 'expired',
  [TEST_CARDS.authentication]: 'authentication',
};

/** Any other number: the built-in provider never keeps a real card. */
export const NON_TEST_CARD_REFUSAL = 'Your card was declined. This page accepts test cards only.';

/** Cards refused when they are saved, with the words Stripe's test mode answers. */
const REFUSED_AT_SETUP: Record<string, string> = {
  [TEST_CARDS.declined]: 'Your card was declined.',
  [TEST_CARDS.incorrectCvc]: "Your card's security code is incorrect.",
};

/** What an off-session charge of a saved card answers, by its behaviour (Stripe's decline codes). */
const CHARGE_OUTCOMES: Record<
  SavedCardBehaviour,
  { outcome: OffSessionResult['outcome']; declineCode: string | null }
> = {
  succeeds: { outcome: 'succeeded', declineCode: null },
  declines: { outcome: 'declined', declineCode: 'generic_decline' },
  insufficient_funds: { outcome: 'declined', declineCode: 'insufficient_funds' },
  expired: { outcome: 'declined', declineCode: 'expired_card' },
  authentication: { outcome: 'requires_action', declineCode: 'authentication_required' },
};

/** The words of each decline code, as Stripe's test mode says them. */
const DECLINE_MESSAGES: Record<string, string> = {
  generic_decline: 'Your card was declined.',
  insufficient_funds: 'Your card has insufficient funds.',
  expired_card: 'Your card has expired.',
  authentication_required: 'Your bank asks you to confirm this payment.',
  card_not_found: 'This card is no longer on file.',
};

export type SavedCard = {
  providerMethodId: string;
  brand: CardBrand;
  last4: string;
  expMonth: number;
  expYear: number;
  fingerprint: string;
};

/** Saves a test card: its brand, last 4, expiry and a fingerprint come back; a refused one answers its message. */
export async function saveTestCard(
  db: Db,
  card: Pick<CardPayment, 'cardNumber' | 'expiry'>,
): Promise<{ saved: SavedCard } | { refused: string }> {
  const digits = card.cardNumber;
  const refused = REFUSED_AT_SETUP[digits];
  if (refused) return { refused };
  const behaviour = SAVES_AS[digits];
  if (!behaviour) return { refused: NON_TEST_CARD_REFUSAL };
  const expiry = parseExpiry(card.expiry);
  if (!expiry) return { refused: "Your card's expiration date is incomplete." };
  const providerMethodId = `pm_${randomBytes(12).toString('hex')}`;
  await insertSavedCard(db, providerMethodId, behaviour);
  return {
    saved: {
      providerMethodId,
      brand: cardBrand(digits),
      last4: digits.slice(-4),
      expMonth: expiry.month,
      expYear: expiry.year,
      // The same card saved twice has one fingerprint (a keyed digest: the number itself is not kept).
      fingerprint: createHash('sha256').update(`builtin-card:${digits}`).digest('base64url').slice(0, 16),
    },
  };
}

/** An off-session charge by idempotency key: the first request with a key decides, later ones read it. */
export async function chargeSavedCard(
  db: Db,
  request: { providerMethodId: string; amountCents: number; idempotencyKey: string },
): Promise<OffSessionResult> {
  const answers = await chargeSavedCards(db, [request]);
  return answers.get(request.idempotencyKey)!;
}

/**
 * Many off-session charges (distinct keys) in ONE statement, each decided by its saved card's behaviour as
 * chargeSavedCard decides it: answers each key's result.
 */
export async function chargeSavedCards(
  db: Db,
  requests: readonly { providerMethodId: string; amountCents: number; idempotencyKey: string }[],
): Promise<Map<string, OffSessionResult>> {
  const rows = await insertChargesOnce(
    db,
    requests.map((request) => ({ ...request, providerPaymentId: `pi_${randomBytes(12).toString('hex')}` })),
    { outcomes: CHARGE_OUTCOMES, unknownCard: { outcome: 'declined', declineCode: 'card_not_found' } },
  );
  const answers = new Map<string, OffSessionResult>();
  for (const row of rows) {
    const outcome = row.outcome as OffSessionResult['outcome'];
    if (outcome === 'succeeded') {
      answers.set(row.idempotency_key, { outcome, providerPaymentId: row.provider_payment_id });
      continue;
    }
    const declineCode = row.decline_code ?? 'generic_decline';
    answers.set(row.idempotency_key, {
      outcome,
      providerPaymentId: row.provider_payment_id,
      declineCode,
      message: DECLINE_MESSAGES[declineCode] ?? 'Your card was declined.',
    });
  }
  if (requests.some(({ idempotencyKey }) => !answers.has(idempotencyKey))) {
    throw new Error('The built-in provider lost a charge it was asked for');
  }
  return answers;
}

/** Gives back part or all of an off-session charge (never more than it took). */
export const refundSavedCardCharge = (db: Db, providerPaymentId: string, amountCents: number) =>
  refundCharge(db, providerPaymentId, amountCents);
