import {
  billingPortalSchema,
  cardPaymentSchema,
  checkoutPaidSchema,
  checkoutReceiptSchema,
  checkoutSchema,
  checkoutUrlSchema,
  payLinkSchema,
  tokenParamSchema,
} from '@shared/contracts/checkout';
import { idParamSchema } from '@shared/contracts/common';
import { manualPaymentBodySchema, voidInvoiceSchema } from '@shared/contracts/invoices';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { readLetterhead } from '../../lib/company-profile';
import { publicOrigin } from '../../lib/public-url';
import { jsonSerializerCompiler, messageResponse } from '../../lib/response-schema';
import { invoiceResponse } from '../invoices/invoices.response';
import { openBillingPortal } from './billing-portal.service';
import {
  type CheckoutDeps,
  checkoutReceiptPdf,
  getCheckout,
  getCheckoutReceipt,
  getPayLink,
  handleStripeWebhook,
  payCheckout,
  startInvoiceCheckout,
  startPayAllCheckout,
  startPayLinkCheckout,
} from './checkout.service';
import { type PaymentDeps, recordManualPayment, resendReceipt } from './payments.service';
import { paymentProvidersFor } from './providers';
import { PUBLIC_PAYMENT_LIMITS } from './rate-limit';
import { registerRefundHandler, voidInvoice } from './refunds.service';

/**
 * The public payment side (pay links, the built-in checkout, provider webhooks), the portal's Pay Now,
 * finance's manual payments and voids, and "Resend Receipt" on a contract.
 * Public routes are rate limited per client address; unknown tokens answer 404 like malformed ones.
 */
