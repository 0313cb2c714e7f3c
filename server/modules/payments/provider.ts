import type { IncomingHttpHeaders } from 'node:http';

/**
 * One interface for taking card payments, two implementations: the built-in hosted checkout (the
 * default, for demo and tests) and Stripe (when STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are set).
 * The rest of the product speaks only to this interface.
 */

export type ProviderName = 'builtin' | 'stripe';

/** What a checkout charges and where it returns to; built from one checkout_sessions row. */
export type CheckoutRequest = {
  /** Our checkout session's id and its unguessable token (the token goes into the provider's metadata). */
  sessionId: string;
  token: string;
  /** The contract paid for; null for a "Pay all due" (several contracts' invoices, one payer). */
  contractId: string | null;
  amountCents: number;
  /** "Invoice INV-2026-000123", "First payment: ..." */
  description: string;
  customerEmail: string | null;
  successUrl: string;
  cancelUrl: string;
  expiresAt: Date;
  /**
   * An offer to keep the paying card on file for autopay (product.md section 18), from the module above payments
   * that keeps methods (registerCheckoutSaveOffer): the provider's customer the card would be saved to, and the
   * consent text the customer agrees to by ticking the provider's own save box (off by default). Without it the
   * checkout only takes the payment.
   */
  saveOffer?: CheckoutSaveOffer;
};

export type CheckoutSaveOffer = { providerCustomerId: string; consentText: string };

export type ProviderCheckout = { checkoutUrl: string; providerSessionId: string };

/** A succeeded payment as recorded in `payments`, to be refunded. */
export type RefundRequest = {
  providerPaymentId: string;
  amountCents: number;
  reason?: string;
  /** Makes the refund once however often it is asked (default: one per payment and amount). */
  idempotencyKey?: string;
};

/** A webhook delivery, verified and reduced to what the product acts on. */
export type ProviderEvent =
  | {
      type: 'checkout.completed';
      eventId: string;
      checkoutToken: string | null;
      providerSessionId: string;
      providerPaymentId: string;
      amountCents: number;
      cardBrand: string | null;
      cardLast4: string | null;
      /** The verified event itself, handed on after the payment is settled (autopay saves a card ticked to save). */
      event?: unknown;
    }
  | {
      type: 'checkout.failed';
      eventId: string;
      checkoutToken: string | null;
      providerSessionId: string;
      providerPaymentId: string | null;
      message: string;
    }
  | { type: 'checkout.expired'; eventId: string; checkoutToken: string | null; providerSessionId: string }
  | {
      type: 'ignored';
      eventId: string;
      eventType: string;
      /** The verified event itself, for a module above payments that acts on it (autopay's Stripe events). */
      event?: unknown;
    };

export type PaymentProvider = {
  readonly name: ProviderName;
  /** Opens a hosted checkout for the amount; the customer is sent to checkoutUrl. */
  createCheckout(request: CheckoutRequest): Promise<ProviderCheckout>;
  /** Gives money back for a succeeded payment (whole or part). */
  refund(payment: RefundRequest): Promise<{ providerRefundId: string }>;
  /** The address of a provider checkout that is still open (null when it is not), to send the customer back to it. */
  openCheckoutUrl(providerSessionId: string): Promise<string | null>;
  /**
   * A session of the provider's hosted customer portal (payment methods, billing details, receipts) for one of
   * its customers, returning to returnUrl; null when the provider has none (the product's own portal page is
   * where the client manages payment then).
   */
  billingPortalUrl(request: { providerCustomerId: string; returnUrl: string }): Promise<string | null>;
  /** Closes a provider checkout that is no longer wanted (another one paid the same invoices). */
  expireCheckout(providerSessionId: string): Promise<void>;
  /**
   * Verifies a webhook delivery on its raw bytes and returns what it says; throws WebhookSignatureError
   * for a bad signature or a stale timestamp.
   */
  parseWebhook(rawBody: Buffer, headers: IncomingHttpHeaders): ProviderEvent;
};

export class WebhookSignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookSignatureError';
  }
}
