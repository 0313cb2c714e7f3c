import { asc, eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutSessions, contracts, insertionOrders, invoices, payments } from '../../db/schema';
import { buildTestApp, type TestContext } from '../../test/app';
import { setTaxSettings } from '../../test/billing-factories';
import { createTestCustomer, createTestProduct } from '../../test/catalog-factories';
import { monthStartFromToday } from '../../test/dates';
import { createPayLinkContract, publicClient } from '../../test/payment-factories';
import { type FakeStripe, startFakeStripe } from '../../test/stripe-fake';
import { runBilling } from '../billing/billing-run';
import { refundHandlerFor } from './refunds.service';
import { createStripeProvider } from './stripe-provider';

/**
 * The Stripe provider through the official SDK, without network: the SDK talks to a local fake of the
 * endpoints we call, and webhook payloads are signed with the SDK's own test-header helper.
 */

const ORIGIN = 'https://pay.example.test';
const SECRET_KEY = 'sk_test_adcrm_fake';
const WEBHOOK_SECRET = 'whsec_adcrm_test_secret';
let fake: FakeStripe;
let ctx: TestContext;

beforeAll(async () => {
  fake = await startFakeStripe();
  ctx = await buildTestApp({
    config: {
      PUBLIC_URL: ORIGIN,
      STRIPE_SECRET_KEY: SECRET_KEY,
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE: fake.baseUrl,
    },
  });
  await setTaxSettings(ctx.db, { defaultTaxRate: 0, taxIncluded: false, taxLabel: 'Tax' });
});
afterAll(async () => {
  await ctx.close();
  await fake.close();
});

/** A Stripe event delivery as Stripe sends it: the JSON body and its Stripe-Signature header. */
function delivery(event: object, options: { secret?: string; timestamp?: number } = {}) {
  const payload = JSON.stringify(event);
  const signature = Stripe.webhooks.generateTestHeaderString({
    payload,
    secret: options.secret ?? WEBHOOK_SECRET,
    timestamp: options.timestamp,
  });
  return { payload, signature };
}

function postWebhook(payload: string, signature?: string) {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/webhooks/stripe',
    headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) },
    payload,
  });
}

const completedEvent = (session: object, id = `evt_${Math.random().toString(36).slice(2)}`) => ({
  id,
  object: 'event',
  type: 'checkout.session.completed',
  api_version: '2025-01-01',
  created: Math.floor(Date.now() / 1000),
  data: { object: session },
});

/** An active pay-link contract with one pending $250.00 invoice, and a Stripe checkout opened for it. */
async function stripeCheckout() {
  const client = publicClient(ctx.app);
  const { contract, token } = await createPayLinkContract(ctx.db, {
    status: 'active',
    startDate: '2026-11-05',
    lines: [{ unitPriceCents: 250_00 }],
  });
  await runBilling(ctx.db, { contractId: contract.id, asOf: '2026-11-05', baseUrl: ORIGIN });
  const [invoice] = await ctx.db.select().from(invoices).where(eq(invoices.contractId, contract.id));
  const opened = await client.openCheckout(token);
  expect(opened.statusCode, opened.body).toBe(200);
  const [session] = await ctx.db.select().from(checkoutSessions).where(eq(checkoutSessions.contractId, contract.id));
  return { client, contract, token, invoice, session, checkoutUrl: opened.json().checkoutUrl as string };
}

