import { createHash } from 'node:crypto';
import { autopayConsentText, methodLabel, type PaymentSetupStart } from '@shared/contracts/autopay';
import type Stripe from 'stripe';
import { recordAudit } from '../../lib/audit';
import { businessToday } from '../../lib/business-day';
import { AppError, notFound } from '../../lib/errors';
import type { CheckoutSaveOffer } from '../payments/checkout.service';
import type { SessionUser } from '../sessions/sessions';
import { retryFailedNow, selectAutopayCustomer } from './autopay.repo';
import { runAutopayCharges, settleAttemptLater } from './autopay-charges.service';
import { liveLink, type PaymentMethodDeps, recordMethod, type VaultedMethod } from './payment-methods.service';
import {
  keepStripeCustomerId,
  refreshMethod,
  selectCustomerIdByStripeCustomerId,
  selectMethodByProviderId,
  selectStripeCustomerId,
} from './provider-events.repo';
import { createSetupLink } from './setup-links';
import { intentAnswer, STRIPE_KEYS } from './stripe-off-session';

/**
 * Saving a method with Stripe (product.md section 18, decision 057): Stripe Checkout in setup mode for the
 * customer's Stripe customer (made once), the consent ticked on our set-up page (or given by the signed-in
 * client) carried in the session's metadata; the signed `checkout.session.completed` records the method. A
 * payment-mode checkout (Pay Now) offers Stripe's own save box for the same Stripe customer, and its completion
 * records the card when the customer ticked it. Stripe's later answers (a bank debit's PaymentIntent, the card
 * updater) come through the same webhook.
 */

/** Stripe allows a Checkout Session 30 minutes to 24 hours. */
const MIN_SESSION_MS = 31 * 60 * 1000;
const MAX_SESSION_MS = 23 * 60 * 60 * 1000;

const STRIPE_UNAVAILABLE = 'Stripe could not be reached to save the payment method. Please try again in a moment.';

type Consent = {
  userId: string | null;
  name: string;
  email: string | null;
  ip: string | null;
  userAgent: string | null;
};

/** The customer's Stripe customer: made once (the key and the conditional update keep one), then reused. */
export async function ensureStripeCustomer(
  deps: PaymentMethodDeps,
  stripe: Stripe,
  customerId: string,
): Promise<string> {
  const known = await selectStripeCustomerId(deps.db, customerId);
  if (known === undefined) throw notFound('Customer');
  if (known) return known;
  const customer = await selectAutopayCustomer(deps.db, customerId);
  if (!customer) throw notFound('Customer');
  const created = await stripe.customers.create(
    { name: customer.name, email: customer.email, metadata: { [STRIPE_KEYS.customer]: customerId } },
    { idempotencyKey: `customer-${customerId}` },
  );
  return keepStripeCustomerId(deps.db, customerId, created.id);
}

/**
 * The offer of a payment-mode Checkout (Pay Now) to keep its card for autopay (registered with payments'
 * registerCheckoutSaveOffer): the customer's Stripe customer, made once, and the consent text every saved method
 * records. Throws when Stripe cannot make the customer: payments then opens the checkout without the offer.
 */
export async function checkoutSaveOffer(
  deps: PaymentMethodDeps,
  stripe: Stripe,
  customerId: string,
): Promise<CheckoutSaveOffer> {
  return {
    providerCustomerId: await ensureStripeCustomer(deps, stripe, customerId),
    consentText: autopayConsentText(deps.businessName),
  };
}

