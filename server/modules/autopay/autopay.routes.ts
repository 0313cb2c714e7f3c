import {
  clientAutopaySchema,
  paymentMethodChangeSchema,
  paymentMethodIdParamSchema,
  paymentMethodsSchema,
  paymentSetupDoneSchema,
  paymentSetupLinkSentSchema,
  paymentSetupPageSchema,
  paymentSetupStartSchema,
  setupCardSchema,
  staffAutopaySchema,
  stripeSetupSchema,
} from '@shared/contracts/autopay';
import { tokenParamSchema } from '@shared/contracts/checkout';
import { idParamSchema } from '@shared/contracts/common';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { conflict } from '../../lib/errors';
import { publicOrigin } from '../../lib/public-url';
import { jsonSerializerCompiler } from '../../lib/response-schema';
import { registerAfterContractBilled } from '../billing/billing.service';
import { invoiceResponse } from '../invoices/invoices.response';
import {
  registerCheckoutCardSaver,
  registerCheckoutSaveOffer,
  registerStripeEventHandler,
  stripeClientFor,
} from '../payments/checkout.service';
import { chargeContractNow } from './autopay-charges.service';
import { chargeInvoiceWithAnswer } from './invoice-autopay.service';
import {
  completeSetup,
  getSetupPage,
  listCustomerMethods,
  listOwnMethods,
  makeOwnDefault,
  type PaymentMethodDeps,
  removeOwnMethod,
  saveCheckoutCard,
  sendSetupLink,
  setOwnAutopay,
  startOwnSetup,
  turnCustomerAutopayOff,
} from './payment-methods.service';
import {
  checkoutSaveOffer,
  handleAutopayStripeEvent,
  startLinkStripeSetup,
  startOwnStripeSetup,
} from './stripe-autopay.service';
import { autopayStripe, setAutopayStripe } from './stripe-off-session';

/** Limits of the public set-up routes per client address: a customer's retyping, too few to test cards. */
const SETUP_LIMITS = {
  read: { max: 60, timeWindow: 60_000 },
  save: { max: 10, timeWindow: 60_000 },
} as const;

const STRIPE_SAVES_CARDS = 'Cards are saved on Stripe’s secure page: continue to Stripe to save yours.';

/**
 * Autopay (product.md section 18): the client's payment methods and switch, the public set-up page's two calls,
 * the staff's view of a customer's methods (set-up link, autopay off) and finance's "Charge now".
 */