describe('Stripe Checkout Sessions', () => {
  it('opens a Checkout Session in payment mode for the amount due, with our token in its metadata', async () => {
    const { contract, token, invoice, session, checkoutUrl } = await stripeCheckout();
    expect(session).toMatchObject({
      provider: 'stripe',
      amountCents: 250_00,
      invoiceIds: [invoice.id],
      status: 'open',
    });
    const remote = fake.sessions.get(session.providerSessionId!)!;
    expect(checkoutUrl).toBe(remote.url);

    const call = fake.requests.find(
      (r) => r.path === '/v1/checkout/sessions' && r.form.client_reference_id === session.id,
    )!;
    expect(call.method).toBe('POST');
    expect(call.authorization).toBe(`Bearer ${SECRET_KEY}`);
    expect(call.idempotencyKey).toBe(`checkout-${session.id}`);
    expect(call.form).toMatchObject({
      mode: 'payment',
      'line_items[0][quantity]': '1',
      'line_items[0][price_data][currency]': 'usd',
      'line_items[0][price_data][unit_amount]': '25000',
      'line_items[0][price_data][product_data][name]': `Invoice ${invoice.number}`,
      'metadata[checkout_token]': session.token,
      'metadata[contract_id]': contract.id,
      'payment_intent_data[metadata][checkout_token]': session.token,
      success_url: `${ORIGIN}/payment/success?checkout=${session.token}&contract=${contract.id}`,
      cancel_url: `${ORIGIN}/p/${token}`,
      expires_at: String(Math.floor(session.expiresAt.getTime() / 1000)),
    });
  });

  it('opening Pay again leads to the same Stripe checkout while it is open', async () => {
    const { client, token, session, checkoutUrl } = await stripeCheckout();
    const again = await client.openCheckout(token);
    expect(again.json().checkoutUrl).toBe(checkoutUrl);
    expect(
      fake.requests.some((r) => r.method === 'GET' && r.path === `/v1/checkout/sessions/${session.providerSessionId}`),
    ).toBe(true);
  });

  it('the provider sends a customer e-mail without a save offer, and with one the Stripe customer and its save box', async () => {
    const provider = createStripeProvider({
      secretKey: SECRET_KEY,
      webhookSecret: WEBHOOK_SECRET,
      apiBase: fake.baseUrl,
    });
    const request = {
      token: 'tok_provider_offer',
      contractId: '00000000-0000-4000-8000-000000000001',
      amountCents: 42_00,
      description: 'Invoice INV-2026-000042',
      customerEmail: 'offer@example.test',
      successUrl: `${ORIGIN}/payment/success`,
      cancelUrl: `${ORIGIN}/p/offer`,
      expiresAt: new Date('2026-11-05T12:00:00Z'),
    };
    const sent = (sessionId: string) =>
      fake.requests.find((r) => r.path === '/v1/checkout/sessions' && r.form.client_reference_id === sessionId)!.form;

    await provider.createCheckout({ ...request, sessionId: 'session-without-offer' });
    const plain = sent('session-without-offer');
    expect(plain).toMatchObject({ mode: 'payment', customer_email: 'offer@example.test', expires_at: '1793880000' });
    expect(
      Object.keys(plain).filter((key) => /^(customer|saved_payment_method_options|custom_text)\b/.test(key)),
    ).toEqual([]);

    const consentText = `I authorise ${'A very long business name '.repeat(60)}to charge this payment method.`;
    await provider.createCheckout({
      ...request,
      sessionId: 'session-with-offer',
      saveOffer: { providerCustomerId: 'cus_offer', consentText },
    });
    const offered = sent('session-with-offer');
    expect(offered).toMatchObject({
      mode: 'payment',
      customer: 'cus_offer',
      'saved_payment_method_options[payment_method_save]': 'enabled',
    });
    expect(offered.customer_email).toBeUndefined();
    // Stripe shows at most 1,200 characters beside the Pay button.
    expect(offered['custom_text[submit][message]']).toBe(`If you save your card: ${consentText}`.slice(0, 1200));
    expect(offered['custom_text[submit][message]']).toHaveLength(1200);
  });

  it('the built-in checkout page does not serve a Stripe session', async () => {
    const { client, session } = await stripeCheckout();
    expect((await client.getCheckout(session.token)).statusCode).toBe(404);
  });
});