export async function paymentsRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  // Voiding a paid invoice refunds its Stripe card payments through the SDK (the void route calls this).
  const stripe = paymentProvidersFor(app).stripe;
  if (stripe) {
    registerRefundHandler('stripe', async (_tx, payment) => {
      if (!payment.providerPaymentId) throw new Error(`Stripe payment ${payment.id} has no payment intent to refund`);
      await stripe.refund({ providerPaymentId: payment.providerPaymentId, amountCents: payment.amountCents });
    });
  }

  const deps = (): CheckoutDeps => ({
    db: app.db,
    mailer: app.mailer,
    providers: paymentProvidersFor(app),
    baseUrl: publicOrigin(app),
    businessName: app.config.BUSINESS_NAME,
  });

  r.get(
    '/api/pay/:token',
    {
      config: { access: 'public', rateLimit: PUBLIC_PAYMENT_LIMITS.read },
      schema: { summary: "Get a pay link's contract", params: tokenParamSchema, response: { 200: payLinkSchema } },
    },
    async (request) => getPayLink(deps(), request.params.token),
  );

  r.post(
    '/api/pay/:token/checkout',
    {
      config: {
        access: 'public',
        rateLimit: PUBLIC_PAYMENT_LIMITS.open,
        conflict:
          'Nothing is due, the contract can no longer be paid, its insertion order must be accepted first, or the checkout is still being opened.',
      },
      schema: {
        summary: "Start a pay link's checkout",
        params: tokenParamSchema,
        response: { 200: checkoutUrlSchema },
      },
    },
    async (request) => startPayLinkCheckout(deps(), request.params.token),
  );

  r.get(
    '/api/checkout/:token',
    {
      config: { access: 'public', rateLimit: PUBLIC_PAYMENT_LIMITS.read },
      schema: { summary: 'Get a checkout', params: tokenParamSchema, response: { 200: checkoutSchema } },
    },
    async (request) => getCheckout(deps(), request.params.token),
  );

  r.post(
    '/api/checkout/:token/pay',
    {
      config: {
        access: 'public',
        rateLimit: PUBLIC_PAYMENT_LIMITS.pay,
        conflict: 'The checkout has expired or is already paid, or the amount due changed since it was opened.',
      },
      schema: {
        summary: 'Pay a checkout by card',
        params: tokenParamSchema,
        body: cardPaymentSchema,
        response: { 200: checkoutPaidSchema },
      },
    },
    async (request) =>
      payCheckout(deps(), request.params.token, request.body, {
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? null,
      }),
  );

  // The success page's receipt: what the checkout paid, and its PDF, for whoever holds the checkout's token.
  r.get(
    '/api/checkout/:token/receipt',
    {
      config: { access: 'public', rateLimit: PUBLIC_PAYMENT_LIMITS.read },
      schema: {
        summary: "A checkout's receipt",
        description: 'What the checkout paid (pending until the provider confirms the payment).',
        params: tokenParamSchema,
        response: { 200: checkoutReceiptSchema },
      },
    },
    async (request) => getCheckoutReceipt(deps(), request.params.token),
  );

  r.get(
    '/api/checkout/:token/receipt/pdf',
    {
      config: { access: 'public', rateLimit: PUBLIC_PAYMENT_LIMITS.read },
      schema: {
        summary: "A checkout's receipt (PDF)",
        params: tokenParamSchema,
        produces: ['application/pdf'],
      },
    },
    async (request, reply) => {
      // The receipt PDF prints the company's letterhead, its logo read from storage.
      const file = await checkoutReceiptPdf(deps(), request.params.token, () => readLetterhead(app.db, app.storage));
      return reply
        .type('application/pdf')
        .header('Content-Disposition', `attachment; filename="${file.filename}"`)
        .header('Cache-Control', 'private, no-store')
        .send(file.bytes);
    },
  );

  r.post(
    '/api/invoices/:id/checkout',
    {
      config: {
        access: ['invoice:read:client'],
        idempotent: true,
        conflict: 'The invoice is paid or void, or its checkout is still being opened.',
      },
      schema: {
        summary: 'Start paying an invoice by card',
        params: idParamSchema,
        response: { 200: checkoutUrlSchema },
      },
    },
    async (request) => startInvoiceCheckout(deps(), request.user!, request.params.id),
  );

  // "Pay all due" (product.md section 20): one checkout for every invoice billed to the client's customer with
  // something due, for their total as the server works it out (the body carries nothing); applied oldest first.
  r.post(
    '/api/client/pay-all',
    {
      config: {
        access: ['invoice:read:client'],
        idempotent: true,
        conflict: 'Nothing is due on your invoices, or the checkout is still being opened.',
      },
      schema: {
        summary: 'Start paying every invoice due in one payment',
        description:
          "Opens one checkout (the built-in page, or Stripe Checkout when configured) for every invoice billed to the client's customer that has an amount due, oldest first (due date, then number), for their total due. The payment is applied oldest first, each invoice up to what is due on it when the payment is confirmed; any rest (an invoice paid meanwhile) is refunded to the card.",
        response: { 200: checkoutUrlSchema },
      },
    },
    async (request) => startPayAllCheckout(deps(), request.user!),
  );

  // Finance's side: a check, wire or cash payment recorded by hand, and a void (refunding what was paid).
  const manage = ['invoice:manage'] as const;
  const staff = (): PaymentDeps => ({ db: app.db, mailer: app.mailer, baseUrl: publicOrigin(app) });
  // The answers are declared (lib/response-schema.ts): only these fields are ever sent.
  const answers = { serializerCompiler: jsonSerializerCompiler };

  r.post(
    '/api/invoices/:id/payments',
    {
      config: {
        access: manage,
        idempotent: true,
        conflict: 'The invoice is paid or void.',
      },
      schema: {
        summary: 'Record a manual payment',
        params: idParamSchema,
        body: manualPaymentBodySchema,
        response: { 201: invoiceResponse },
      },
      ...answers,
    },
    async (request, reply) =>
      reply.status(201).send(await recordManualPayment(staff(), request.user!, request.params.id, request.body)),
  );

  r.post(
    '/api/invoices/:id/void',
    {
      config: { access: manage, idempotent: true, conflict: 'The invoice is already void.' },
      schema: {
        summary: 'Void an invoice',
        params: idParamSchema,
        body: voidInvoiceSchema,
        response: { 200: invoiceResponse },
      },
      ...answers,
    },
    async (request) => voidInvoice(staff(), request.user!, request.params.id, request.body.reason),
  );

  // "Resend Receipt" on a contract's page: for whoever may change the contract.
  r.post(
    '/api/contracts/:id/resend-receipt',
    {
      config: {
        access: ['contract:write:any', 'contract:write:own'],
        conflict: 'The contract has no payment to send a receipt for.',
      },
      schema: {
        summary: "Send a contract's payment receipt again",
        params: idParamSchema,
        response: { 200: messageResponse },
      },
      ...answers,
    },
    async (request) => resendReceipt(staff(), request.user!, request.params.id),
  );

  // The customer portal of a portal-mode contract (billing-portal.service.ts): the client opens it from its
  // contract page; staff who may read the contract open it with the customer or copy the portal page to send.
  const portal = () => ({ db: app.db, providers: paymentProvidersFor(app), baseUrl: publicOrigin(app) });
  r.post(
    '/api/client/contracts/:id/billing-portal',
    {
      config: {
        access: ['portal:access'],
        conflict: 'The contract is paid through its pay link, not the Client Portal.',
      },
      schema: {
        summary: "Open the billing portal of one of the client's contracts",
        params: idParamSchema,
        response: { 200: billingPortalSchema },
      },
    },
    async (request) => openBillingPortal(portal(), request.user!, request.params.id, 'client'),
  );
  r.post(
    '/api/contracts/:id/billing-portal',
    {
      config: { access: ['contract:read:any', 'contract:read:own'] },
      schema: {
        summary: "Open a contract's billing portal",
        params: idParamSchema,
        response: { 200: billingPortalSchema },
      },
    },
    async (request) => openBillingPortal(portal(), request.user!, request.params.id, 'staff'),
  );

  // Webhooks are verified on the exact bytes received, so this scope keeps JSON bodies raw.
  await app.register(async (raw) => {
    raw.removeContentTypeParser('application/json');
    raw.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 512 * 1024 }, (_request, body, done) =>
      done(null, body),
    );
    raw.withTypeProvider<ZodTypeProvider>().post(
      '/api/webhooks/stripe',
      {
        config: { access: 'public' },
        schema: {
          summary: 'Receive a Stripe event',
          description:
            "Stripe's events, verified by the Stripe-Signature header on the exact bytes received: checkouts here; a method saved in setup mode, an off-session PaymentIntent's result and payment_method.updated by autopay.",
          documentedBody: { 'application/json': { type: 'object', description: 'A Stripe event.' } },
          response: { 200: z.object({ received: z.literal(true) }) },
        },
      },
      async (request) => {
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        return handleStripeWebhook(deps(), body, request.headers);
      },
    );
  });
}
