import Stripe from 'stripe';
import type { OffSessionAnswer, OffSessionCharge } from './off-session';

/**
 * Autopay's side of Stripe (product.md section 18): off-session PaymentIntents by the attempt's idempotency key,
 * and refunds of an excess. The SDK's client is the app's, registered by the autopay routes when Stripe is
 * configured (STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET); without it, methods are saved on the built-in vault.
 */

let client: Stripe | null = null;

/** Registers the Stripe client autopay uses (null: Stripe is not configured). */
export function setAutopayStripe(stripe: Stripe | null): void {
  client = stripe;
}

/** The Stripe client autopay saves and charges with, or null when Stripe is not configured. */
export const autopayStripe = (): Stripe | null => client;

/** Metadata keys that tie Stripe's objects to ours. */
export const STRIPE_KEYS = {
  attempt: 'autopay_attempt_id',
  invoice: 'invoice_id',
  customer: 'autopay_customer_id',
  setupLink: 'autopay_setup_link_id',
} as const;

/**
 * One off-session PaymentIntent, confirmed at once, with the attempt's idempotency key (a repeated request
 * answers the first result). Succeeded; declined with Stripe's decline code (or error code) and message; the
 * customer's authentication needed; or processing (a bank debit), settled later by its webhook.
 */
export async function chargeWithStripe(stripe: Stripe, charge: OffSessionCharge): Promise<OffSessionAnswer> {
  if (!charge.providerCustomerId) throw new Error('A Stripe method on file has no Stripe customer');
  let intent: Stripe.PaymentIntent;
  try {
    intent = await stripe.paymentIntents.create(
      {
        amount: charge.amountCents,
        currency: 'usd',
        customer: charge.providerCustomerId,
        payment_method: charge.providerMethodId,
        off_session: true,
        confirm: true,
        description: charge.description,
        metadata: { [STRIPE_KEYS.attempt]: charge.attemptId, [STRIPE_KEYS.invoice]: charge.invoiceId },
      },
      { idempotencyKey: charge.idempotencyKey },
    );
  } catch (error) {
    if (error instanceof Stripe.errors.StripeCardError) {
      const code = error.decline_code || error.code || 'card_declined';
      const providerPaymentId = error.payment_intent?.id ?? `declined-${charge.idempotencyKey}`;
      const message = error.message || 'Your card was declined.';
      if (code === 'authentication_required') {
        return { outcome: 'requires_action', providerPaymentId, declineCode: code, message };
      }
      return { outcome: 'declined', providerPaymentId, declineCode: code, message };
    }
    throw error;
  }
  return intentAnswer(intent);
}

/** What a PaymentIntent says of its charge (its create answer, or a webhook's object). */
export function intentAnswer(intent: Stripe.PaymentIntent): OffSessionAnswer {
  switch (intent.status) {
    case 'succeeded':
      return { outcome: 'succeeded', providerPaymentId: intent.id };
    case 'processing':
      return { outcome: 'processing', providerPaymentId: intent.id };
    case 'requires_action':
    case 'requires_confirmation':
      return {
        outcome: 'requires_action',
        providerPaymentId: intent.id,
        declineCode: 'authentication_required',
        message: 'Your bank asks you to confirm this payment.',
      };
    default: {
      const failure = intent.last_payment_error;
      return {
        outcome: 'declined',
        providerPaymentId: intent.id,
        declineCode: failure?.decline_code || failure?.code || 'generic_decline',
        message: failure?.message ?? 'The payment was declined.',
      };
    }
  }
}

/** Gives back part or all of a PaymentIntent's charge (once per amount: the key decides). */
export async function refundWithStripe(
  stripe: Stripe,
  payment: { providerPaymentId: string; amountCents: number },
): Promise<boolean> {
  await stripe.refunds.create(
    { payment_intent: payment.providerPaymentId, amount: payment.amountCents },
    { idempotencyKey: `refund-${payment.providerPaymentId}-${payment.amountCents}` },
  );
  return true;
}