/** Opens Stripe Checkout in setup mode for one set-up link; answers its stripe.com address. */
async function openSetupCheckout(
  deps: PaymentMethodDeps,
  stripe: Stripe,
  input: {
    link: { id: string; customerId: string; expiresAt: Date };
    consent: Consent;
    makeDefault: boolean;
    successUrl: string;
    cancelUrl: string;
  },
): Promise<PaymentSetupStart> {
  const stripeCustomer = await ensureStripeCustomer(deps, stripe, input.link.customerId).catch((error: unknown) => {
    if (error instanceof AppError) throw error;
    throw new AppError('UNAVAILABLE', STRIPE_UNAVAILABLE);
  });
  const now = Date.now();
  const expiresAt = Math.min(Math.max(input.link.expiresAt.getTime(), now + MIN_SESSION_MS), now + MAX_SESSION_MS);
  const metadata = {
    [STRIPE_KEYS.customer]: input.link.customerId,
    [STRIPE_KEYS.setupLink]: input.link.id,
    make_default: input.makeDefault ? 'true' : 'false',
    consent_at: new Date(now).toISOString(),
    consent_user_id: input.consent.userId ?? '',
    consent_name: input.consent.name.slice(0, 500),
    consent_email: input.consent.email ?? '',
    consent_ip: input.consent.ip ?? '',
    consent_user_agent: (input.consent.userAgent ?? '').slice(0, 500),
  };
  const params: Stripe.Checkout.SessionCreateParams = {
    mode: 'setup',
    currency: 'usd',
    customer: stripeCustomer,
    client_reference_id: input.link.id,
    metadata,
    setup_intent_data: {
      metadata: { [STRIPE_KEYS.customer]: input.link.customerId, [STRIPE_KEYS.setupLink]: input.link.id },
    },
    custom_text: { submit: { message: autopayConsentText(deps.businessName).slice(0, 1200) } },
    success_url: input.successUrl,
    cancel_url: input.cancelUrl,
    expires_at: Math.floor(expiresAt / 1000),
  };
  // One session per set-up link and agreement: a retried request answers the same session (Stripe refuses a key
  // reused with other parameters, so a later agreement on the same link, with its own time, opens its own).
  const digest = createHash('sha256').update(JSON.stringify(params)).digest('hex').slice(0, 16);
  let session: Stripe.Checkout.Session;
  try {
    session = await stripe.checkout.sessions.create(params, {
      idempotencyKey: `setup-link-${input.link.id}-${digest}`,
    });
  } catch (error) {
    process.emitWarning(`Stripe did not open a setup-mode Checkout: ${error instanceof Error ? error.name : 'error'}`);
    throw new AppError('UNAVAILABLE', STRIPE_UNAVAILABLE);
  }
  if (!session.url) throw new AppError('UNAVAILABLE', STRIPE_UNAVAILABLE);
  return { url: session.url };
}

/**
 * The portal's "Add a payment method" with Stripe: a set-up link of the client (one hour) and Stripe's page at
 * once, with the client's agreement recorded as given from this request; back to /portal/payment-methods.
 */
export async function startOwnStripeSetup(
  deps: PaymentMethodDeps,
  stripe: Stripe,
  actor: SessionUser,
  context: { ip: string | null; userAgent: string | null },
): Promise<PaymentSetupStart> {
  if (!actor.customerId) throw notFound('Customer');
  const customer = await selectAutopayCustomer(deps.db, actor.customerId);
  if (!customer) throw notFound('Customer');
  const link = await createSetupLink(deps.db, {
    baseUrl: deps.baseUrl,
    customerId: actor.customerId,
    purpose: 'portal',
    createdBy: actor.id,
  });
  return openSetupCheckout(deps, stripe, {
    link: { id: link.id, customerId: actor.customerId, expiresAt: link.expiresAt },
    consent: { userId: actor.id, name: `${actor.firstName} ${actor.lastName}`.trim(), email: actor.email, ...context },
    makeDefault: true,
    successUrl: `${deps.baseUrl}/portal/payment-methods?saved=stripe`,
    cancelUrl: `${deps.baseUrl}/portal/payment-methods`,
  });
}

/**
 * The set-up page's "Continue to Stripe": the consent box ticked on our page (the body says so), then Stripe's
 * page; back to the set-up page's done state (`/setup/{token}?saved=stripe`), or to the page on cancel. The link
 * is spent when Stripe's webhook says the method was saved; until then the page can be opened again.
 */
export async function startLinkStripeSetup(
  deps: PaymentMethodDeps,
  stripe: Stripe,
  token: string,
  input: { makeDefault: boolean; ip: string | null; userAgent: string | null },
): Promise<PaymentSetupStart> {
  const link = await liveLink(deps.db, token);
  const customer = await selectAutopayCustomer(deps.db, link.customerId);
  if (!customer) throw notFound('Customer');
  const page = `${deps.baseUrl}/setup/${token}`;
  return openSetupCheckout(deps, stripe, {
    link,
    consent: {
      userId: link.purpose === 'portal' ? link.createdBy : null,
      name: customer.contactPerson || customer.name,
      email: customer.email,
      ip: input.ip,
      userAgent: input.userAgent,
    },
    makeDefault: input.makeDefault,
    successUrl: `${page}?saved=stripe`,
    cancelUrl: page,
  });
}