describe('POST /api/webhooks/stripe', () => {
  it('checkout.session.completed pays the invoice with the payment intent id; delivered twice it pays once', async () => {
    const { invoice, session } = await stripeCheckout();
    const remote = fake.complete(session.providerSessionId!);
    const event = completedEvent(remote);
    const first = delivery(event);
    const response = await postWebhook(first.payload, first.signature);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ received: true });

    const again = delivery(event);
    expect((await postWebhook(again.payload, again.signature)).statusCode).toBe(200);
    // Stripe also retries the same event as a new delivery id: still once.
    const retried = delivery(completedEvent(remote));
    expect((await postWebhook(retried.payload, retried.signature)).statusCode).toBe(200);

    const rows = await ctx.db.select().from(payments).where(eq(payments.invoiceId, invoice.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      status: 'succeeded',
      provider: 'stripe',
      providerPaymentId: remote.payment_intent,
      amountCents: 250_00,
      method: 'card',
      checkoutSessionId: session.id,
    });
    const [paid] = await ctx.db.select().from(invoices).where(eq(invoices.id, invoice.id));
    expect(paid).toMatchObject({ status: 'paid', amountPaidCents: 250_00 });
    const [completed] = await ctx.db.select().from(checkoutSessions).where(eq(checkoutSessions.id, session.id));
    expect(completed.status).toBe('completed');
  });

  it('Stripe returns the payer to the success page with our token: pending until the webhook, then the receipt', async () => {
    const { invoice, session, token } = await stripeCheckout();
    const receipt = () => ctx.app.inject({ method: 'GET', url: `/api/checkout/${session.token}/receipt` });
    expect((await receipt()).json()).toMatchObject({ state: 'pending', receipt: null, payPageUrl: `/p/${token}` });
    const event = delivery(completedEvent(fake.complete(session.providerSessionId!)));
    expect((await postWebhook(event.payload, event.signature)).statusCode).toBe(200);
    expect((await receipt()).json()).toMatchObject({
      state: 'paid',
      receipt: {
        amount: 250,
        method: 'Card',
        invoices: [{ number: invoice.number, total: 250, amountPaid: 250, amountDue: 0 }],
        amountDue: 0,
      },
      pdfUrl: `/api/checkout/${session.token}/receipt/pdf`,
    });
  });

  it('the same event delivered three times at once pays once', async () => {
    const { invoice, session } = await stripeCheckout();
    const event = completedEvent(fake.complete(session.providerSessionId!));
    const responses = await Promise.all(
      [0, 1, 2].map(() => {
        const signed = delivery(event);
        return postWebhook(signed.payload, signed.signature);
      }),
    );
    expect(responses.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    const rows = await ctx.db.select().from(payments).where(eq(payments.invoiceId, invoice.id));
    expect(rows).toHaveLength(1);
    const [paid] = await ctx.db.select().from(invoices).where(eq(invoices.id, invoice.id));
    expect(paid).toMatchObject({ status: 'paid', amountPaidCents: 250_00 });
  });

  it('a first payment through Stripe activates the sent contract and pays its first invoice', async () => {
    const client = publicClient(ctx.app);
    const { contract, token } = await createPayLinkContract(ctx.db, {
      status: 'sent',
      startDate: monthStartFromToday(2),
      lines: [{ unitPriceCents: 99_00 }],
      setupFeeCents: 1_00,
    });
    expect((await client.openCheckout(token)).statusCode).toBe(200);
    const [session] = await ctx.db.select().from(checkoutSessions).where(eq(checkoutSessions.contractId, contract.id));
    const remote = fake.complete(session.providerSessionId!);
    const signed = delivery(completedEvent(remote));
    expect((await postWebhook(signed.payload, signed.signature)).statusCode).toBe(200);
    const [active] = await ctx.db.select().from(contracts).where(eq(contracts.id, contract.id));
    expect(active.status).toBe('active');
    const issued = await ctx.db
      .select()
      .from(invoices)
      .where(eq(invoices.contractId, contract.id))
      .orderBy(asc(invoices.periodStart));
    expect(issued.map((i) => [i.periodStart, i.status, i.totalCents, i.amountPaidCents])).toEqual([
      [monthStartFromToday(2), 'paid', 100_00, 100_00],
    ]);
  });

  it('refuses a bad signature, a stale timestamp and a missing signature with 400, and changes nothing', async () => {
    const { invoice, session } = await stripeCheckout();
    const event = completedEvent(fake.complete(session.providerSessionId!));

    const wrongSecret = delivery(event, { secret: 'whsec_someone_else' });
    const bad = await postWebhook(wrongSecret.payload, wrongSecret.signature);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ message: 'Invalid webhook signature', code: 'BAD_REQUEST' });

    const good = delivery(event);
    const tampered = await postWebhook(good.payload.replace('"paid"', '"unpaid"'), good.signature);
    expect(tampered.statusCode).toBe(400);

    const stale = delivery(event, { timestamp: Math.floor(Date.now() / 1000) - 10 * 60 });
    const old = await postWebhook(stale.payload, stale.signature);
    expect(old.statusCode).toBe(400);
    expect(old.json().message).toBe('Webhook timestamp outside the tolerance zone');

    const missing = await postWebhook(good.payload);
    expect(missing.statusCode).toBe(400);

    expect(await ctx.db.select().from(payments).where(eq(payments.invoiceId, invoice.id))).toHaveLength(0);
  });

  it('acknowledges events it does not act on, and sessions that are not ours', async () => {
    const other = delivery({
      id: 'evt_other',
      object: 'event',
      type: 'customer.created',
      data: { object: { id: 'cus_1' } },
    });
    expect((await postWebhook(other.payload, other.signature)).statusCode).toBe(200);
    const foreign = delivery(
      completedEvent({
        id: 'cs_test_not_ours',
        object: 'checkout.session',
        payment_status: 'paid',
        payment_intent: 'pi_not_ours',
        amount_total: 100,
        metadata: {},
      }),
    );
    expect((await postWebhook(foreign.payload, foreign.signature)).statusCode).toBe(200);
  });

  it('checkout.session.expired closes our session', async () => {
    const { session } = await stripeCheckout();
    const remote = { ...fake.sessions.get(session.providerSessionId!)!, status: 'expired' };
    const signed = delivery({ ...completedEvent(remote), type: 'checkout.session.expired' });
    expect((await postWebhook(signed.payload, signed.signature)).statusCode).toBe(200);
    const [row] = await ctx.db.select().from(checkoutSessions).where(eq(checkoutSessions.id, session.id));
    expect(row.status).toBe('expired');
  });
});