export async function autopayRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = (): PaymentMethodDeps => ({
    db: app.db,
    mailer: app.mailer,
    baseUrl: publicOrigin(app),
    businessName: app.config.BUSINESS_NAME,
  });
  // Billing and payments sit below autopay: they call it through the two hooks they offer.
  registerAfterContractBilled((billing, contractId, asOf) => chargeContractNow(billing, contractId, asOf));
  registerCheckoutCardSaver((checkout, saved) =>
    saveCheckoutCard({ ...checkout, businessName: checkout.businessName }, saved.customerId, saved.card, saved.consent),
  );
  // With Stripe configured, methods are saved on Stripe (setup-mode Checkout, or Stripe's save box of a Pay Now
  // checkout) and charged there off-session; Stripe's events for them come through payments' webhook.
  const stripe = stripeClientFor(app.config);
  setAutopayStripe(stripe);
  registerCheckoutSaveOffer(
    stripe ? (checkout, { customerId }) => checkoutSaveOffer({ ...checkout }, stripe, customerId) : null,
  );
  registerStripeEventHandler(
    stripe ? (checkout, event) => handleAutopayStripeEvent({ ...checkout }, stripe, event) : null,
  );

  const own = ['payment-method:self'] as const;
  const staff = ['payment-method:manage'] as const;

  // The client's own methods (the portal's "Payment methods" page).
  r.get(
    '/api/client/payment-methods',
    {
      config: { access: [...own] },
      schema: { summary: "The client's payment methods and autopay", response: { 200: paymentMethodsSchema } },
    },
    async (request) => listOwnMethods(deps(), request.user!),
  );
  r.post(
    '/api/client/payment-methods/setup',
    {
      config: { access: [...own] },
      schema: {
        summary: 'Start adding a payment method',
        description:
          "Answers where to enter the method: the set-up page, valid one hour; with Stripe, Stripe's page (setup-mode Checkout), back to /portal/payment-methods?saved=stripe.",
        response: { 200: paymentSetupStartSchema },
      },
    },
    async (request) => {
      const stripeClient = autopayStripe();
      return stripeClient
        ? startOwnStripeSetup(deps(), stripeClient, request.user!, {
            ip: request.ip,
            userAgent: request.headers['user-agent'] ?? null,
          })
        : startOwnSetup(deps(), request.user!);
    },
  );
  r.post(
    '/api/client/payment-methods/:id/default',
    {
      config: { access: [...own] },
      schema: {
        summary: 'Make a payment method the default',
        params: paymentMethodIdParamSchema,
        response: { 200: paymentMethodChangeSchema },
      },
    },
    async (request) => makeOwnDefault(deps(), request.user!, request.params.id),
  );
  r.delete(
    '/api/client/payment-methods/:id',
    {
      config: { access: [...own] },
      schema: {
        summary: 'Remove a payment method',
        description: 'Removing the last method of an autopay customer turns autopay off; the message says so.',
        params: paymentMethodIdParamSchema,
        response: { 200: paymentMethodChangeSchema },
      },
    },
    async (request) => removeOwnMethod(deps(), request.user!, request.params.id),
  );
  r.put(
    '/api/client/autopay',
    {
      config: {
        access: [...own],
        conflict: 'Autopay cannot be turned on without a default payment method that is active.',
      },
      schema: { summary: 'Turn autopay on or off', body: clientAutopaySchema, response: { 200: paymentMethodsSchema } },
    },
    async (request) => setOwnAutopay(deps(), request.user!, request.body.enabled),
  );

  // The public set-up page (/setup/{token}): an e-mailed link, or the portal's "Add a payment method".
  r.get(
    '/api/setup/:token',
    {
      config: { access: 'public', rateLimit: SETUP_LIMITS.read, gone: 'The set-up link expired or was used.' },
      schema: {
        summary: "A set-up link's page",
        description: '`provider` says where the method is entered: our card form (builtin) or Stripe’s page (stripe).',
        params: tokenParamSchema,
        response: { 200: paymentSetupPageSchema },
      },
    },
    async (request) => ({
      ...(await getSetupPage(deps(), request.params.token)),
      provider: autopayStripe() ? ('stripe' as const) : ('builtin' as const),
    }),
  );
  r.post(
    '/api/setup/:token',
    {
      config: {
        access: 'public',
        rateLimit: SETUP_LIMITS.save,
        gone: 'The set-up link expired or was used.',
        conflict: 'Stripe is configured: the method is saved on Stripe’s page (POST /api/setup/{token}/stripe).',
      },
      schema: {
        summary: 'Save a payment method through a set-up link',
        description: 'A declined card answers 400 with its reason and spends nothing; the link saves one method.',
        params: tokenParamSchema,
        body: setupCardSchema,
        response: { 200: paymentSetupDoneSchema },
      },
    },
    async (request) => {
      if (autopayStripe()) throw conflict(STRIPE_SAVES_CARDS);
      return completeSetup(deps(), request.params.token, request.body, {
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? null,
      });
    },
  );
  r.post(
    '/api/setup/:token/stripe',
    {
      config: {
        access: 'public',
        rateLimit: SETUP_LIMITS.save,
        gone: 'The set-up link expired or was used.',
        conflict: 'Stripe is not configured: the card is entered on the set-up page (POST /api/setup/{token}).',
      },
      schema: {
        summary: "Continue to Stripe's page to save a payment method",
        description:
          "With Stripe configured: the consent ticked on the set-up page, then Stripe's setup-mode Checkout (navigate to `url`). Stripe returns to /setup/{token}?saved=stripe; the link is spent when Stripe's webhook says the method was saved.",
        params: tokenParamSchema,
        body: stripeSetupSchema,
        response: { 200: paymentSetupStartSchema },
      },
    },
    async (request) => {
      const stripeClient = autopayStripe();
      if (!stripeClient) throw conflict('Stripe is not configured: enter the card on this page.');
      return startLinkStripeSetup(deps(), stripeClient, request.params.token, {
        makeDefault: request.body.makeDefault,
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? null,
      });
    },
  );

  // Staff: a customer's methods and consent, the set-up link, autopay off (never on).
  r.get(
    '/api/customers/:id/payment-methods',
    {
      config: { access: [...staff] },
      schema: {
        summary: "A customer's payment methods and autopay",
        params: idParamSchema,
        response: { 200: paymentMethodsSchema },
      },
    },
    async (request) => listCustomerMethods(deps(), request.params.id),
  );
  r.post(
    '/api/customers/:id/payment-setup-link',
    {
      config: { access: [...staff], conflict: 'The customer has no e-mail address.' },
      schema: {
        summary: 'E-mail a customer a link to save a payment method',
        description: 'The link is valid 7 days and saves one method.',
        params: idParamSchema,
        response: { 200: paymentSetupLinkSentSchema },
      },
    },
    async (request) => sendSetupLink(deps(), request.user!, request.params.id),
  );
  r.put(
    '/api/customers/:id/autopay',
    {
      config: { access: [...staff] },
      schema: {
        summary: "Turn a customer's autopay off",
        description: 'Staff may only turn autopay off: the body is { "enabled": false }.',
        params: idParamSchema,
        body: staffAutopaySchema,
        response: { 200: paymentMethodsSchema },
      },
    },
    async (request) => turnCustomerAutopayOff(deps(), request.user!, request.params.id),
  );

  // Finance's "Charge now": the same attempt rules as the charge run, whatever the day.
  r.post(
    '/api/invoices/:id/charge',
    {
      config: {
        access: ['invoice:manage'],
        conflict:
          'Nothing is due on the invoice, its customer has no method to charge, or a charge of it is in progress.',
      },
      schema: {
        summary: "Charge an invoice to its customer's method on file",
        params: idParamSchema,
        response: { 200: invoiceResponse },
      },
      serializerCompiler: jsonSerializerCompiler,
    },
    async (request) => chargeInvoiceWithAnswer(deps(), request.user!, request.params.id),
  );
}