// ---------------------------------------------------------------------------------------------------------
// Stripe's events (registered with payments' webhook: registerStripeEventHandler)
// ---------------------------------------------------------------------------------------------------------

/** Acts on a verified Stripe event autopay cares about; any other is acknowledged and left. */
export async function handleAutopayStripeEvent(
  deps: PaymentMethodDeps,
  stripe: Stripe,
  event: Stripe.Event,
): Promise<void> {
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      const session = event.data.object;
      return session.mode === 'payment'
        ? savedAtPayment(deps, stripe, session, event.created)
        : savedInSetupMode(deps, stripe, session);
    }
    case 'payment_intent.succeeded':
    case 'payment_intent.payment_failed': {
      const intent = event.data.object;
      const attemptId = intent.metadata?.[STRIPE_KEYS.attempt];
      if (!attemptId || !isUuid(attemptId)) return;
      const answer = intentAnswer(intent);
      // Still processing (an out-of-order event): the final one settles it.
      if (answer.outcome === 'processing') return;
      await settleAttemptLater(deps, attemptId, answer);
      return;
    }
    case 'payment_method.updated':
    case 'payment_method.automatically_updated':
      return refreshedByUpdater(deps, event.data.object);
    default:
      return;
  }
}

const isUuid = (value: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);

/** What we keep of a Stripe PaymentMethod: a card's brand, last 4, expiry, fingerprint; a bank's name, last 4. */
function vaultedOf(method: Stripe.PaymentMethod, stripeCustomer: string): VaultedMethod | null {
  if (method.type === 'card' && method.card) {
    return {
      provider: 'stripe',
      providerCustomerId: stripeCustomer,
      providerMethodId: method.id,
      kind: 'card',
      brand: method.card.brand,
      last4: method.card.last4,
      expMonth: method.card.exp_month,
      expYear: method.card.exp_year,
      fingerprint: method.card.fingerprint ?? null,
    };
  }
  if (method.type === 'us_bank_account' && method.us_bank_account) {
    return {
      provider: 'stripe',
      providerCustomerId: stripeCustomer,
      providerMethodId: method.id,
      kind: 'us_bank_account',
      brand: method.us_bank_account.bank_name ?? 'Bank account',
      last4: method.us_bank_account.last4 ?? '',
      expMonth: null,
      expYear: null,
      fingerprint: method.us_bank_account.fingerprint ?? null,
    };
  }
  return null;
}

const idOf = (value: string | { id: string } | null | undefined) =>
  !value ? null : typeof value === 'string' ? value : value.id;

/**
 * `checkout.session.completed` of a setup-mode session of ours: its SetupIntent's PaymentMethod is recorded with
 * the consent the session carries, the set-up link spent. A replay (or a second delivery) records nothing more.
 */
async function savedInSetupMode(deps: PaymentMethodDeps, stripe: Stripe, session: Stripe.Checkout.Session) {
  const metadata = session.metadata ?? {};
  const customerId = metadata[STRIPE_KEYS.customer];
  const linkId = metadata[STRIPE_KEYS.setupLink];
  if (session.mode !== 'setup' || !customerId || !linkId || !isUuid(customerId) || !isUuid(linkId)) return;
  const setupIntentId = idOf(session.setup_intent);
  if (!setupIntentId) return;
  const intent = await stripe.setupIntents.retrieve(setupIntentId);
  const methodId = idOf(intent.payment_method);
  if (intent.status !== 'succeeded' || !methodId) return;
  if (await selectMethodByProviderId(deps.db, 'stripe', methodId)) return;
  const method = await stripe.paymentMethods.retrieve(methodId);
  const stripeCustomer = idOf(intent.customer) ?? idOf(session.customer);
  const vaulted = stripeCustomer ? vaultedOf(method, stripeCustomer) : null;
  if (!vaulted) return;
  const consentAt = metadata.consent_at ? new Date(metadata.consent_at) : new Date(session.created * 1000);
  try {
    await recordMethod(deps, {
      customerId,
      vaulted,
      makeDefault: metadata.make_default !== 'false',
      source: 'setup_link',
      consent: {
        userId: metadata.consent_user_id || null,
        name: method.billing_details?.name || metadata.consent_name || 'Customer',
        email: metadata.consent_email || method.billing_details?.email || null,
        ip: metadata.consent_ip || null,
        userAgent: metadata.consent_user_agent || null,
        at: Number.isNaN(consentAt.getTime()) ? undefined : consentAt,
      },
      spendLink: linkId,
      spendExpiredLink: true,
    });
  } catch (error) {
    // The link was spent meanwhile (a second delivery of the same event won the race): nothing more to record.
    if (error instanceof AppError && error.code === 'GONE') return;
    if (await selectMethodByProviderId(deps.db, 'stripe', methodId)) return;
    throw error;
  }
}

