import type { IncomingHttpHeaders } from 'node:http';
import Stripe from 'stripe';
import { type CheckoutRequest, type PaymentProvider, type ProviderEvent, WebhookSignatureError } from './provider';

export type StripeSettings = {
  secretKey: string;
  webhookSecret: string;
  /** Another API address (a local fake in tests, stripe-mock); Stripe's own by default. */
  apiBase?: string;
};

/** Metadata key that ties a Stripe Checkout Session to our checkout session (its token). */
export const CHECKOUT_TOKEN_KEY = 'checkout_token';

/** The official SDK's client, pointed at STRIPE_API_BASE when one is configured. */
export function createStripeClient(settings: StripeSettings): Stripe {
  const base = settings.apiBase ? new URL(settings.apiBase) : null;
  return new Stripe(settings.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    ...(base
      ? {
          host: base.hostname,
          port: base.port || (base.protocol === 'http:' ? 80 : 443),
          protocol: base.protocol === 'http:' ? 'http' : 'https',
        }
      : {}),
  });
}

/**
 * Stripe Checkout in payment mode: one line for the amount due, our session token in the metadata (of
 * the session and of its payment intent), an idempotency key per checkout session so a retried call
 * never opens two. Payments are confirmed only by signed webhooks. With a save offer the session is the
 * customer's Stripe customer's and shows Stripe's opt-in box to save the card (a card saved so is recorded from
 * the same webhook, decision 057).
 */
export function createStripeProvider(settings: StripeSettings): PaymentProvider {
  const stripe = createStripeClient(settings);
  return {
    name: 'stripe',
    async createCheckout(request) {
      const offer = request.saveOffer;
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'payment',
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: 'usd',
                unit_amount: request.amountCents,
                product_data: { name: request.description },
              },
            },
          ],
          client_reference_id: request.sessionId,
          // With an offer to save the card: the customer's Stripe customer (Stripe allows it or an e-mail, not both),
          // Stripe's own "Save payment details" box (off by default) and, beside the Pay button, what saving agrees to.
          ...(offer
            ? {
                customer: offer.providerCustomerId,
                saved_payment_method_options: { payment_method_save: 'enabled' as const },
                custom_text: { submit: { message: saveOfferText(offer.consentText) } },
              }
            : { customer_email: request.customerEmail ?? undefined }),
          metadata: checkoutMetadata(request),
          payment_intent_data: { description: request.description, metadata: checkoutMetadata(request) },
          success_url: request.successUrl,
          cancel_url: request.cancelUrl,
          expires_at: Math.floor(request.expiresAt.getTime() / 1000),
        },
        { idempotencyKey: `checkout-${request.sessionId}` },
      );
      if (!session.url) throw new Error('Stripe returned a checkout session without a URL');
      return { checkoutUrl: session.url, providerSessionId: session.id };
    },

    async openCheckoutUrl(providerSessionId) {
      const session = await stripe.checkout.sessions.retrieve(providerSessionId);
      return session.status === 'open' && session.url ? session.url : null;
    },

    async billingPortalUrl(request) {
      const session = await stripe.billingPortal.sessions.create({
        customer: request.providerCustomerId,
        return_url: request.returnUrl,
      });
      return session.url;
    },

    async refund(payment) {
      const refund = await stripe.refunds.create(
        {
          payment_intent: payment.providerPaymentId,
          amount: payment.amountCents,
          reason: 'requested_by_customer',
          metadata: payment.reason ? { reason: payment.reason.slice(0, 500) } : undefined,
        },
        { idempotencyKey: payment.idempotencyKey ?? `refund-${payment.providerPaymentId}-${payment.amountCents}` },
      );
      return { providerRefundId: refund.id };
    },

    async expireCheckout(providerSessionId) {
      try {
        await stripe.checkout.sessions.expire(providerSessionId);
      } catch (error) {
        // Already completed or expired on Stripe's side: nothing left to close.
        if (!(error instanceof Stripe.errors.StripeInvalidRequestError)) throw error;
      }
    },

    parseWebhook(rawBody, headers) {
      return toProviderEvent(verifyStripeEvent(rawBody, headers, settings.webhookSecret));
    },
  };
}

/** Stripe shows at most 1,200 characters of custom text beside the Pay button. */
const CUSTOM_TEXT_MAX = 1200;

/** The consent of Stripe's save box, beside the Pay button: what ticking it agrees to. */
const saveOfferText = (consentText: string) => `If you save your card: ${consentText}`.slice(0, CUSTOM_TEXT_MAX);

/** constructEvent on the raw bytes: a wrong signature, or a timestamp older than 5 minutes, is refused. */
function verifyStripeEvent(rawBody: Buffer, headers: IncomingHttpHeaders, secret: string): Stripe.Event {
  const signature = headers['stripe-signature'];
  if (typeof signature !== 'string' || !signature) throw new WebhookSignatureError('Missing Stripe-Signature header');
  try {
    return Stripe.webhooks.constructEvent(rawBody, signature, secret);
  } catch (error) {
    if (error instanceof Stripe.errors.StripeSignatureVerificationError) {
      throw new WebhookSignatureError(
        /timestamp/i.test(error.message) ? 'Webhook timestamp outside the tolerance zone' : 'Invalid webhook signature',
      );
    }
    throw new WebhookSignatureError('Invalid webhook payload');
  }
}

function toProviderEvent(event: Stripe.Event): ProviderEvent {
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      const session = event.data.object;
      // Card payments are paid at completion; delayed methods complete first and succeed later.
      // A setup-mode session (a method saved for autopay) is no payment: handed on as it is.
      if (session.payment_status !== 'paid')
        return { type: 'ignored', eventId: event.id, eventType: event.type, event };
      const paymentIntent = idOf(session.payment_intent);
      if (!paymentIntent) return { type: 'ignored', eventId: event.id, eventType: event.type };
      return {
        type: 'checkout.completed',
        eventId: event.id,
        checkoutToken: session.metadata?.[CHECKOUT_TOKEN_KEY] ?? null,
        providerSessionId: session.id,
        providerPaymentId: paymentIntent,
        amountCents: session.amount_total ?? 0,
        cardBrand: null,
        cardLast4: null,
        event,
      };
    }
    case 'checkout.session.async_payment_failed': {
      const session = event.data.object;
      return {
        type: 'checkout.failed',
        eventId: event.id,
        checkoutToken: session.metadata?.[CHECKOUT_TOKEN_KEY] ?? null,
        providerSessionId: session.id,
        providerPaymentId: idOf(session.payment_intent),
        message: 'The payment failed.',
      };
    }
    case 'checkout.session.expired': {
      const session = event.data.object;
      return {
        type: 'checkout.expired',
        eventId: event.id,
        checkoutToken: session.metadata?.[CHECKOUT_TOKEN_KEY] ?? null,
        providerSessionId: session.id,
      };
    }
    default:
      return { type: 'ignored', eventId: event.id, eventType: event.type, event };
  }
}

function idOf(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === 'string' ? value : value.id;
}

/** Our checkout's token (how its webhook finds it) and the contract it pays (none for a "Pay all due"). */
function checkoutMetadata(request: CheckoutRequest): Record<string, string> {
  return {
    [CHECKOUT_TOKEN_KEY]: request.token,
    ...(request.contractId ? { contract_id: request.contractId } : { pay_all: 'true' }),
  };
}