describe('refunds', () => {
  it('refunds a Stripe payment through the SDK (the handler the void route calls)', async () => {
    const handler = refundHandlerFor('stripe');
    expect(handler).toBeDefined();
    const before = fake.requests.length;
    await handler!(ctx.db, {
      id: 'payment-1',
      providerPaymentId: 'pi_refund_me',
      amountCents: 75_00,
    } as Parameters<NonNullable<typeof handler>>[1]);
    const call = fake.requests.slice(before).find((r) => r.path === '/v1/refunds')!;
    expect(call.form).toMatchObject({
      payment_intent: 'pi_refund_me',
      amount: '7500',
      reason: 'requested_by_customer',
    });
    expect(call.idempotencyKey).toBe('refund-pi_refund_me-7500');
  });

  it('the provider answers the refund id Stripe gives', async () => {
    const provider = createStripeProvider({
      secretKey: SECRET_KEY,
      webhookSecret: WEBHOOK_SECRET,
      apiBase: fake.baseUrl,
    });
    const refund = await provider.refund({ providerPaymentId: 'pi_other', amountCents: 12_34 });
    expect(refund.providerRefundId).toMatch(/^re_[0-9a-f]{24}$/);
  });
});

describe('without Stripe configured', () => {
  it('the webhook answers 404 and checkouts use the built-in provider', async () => {
    const plain = await buildTestApp({ config: { PUBLIC_URL: ORIGIN } });
    try {
      const signed = delivery({ id: 'evt_x', object: 'event', type: 'customer.created', data: { object: {} } });
      const response = await plain.app.inject({
        method: 'POST',
        url: '/api/webhooks/stripe',
        headers: { 'content-type': 'application/json', 'stripe-signature': signed.signature },
        payload: signed.payload,
      });
      expect(response.statusCode).toBe(404);
      const { token } = await createPayLinkContract(plain.db, {
        status: 'sent',
        startDate: monthStartFromToday(2),
        lines: [{ unitPriceCents: 10_00 }],
      });
      const opened = await publicClient(plain.app).openCheckout(token);
      expect(opened.json().checkoutUrl).toMatch(new RegExp(`^${ORIGIN}/checkout/`));
    } finally {
      await plain.close();
    }
  });
});

describe('Stripe Checkout and the insertion order (product.md section 15)', () => {
  it('opens no Checkout Session for a sent contract until its insertion order is accepted', async () => {
    const customer = await createTestCustomer(ctx.db, { email: 'stripe-io@example.test' });
    const product = await createTestProduct(ctx.db, { defaultPriceCents: 120_00 });
    const created = await ctx.injectAs('admin', {
      method: 'POST',
      url: '/api/contracts',
      payload: {
        customerId: customer.id,
        startDate: monthStartFromToday(3),
        termMonths: 2,
        paymentMode: 'pay_link',
        sendToCustomer: true,
        lineItems: [{ productId: product.id, quantity: 1, unitPrice: 120, discount: 0 }],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const { id, payLinkToken } = created.json();
    const client = publicClient(ctx.app);
    const before = fake.sessions.size;
    const refused = await client.openCheckout(payLinkToken);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain('Accept the insertion order before paying');
    expect(fake.sessions.size).toBe(before);
    expect(await ctx.db.select().from(checkoutSessions).where(eq(checkoutSessions.contractId, id))).toEqual([]);

    const [io] = await ctx.db.select().from(insertionOrders).where(eq(insertionOrders.contractId, id));
    const signed = await ctx.app.inject({
      method: 'POST',
      url: `/api/io/${io.token}/accept`,
      payload: { signerName: 'Stripe Buyer', agree: true },
    });
    expect(signed.statusCode, signed.body).toBe(200);
    const opened = await client.openCheckout(payLinkToken);
    expect(opened.statusCode, opened.body).toBe(200);
    expect(fake.sessions.size).toBe(before + 1);
    const [session] = await ctx.db.select().from(checkoutSessions).where(eq(checkoutSessions.contractId, id));
    expect(session).toMatchObject({ provider: 'stripe', amountCents: 120_00 });
  });
});