/**
 * A paid payment-mode session of ours that offered Stripe's save box (payments settled its payment first): the
 * card is recorded only when the customer ticked the box, which Stripe marks on the PaymentMethod with
 * `allow_redisplay: 'always'`, attached to the session's customer. As the built-in checkout's "Save this card"
 * box does: the default, autopay on, the consent text offered, who agreed (the name on the card); the IP and user
 * agent are Stripe's to keep (its page took the tick). A replay, or a second delivery, records nothing more.
 */
async function savedAtPayment(
  deps: PaymentMethodDeps,
  stripe: Stripe,
  session: Stripe.Checkout.Session,
  eventCreated: number,
) {
  const stripeCustomer = idOf(session.customer);
  const intentId = idOf(session.payment_intent);
  if (session.payment_status !== 'paid' || !stripeCustomer || !intentId) return;
  if (session.saved_payment_method_options?.payment_method_save !== 'enabled') return;
  const customerId = await selectCustomerIdByStripeCustomerId(deps.db, stripeCustomer);
  if (!customerId) return;
  const intent = await stripe.paymentIntents.retrieve(intentId, { expand: ['payment_method'] });
  const method = intent.payment_method;
  if (intent.status !== 'succeeded' || !method || typeof method === 'string') return;
  if (method.allow_redisplay !== 'always' || idOf(method.customer) !== stripeCustomer) return;
  if (await selectMethodByProviderId(deps.db, 'stripe', method.id)) return;
  const vaulted = vaultedOf(method, stripeCustomer);
  const customer = await selectAutopayCustomer(deps.db, customerId);
  if (!vaulted || !customer) return;
  try {
    await recordMethod(deps, {
      customerId,
      vaulted,
      makeDefault: true,
      source: 'checkout',
      consent: {
        userId: null,
        name: method.billing_details?.name || customer.contactPerson || customer.name,
        email: customer.email || method.billing_details?.email || null,
        ip: null,
        userAgent: null,
        at: new Date(eventCreated * 1000),
      },
      spendLink: null,
    });
  } catch (error) {
    // A second delivery of the same event recorded it first (the method is unique per provider and id).
    if (await selectMethodByProviderId(deps.db, 'stripe', method.id)) return;
    throw error;
  }
}

/**
 * The card updater (`payment_method.updated`): a method on file gets its new brand, last 4 and expiry (active
 * again if it had expired), and each open invoice of the customer whose charge failed is retried at once.
 */
async function refreshedByUpdater(deps: PaymentMethodDeps, method: Stripe.PaymentMethod) {
  if (method.type !== 'card' || !method.card) return;
  const known = await selectMethodByProviderId(deps.db, 'stripe', method.id);
  if (!known || known.removedAt) return;
  const card = {
    brand: method.card.brand,
    last4: method.card.last4,
    expMonth: method.card.exp_month,
    expYear: method.card.exp_year,
  };
  const changed =
    known.brand !== card.brand ||
    known.last4 !== card.last4 ||
    known.expMonth !== card.expMonth ||
    known.expYear !== card.expYear ||
    known.status === 'expired';
  if (!changed) return;
  const updated = await deps.db.transaction(async (tx) => {
    const row = await refreshMethod(tx, known.id, card);
    if (!row) return null;
    await retryFailedNow(tx, row.customerId, businessToday());
    await recordAudit(tx, {
      actorId: null,
      action: 'payment_method.updated',
      entity: 'customer',
      entityId: row.customerId,
      before: { method: methodLabel(known), expMonth: known.expMonth, expYear: known.expYear, status: known.status },
      after: { method: methodLabel(row), expMonth: row.expMonth, expYear: row.expYear, status: row.status },
    });
    return row;
  });
  if (updated) await runAutopayCharges(deps, { customerId: updated.customerId });
}
