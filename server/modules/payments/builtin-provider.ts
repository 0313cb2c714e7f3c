import { randomBytes } from 'node:crypto';
import { type CardBrand, type CardPayment, cardBrand, TEST_CARDS } from '@shared/contracts/checkout';
import { checkoutLink } from '../../lib/capability-links';
import { type PaymentProvider, WebhookSignatureError } from './provider';

/**
 * The built-in provider: a hosted checkout inside the app (/checkout/{token}), modelled on Stripe
 * Checkout, that never moves real money. It accepts Stripe's test card numbers only: the good ones
 * succeed, the decline ones fail with Stripe's message, and any other number is declined, so a real
 * card typed into a demo is never "charged".
 */

// The authentication card is paid here: the customer is present at the checkout, which stands in for its
// 3-D Secure step; charged later without the customer, it needs them (autopay/builtin-vault.ts).
const SUCCEEDING = new Set<string>([
  TEST_CARDS.visa,
  TEST_CARDS.mastercard,
  TEST_CARDS.amex,
  TEST_CARDS.authentication,
]);

const DECLINES: Record<string, string> = {
  [TEST_CARDS.declined]: 'Your card was declined.',
  [TEST_CARDS.declinesOffSession]: 'Your card was declined.',
  [TEST_CARDS.insufficientFunds]: 'Your card has insufficient funds.',
  [TEST_CARDS.expired]: 'Your card has expired.',
  [TEST_CARDS.incorrectCvc]: "Your card's security code is incorrect.",
};

export const NON_TEST_CARD_DECLINE = 'Your card was declined. This checkout accepts test cards only.';

/** What the built-in processor answers for a card. Only the brand and last four digits leave it. */
export type ChargeResult =
  | { outcome: 'succeeded'; providerPaymentId: string; cardBrand: CardBrand; cardLast4: string }
  | { outcome: 'declined'; providerPaymentId: string; cardBrand: CardBrand; cardLast4: string; message: string };

/** A provider payment id per attempt, generated here: never taken from the request. */
export const newPaymentIntentId = () => `pi_${randomBytes(12).toString('hex')}`;

export function chargeTestCard(card: Pick<CardPayment, 'cardNumber'>): ChargeResult {
  const digits = card.cardNumber;
  const base = { providerPaymentId: newPaymentIntentId(), cardBrand: cardBrand(digits), cardLast4: digits.slice(-4) };
  if (SUCCEEDING.has(digits)) return { outcome: 'succeeded', ...base };
  return { outcome: 'declined', ...base, message: DECLINES[digits] ?? NON_TEST_CARD_DECLINE };
}

export function createBuiltinProvider(origin: () => string): PaymentProvider {
  return {
    name: 'builtin',
    async createCheckout(request) {
      return {
        checkoutUrl: checkoutLink(origin(), request.token),
        providerSessionId: `cs_${randomBytes(12).toString('hex')}`,
      };
    },
    async openCheckoutUrl() {
      // Built-in checkouts are addressed by our own token (see checkout.service).
      return null;
    },
    async billingPortalUrl() {
      // No hosted customer portal: clients manage payment on the product's own portal page.
      return null;
    },
    async refund() {
      return { providerRefundId: `re_${randomBytes(12).toString('hex')}` };
    },
    async expireCheckout() {
      // The session row is the whole checkout: expiring it there is enough.
    },
    parseWebhook() {
      throw new WebhookSignatureError('The built-in payment provider sends no webhooks');
    },
  };
}
