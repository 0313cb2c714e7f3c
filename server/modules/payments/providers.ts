import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config';
import { publicOrigin } from '../../lib/public-url';
import { createBuiltinProvider } from './builtin-provider';
import type { PaymentProvider, ProviderName } from './provider';
import { createStripeProvider } from './stripe-provider';

export type PaymentProviders = {
  /** The provider new checkouts open with: Stripe when configured, otherwise the built-in one. */
  active: PaymentProvider;
  /** The provider that took a given payment (a refund goes back through it). */
  byName(name: string): PaymentProvider | null;
  stripe: PaymentProvider | null;
};

export function stripeConfigured(config: Pick<Config, 'STRIPE_SECRET_KEY' | 'STRIPE_WEBHOOK_SECRET'>): boolean {
  return Boolean(config.STRIPE_SECRET_KEY && config.STRIPE_WEBHOOK_SECRET);
}

/** The providers of this configuration; `origin` gives the public origin the built-in checkout lives at. */
export function createPaymentProviders(
  config: Pick<Config, 'STRIPE_SECRET_KEY' | 'STRIPE_WEBHOOK_SECRET' | 'STRIPE_API_BASE'>,
  origin: () => string,
): PaymentProviders {
  const builtin = createBuiltinProvider(origin);
  const stripe = stripeConfigured(config)
    ? createStripeProvider({
        secretKey: config.STRIPE_SECRET_KEY!,
        webhookSecret: config.STRIPE_WEBHOOK_SECRET!,
        apiBase: config.STRIPE_API_BASE,
      })
    : null;
  const byName: Record<ProviderName, PaymentProvider | null> = { builtin, stripe };
  return {
    active: stripe ?? builtin,
    stripe,
    byName: (name) => (name === 'builtin' || name === 'stripe' ? byName[name] : null),
  };
}

const perApp = new WeakMap<FastifyInstance, PaymentProviders>();

/**
 * The providers of a running app, created once from its configuration. Refunds of card payments go
 * through `paymentProvidersFor(app).byName(payment.provider)?.refund(...)`.
 */
export function paymentProvidersFor(app: FastifyInstance): PaymentProviders {
  let providers = perApp.get(app);
  if (!providers) {
    providers = createPaymentProviders(app.config, () => publicOrigin(app));
    perApp.set(app, providers);
  }
  return providers;
}
