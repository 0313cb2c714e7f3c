import { and, asc, eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  auditEvents,
  autopayAttempts,
  checkoutSessions,
  customers,
  invoices,
  outboxEmails,
  paymentMethods,
  paymentSetupLinks,
  payments,
} from '../../db/schema';
import { buildTestApp, type TestContext } from '../../test/app';
import { setTaxSettings } from '../../test/billing-factories';
import { createTestCustomer } from '../../test/catalog-factories';
import { plusDays, today } from '../../test/dates';
import { createTestUser } from '../../test/factories';
import { asDelivered } from '../../test/outbox';
import { card, createPayLinkContract, nextAddress, publicClient } from '../../test/payment-factories';
import { type FakePaymentMethodInput, type FakeStripe, startFakeStripe } from '../../test/stripe-fake';
import { runBilling } from '../billing/billing-run';

/**
 * Autopay with Stripe configured (product.md section 18, decision 057), through the official SDK against the
 * local fake of Stripe's API, with webhooks signed by the SDK's test-header helper: a method saved through
 * Checkout in setup mode and its signed `checkout.session.completed` (replayed: one method), off-session
 * PaymentIntents by the attempt's idempotency key (succeeded, insufficient funds, expired card), a bank debit
 * settled by its `payment_intent.succeeded` (replayed: one payment), and the card updater's
 * `payment_method.updated`; and a Pay Now checkout in payment mode that offers Stripe's own "Save payment details"
 * box, whose card is recorded only when the customer ticked it. Expected values are literals.
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
});
afterAll(async () => {
  await ctx.close();
  await fake.close();
});
beforeEach(async () => {
  await setTaxSettings(ctx.db, { defaultTaxRate: 0, taxIncluded: false, taxLabel: 'Tax' });
});

let eventCount = 0;
const stripeEvent = (type: string, object: object) => ({
  id: `evt_test_${++eventCount}_${Date.now()}`,
  object: 'event',
  type,
  api_version: '2025-01-01',
  created: Math.floor(Date.now() / 1000),
  data: { object },
});

/** Delivers an event as Stripe does: the JSON body signed in its Stripe-Signature header. */
async function deliver(event: object) {
  const payload = JSON.stringify(event);
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/webhooks/stripe',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    payload,
  });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.json()).toEqual({ received: true });
}

const visa = (id: string, last4 = '4242'): FakePaymentMethodInput => ({
  id,
  type: 'card',
  card: { brand: 'visa', last4, exp_month: 12, exp_year: 2030, fingerprint: `fp_${id}` },
  billing_details: { name: 'Dana Ferro', email: null },
});

let methodCount = 0;
const newMethodId = () => `pm_test_${++methodCount}_${Date.now()}`;

async function sendSetupLink(customerId: string): Promise<string> {
  const sent = await ctx.injectAs('finance', {
    method: 'POST',
    url: `/api/customers/${customerId}/payment-setup-link`,
  });
  expect(sent.statusCode, sent.body).toBe(200);
  const [customer] = await ctx.db.select().from(customers).where(eq(customers.id, customerId));
  const mails = (
    await ctx.db.select().from(outboxEmails).where(eq(outboxEmails.to, customer!.email)).orderBy(asc(outboxEmails.id))
  ).map(asDelivered);
  const text = mails.filter((m) => m.subject.startsWith('Set up automatic payment')).at(-1)!.text;
  return new RegExp(`${ORIGIN}/setup/([A-Za-z0-9_-]+)`).exec(text)![1]!;
}

const sessionIdOf = (url: string) => url.split('/').pop()!;

/**
 * The set-up page with Stripe: the consent ticked on our page, Stripe's page in setup mode, the customer saves
 * the method there, and Stripe's signed `checkout.session.completed` arrives. Answers the token and the event.
 */
async function saveWithStripe(customerId: string, method: FakePaymentMethodInput) {
  const token = await sendSetupLink(customerId);
  const started = await ctx.app.inject({
    method: 'POST',
    url: `/api/setup/${token}/stripe`,
    payload: { consent: true, makeDefault: true },
    remoteAddress: '10.42.0.9',
    headers: { 'user-agent': 'Autopay Stripe browser' },
  });
  expect(started.statusCode, started.body).toBe(200);
  const url = started.json().url as string;
  expect(url).toMatch(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_/);
  const completed = fake.completeSetup(sessionIdOf(url), method);
  const event = stripeEvent('checkout.session.completed', completed);
  await deliver(event);
  return { token, event, session: completed };
}

/** A pay-link customer with one issued $120.00 invoice of Oct 20, 2026, due Oct 27 (long past: due now). */
async function customerWithOpenInvoice(name: string) {
  const customer = await createTestCustomer(ctx.db, {
    name,
    email: `${name.toLowerCase().replace(/\W+/g, '-')}@example.test`,
  });
  const { contract, token } = await createPayLinkContract(ctx.db, {
    status: 'active',
    customerId: customer.id,
    startDate: '2026-10-20',
    termMonths: 1,
    lines: [{ unitPriceCents: 120_00 }],
  });
  await runBilling(ctx.db, { contractId: contract.id, asOf: '2026-10-20', baseUrl: ORIGIN });
  const [invoice] = await ctx.db.select().from(invoices).where(eq(invoices.contractId, contract.id));
  return { customer, contract, token, invoice: invoice! };
}

const methodsOf = (customerId: string) =>
  ctx.db.select().from(paymentMethods).where(eq(paymentMethods.customerId, customerId));
const attemptsOf = (invoiceId: string) =>
  ctx.db
    .select()
    .from(autopayAttempts)
    .where(eq(autopayAttempts.invoiceId, invoiceId))
    .orderBy(asc(autopayAttempts.attemptNumber));
const paymentsOf = (invoiceId: string) => ctx.db.select().from(payments).where(eq(payments.invoiceId, invoiceId));
const invoiceNow = async (id: string) => (await ctx.db.select().from(invoices).where(eq(invoices.id, id)))[0]!;
const intentRequests = (invoiceId: string) =>
  fake.requests.filter((r) => r.path === '/v1/payment_intents' && r.form['metadata[invoice_id]'] === invoiceId);

describe('saving a method with Stripe (Checkout in setup mode)', () => {
  it('the set-up page leads to Stripe; the signed webhook saves the card once with its consent, replayed or not', async () => {
    const customer = await createTestCustomer(ctx.db, {
      name: 'Ferro Stripe Tiles',
      email: 'ferro-stripe@example.test',
    });
    const token = await sendSetupLink(customer.id);

    const page = await ctx.app.inject({ method: 'GET', url: `/api/setup/${token}`, remoteAddress: nextAddress() });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json()).toMatchObject({ provider: 'stripe', customerName: 'Ferro Stripe Tiles', methods: [] });
    // With Stripe, no card number is typed on our page.
    const typed = await ctx.app.inject({
      method: 'POST',
      url: `/api/setup/${token}`,
      payload: { ...card(), consent: true, makeDefault: true },
      remoteAddress: nextAddress(),
    });
    expect(typed.statusCode).toBe(409);
    expect(typed.json().message).toBe('Cards are saved on Stripe’s secure page: continue to Stripe to save yours.');
    const noConsent = await ctx.app.inject({
      method: 'POST',
      url: `/api/setup/${token}/stripe`,
      payload: { consent: false },
      remoteAddress: nextAddress(),
    });
    expect(noConsent.statusCode).toBe(400);
    expect(noConsent.json().message).toBe('Please agree to automatic payments to save this card');

    const started = await ctx.app.inject({
      method: 'POST',
      url: `/api/setup/${token}/stripe`,
      payload: { consent: true, makeDefault: true },
      remoteAddress: '10.42.0.7',
      headers: { 'user-agent': 'Autopay Stripe browser' },
    });
    expect(started.statusCode, started.body).toBe(200);
    const [link] = await ctx.db.select().from(paymentSetupLinks).where(eq(paymentSetupLinks.customerId, customer.id));
    const [created] = fake.requests.filter(
      (r) => r.path === '/v1/customers' && r.form['metadata[autopay_customer_id]'] === customer.id,
    );
    expect(created).toMatchObject({
      idempotencyKey: `customer-${customer.id}`,
      form: { name: 'Ferro Stripe Tiles', email: 'ferro-stripe@example.test' },
    });
    const [stored] = await ctx.db.select().from(customers).where(eq(customers.id, customer.id));
    expect(stored!.stripeCustomerId).toMatch(/^cus_[0-9a-f]{24}$/);
    const session = fake.sessions.get(sessionIdOf(started.json().url))!;
    const call = fake.requests.find(
      (r) => r.path === '/v1/checkout/sessions' && r.form.client_reference_id === link!.id,
    )!;
    expect(call.idempotencyKey).toMatch(new RegExp(`^setup-link-${link!.id}-[0-9a-f]{16}$`));
    expect(call.form).toMatchObject({
      mode: 'setup',
      currency: 'usd',
      customer: stored!.stripeCustomerId,
      'metadata[autopay_customer_id]': customer.id,
      'metadata[autopay_setup_link_id]': link!.id,
      'metadata[consent_ip]': '10.42.0.7',
      'metadata[consent_user_agent]': 'Autopay Stripe browser',
      'metadata[make_default]': 'true',
      success_url: `${ORIGIN}/setup/${token}?saved=stripe`,
      cancel_url: `${ORIGIN}/setup/${token}`,
    });
    expect(call.form['custom_text[submit][message]']).toMatch(/^I authorise .+ to charge this payment method/);

    const methodId = newMethodId();
    const completed = fake.completeSetup(session.id, visa(methodId));
    const event = stripeEvent('checkout.session.completed', completed);
    await deliver(event);
    await deliver(event);
    await deliver(stripeEvent('checkout.session.completed', completed));

    const methods = await methodsOf(customer.id);
    expect(methods).toHaveLength(1);
    expect(methods[0]).toMatchObject({
      provider: 'stripe',
      providerMethodId: methodId,
      providerCustomerId: stored!.stripeCustomerId,
      kind: 'card',
      brand: 'visa',
      last4: '4242',
      expMonth: 12,
      expYear: 2030,
      fingerprint: `fp_${methodId}`,
      isDefault: true,
      status: 'active',
      source: 'setup_link',
      consentName: 'Dana Ferro',
      consentEmail: 'ferro-stripe@example.test',
      consentIp: '10.42.0.7',
      consentUserAgent: 'Autopay Stripe browser',
    });
    expect(methods[0]!.consentText).toMatch(/^I authorise .+ to charge this payment method/);
    expect(
      fake.requests.filter((r) => r.method === 'GET' && r.path === `/v1/payment_methods/${methodId}`),
    ).toHaveLength(1);
    const [after] = await ctx.db.select().from(customers).where(eq(customers.id, customer.id));
    expect(after!.autopayEnabled).toBe(true);
    const [spent] = await ctx.db.select().from(paymentSetupLinks).where(eq(paymentSetupLinks.id, link!.id));
    expect(spent!.usedAt).not.toBeNull();
    const gone = await ctx.app.inject({ method: 'GET', url: `/api/setup/${token}`, remoteAddress: nextAddress() });
    expect(gone.statusCode).toBe(410);

    // The portal's "Add a payment method" goes to Stripe at once, for the same Stripe customer.
    const client = await ctx.signIn(await createTestUser(ctx.db, { role: 'client', customerId: customer.id }));
    const portal = await ctx.injectAs(client, { method: 'POST', url: '/api/client/payment-methods/setup' });
    expect(portal.statusCode, portal.body).toBe(200);
    expect(portal.json().url).toMatch(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_/);
    const portalSession = fake.sessions.get(sessionIdOf(portal.json().url))!;
    expect(portalSession).toMatchObject({
      mode: 'setup',
      customer: stored!.stripeCustomerId,
      success_url: `${ORIGIN}/portal/payment-methods?saved=stripe`,
      cancel_url: `${ORIGIN}/portal/payment-methods`,
    });
    expect(portalSession.metadata.consent_user_id).toBe(client.id);
    expect(
      fake.requests.filter(
        (r) => r.path === '/v1/customers' && r.form['metadata[autopay_customer_id]'] === customer.id,
      ),
    ).toHaveLength(1);
  });

  it('a US bank account is saved as one: the bank name and last 4', async () => {
    const customer = await createTestCustomer(ctx.db, { name: 'Bank Saver', email: 'bank-saver@example.test' });
    const methodId = newMethodId();
    await saveWithStripe(customer.id, {
      id: methodId,
      type: 'us_bank_account',
      us_bank_account: {
        bank_name: 'STRIPE TEST BANK',
        last4: '6789',
        fingerprint: 'fp_bank',
        account_type: 'checking',
      },
      billing_details: { name: 'Bank Saver', email: null },
    });
    expect(await methodsOf(customer.id)).toMatchObject([
      { kind: 'us_bank_account', brand: 'STRIPE TEST BANK', last4: '6789', expMonth: null, expYear: null },
    ]);
  });
});

describe('off-session charges with Stripe', () => {
  it('a PaymentIntent off-session with the attempt key pays the invoice', async () => {
    const { customer, invoice } = await customerWithOpenInvoice('Stripe Payer One');
    const methodId = newMethodId();
    await saveWithStripe(customer.id, visa(methodId));

    const [attempt] = await attemptsOf(invoice.id);
    expect(attempt).toMatchObject({ attemptNumber: 1, status: 'succeeded', amountCents: 120_00 });
    const [request] = intentRequests(invoice.id);
    const [stored] = await ctx.db.select().from(customers).where(eq(customers.id, customer.id));
    expect(request!.idempotencyKey).toBe(`invoice-${invoice.id}-attempt-1`);
    expect(request!.form).toMatchObject({
      amount: '12000',
      currency: 'usd',
      customer: stored!.stripeCustomerId,
      payment_method: methodId,
      off_session: 'true',
      confirm: 'true',
      'metadata[autopay_attempt_id]': attempt!.id,
      'metadata[invoice_id]': invoice.id,
    });
    expect(await paymentsOf(invoice.id)).toMatchObject([
      {
        amountCents: 120_00,
        method: 'card_on_file',
        provider: 'stripe',
        providerPaymentId: attempt!.providerPaymentId,
        cardBrand: 'visa',
        cardLast4: '4242',
      },
    ]);
    expect(attempt!.providerPaymentId).toMatch(/^pi_/);
    expect((await invoiceNow(invoice.id)).status).toBe('paid');

    // Stripe's own payment_intent.succeeded for it changes nothing.
    await deliver(
      stripeEvent('payment_intent.succeeded', {
        id: attempt!.providerPaymentId,
        object: 'payment_intent',
        status: 'succeeded',
        amount: 120_00,
        metadata: { autopay_attempt_id: attempt!.id, invoice_id: invoice.id },
      }),
    );
    expect(await paymentsOf(invoice.id)).toHaveLength(1);
  });

  it('"Charge now" whose payment_intent.succeeded arrives before Stripe answers: one payment, and it says paid', async () => {
    const customer = await createTestCustomer(ctx.db, { name: 'Stripe Early Webhook', email: 'early@example.test' });
    const methodId = newMethodId();
    await saveWithStripe(customer.id, visa(methodId));
    const { contract } = await createPayLinkContract(ctx.db, {
      status: 'active',
      customerId: customer.id,
      startDate: '2026-10-20',
      termMonths: 1,
      lines: [{ unitPriceCents: 95_00 }],
    });
    await runBilling(ctx.db, { contractId: contract.id, asOf: '2026-10-20', baseUrl: ORIGIN });
    const [invoice] = await ctx.db.select().from(invoices).where(eq(invoices.contractId, contract.id));
    expect(await attemptsOf(invoice!.id), 'billing alone charges nothing').toEqual([]);
    // Stripe's event for the charge reaches the webhook before the charge's own answer reaches us.
    fake.beforeAnswering(methodId, (intent) =>
      deliver(
        stripeEvent('payment_intent.succeeded', {
          id: intent.id,
          object: 'payment_intent',
          status: 'succeeded',
          amount: 95_00,
          metadata: intent.metadata,
        }),
      ),
    );

    const charged = await ctx.injectAs('finance', { method: 'POST', url: `/api/invoices/${invoice!.id}/charge` });
    expect(charged.statusCode, charged.body).toBe(200);
    expect(charged.json().autopay.attempts).toEqual([
      expect.objectContaining({ number: 1, status: 'succeeded', amount: 95 }),
    ]);
    expect(await paymentsOf(invoice!.id)).toMatchObject([{ amountCents: 95_00, status: 'succeeded' }]);
    expect(intentRequests(invoice!.id)).toHaveLength(1);
    expect((await invoiceNow(invoice!.id)).status).toBe('paid');
  });

  it('declined for insufficient funds: the attempt fails soft and is retried tomorrow', async () => {
    const { customer, invoice } = await customerWithOpenInvoice('Stripe Short Funds');
    const methodId = newMethodId();
    fake.scriptCharges(methodId, {
      code: 'card_declined',
      declineCode: 'insufficient_funds',
      message: 'Your card has insufficient funds.',
    });
    await saveWithStripe(customer.id, visa(methodId));

    const attempts = await attemptsOf(invoice.id);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({
      attemptNumber: 1,
      status: 'failed',
      declineKind: 'soft',
      declineCode: 'insufficient_funds',
      reason: 'Your card has insufficient funds.',
      retryOn: plusDays(today(), 1),
    });
    expect(attempts[0]!.providerPaymentId).toMatch(/^pi_/);
    expect(intentRequests(invoice.id).map((r) => r.idempotencyKey)).toEqual([`invoice-${invoice.id}-attempt-1`]);
    const [method] = await methodsOf(customer.id);
    expect(method!.status).toBe('active');
    expect(await paymentsOf(invoice.id)).toMatchObject([{ status: 'failed', amountCents: 120_00 }]);
  });

  it('declined as an expired card: the method is marked expired and nothing is retried', async () => {
    const { customer, invoice } = await customerWithOpenInvoice('Stripe Expired Card');
    const methodId = newMethodId();
    fake.scriptCharges(methodId, { code: 'expired_card', message: 'Your card has expired.' });
    await saveWithStripe(customer.id, visa(methodId));

    expect(await attemptsOf(invoice.id)).toMatchObject([
      {
        status: 'failed',
        declineKind: 'hard',
        declineCode: 'expired_card',
        reason: 'Your card has expired.',
        retryOn: null,
      },
    ]);
    expect(await methodsOf(customer.id)).toMatchObject([{ status: 'expired' }]);
    expect((await invoiceNow(invoice.id)).status).not.toBe('paid');
  });

  it('needing authentication: the attempt asks the customer', async () => {
    const { customer, invoice } = await customerWithOpenInvoice('Stripe Needs Auth');
    const methodId = newMethodId();
    fake.scriptCharges(methodId, 'authentication_required');
    await saveWithStripe(customer.id, visa(methodId));
    expect(await attemptsOf(invoice.id)).toMatchObject([
      { status: 'requires_action', declineKind: 'authentication', declineCode: 'authentication_required' },
    ]);
  });

  it('a bank debit processing is settled by payment_intent.succeeded once, however often it is delivered', async () => {
    const { customer, invoice } = await customerWithOpenInvoice('Stripe Bank Debit');
    const methodId = newMethodId();
    fake.scriptCharges(methodId, 'processing');
    await saveWithStripe(customer.id, {
      id: methodId,
      type: 'us_bank_account',
      us_bank_account: {
        bank_name: 'STRIPE TEST BANK',
        last4: '6789',
        fingerprint: 'fp_ach',
        account_type: 'checking',
      },
      billing_details: { name: 'Bank Debtor', email: null },
    });

    const [pending] = await attemptsOf(invoice.id);
    expect(pending).toMatchObject({ attemptNumber: 1, status: 'pending', amountCents: 120_00 });
    expect(pending!.providerPaymentId).toMatch(/^pi_/);
    expect(await paymentsOf(invoice.id)).toEqual([]);

    const succeeded = stripeEvent('payment_intent.succeeded', {
      id: pending!.providerPaymentId,
      object: 'payment_intent',
      status: 'succeeded',
      amount: 120_00,
      metadata: { autopay_attempt_id: pending!.id, invoice_id: invoice.id },
    });
    await deliver(succeeded);
    await deliver(succeeded);
    await deliver({ ...succeeded, id: `${succeeded.id}_again` });

    expect(await paymentsOf(invoice.id)).toMatchObject([
      {
        amountCents: 120_00,
        method: 'bank_debit',
        provider: 'stripe',
        providerPaymentId: pending!.providerPaymentId,
        status: 'succeeded',
      },
    ]);
    expect(await attemptsOf(invoice.id)).toMatchObject([{ status: 'succeeded' }]);
    expect((await invoiceNow(invoice.id)).status).toBe('paid');
    expect(intentRequests(invoice.id)).toHaveLength(1);
  });

  it('a bank debit that fails later is settled by payment_intent.payment_failed once: a soft decline, retried', async () => {
    const { customer, invoice } = await customerWithOpenInvoice('Stripe Debit Bounced');
    const methodId = newMethodId();
    fake.scriptCharges(methodId, 'processing');
    await saveWithStripe(customer.id, {
      id: methodId,
      type: 'us_bank_account',
      us_bank_account: {
        bank_name: 'STRIPE TEST BANK',
        last4: '2227',
        fingerprint: 'fp_ach3',
        account_type: 'checking',
      },
      billing_details: { name: 'Bounced Debtor', email: null },
    });
    const [pending] = await attemptsOf(invoice.id);
    const failed = stripeEvent('payment_intent.payment_failed', {
      id: pending!.providerPaymentId,
      object: 'payment_intent',
      status: 'requires_payment_method',
      amount: 120_00,
      metadata: { autopay_attempt_id: pending!.id, invoice_id: invoice.id },
      last_payment_error: {
        type: 'invalid_request_error',
        code: 'insufficient_funds',
        message: 'The customer’s account has insufficient funds to cover this payment.',
      },
    });
    await deliver(failed);
    await deliver(failed);
    expect(await attemptsOf(invoice.id)).toMatchObject([
      {
        status: 'failed',
        declineKind: 'soft',
        declineCode: 'insufficient_funds',
        reason: 'The customer’s account has insufficient funds to cover this payment.',
        retryOn: plusDays(today(), 1),
      },
    ]);
    expect(await paymentsOf(invoice.id)).toMatchObject([
      { status: 'failed', method: 'bank_debit', amountCents: 120_00 },
    ]);
  });

  it('a bank debit that succeeds after a check paid the invoice is refunded through Stripe', async () => {
    const { customer, invoice } = await customerWithOpenInvoice('Stripe Debit Raced');
    const methodId = newMethodId();
    fake.scriptCharges(methodId, 'processing');
    await saveWithStripe(customer.id, {
      id: methodId,
      type: 'us_bank_account',
      us_bank_account: {
        bank_name: 'STRIPE TEST BANK',
        last4: '1116',
        fingerprint: 'fp_ach2',
        account_type: 'checking',
      },
      billing_details: { name: 'Raced Debtor', email: null },
    });
    const [pending] = await attemptsOf(invoice.id);
    const check = await ctx.injectAs('finance', {
      method: 'POST',
      url: `/api/invoices/${invoice.id}/payments`,
      payload: { amount: 120, method: 'check', reference: 'Check #77' },
    });
    expect(check.statusCode, check.body).toBe(201);

    await deliver(
      stripeEvent('payment_intent.succeeded', {
        id: pending!.providerPaymentId,
        object: 'payment_intent',
        status: 'succeeded',
        amount: 120_00,
        metadata: { autopay_attempt_id: pending!.id, invoice_id: invoice.id },
      }),
    );
    expect(await attemptsOf(invoice.id)).toMatchObject([{ status: 'skipped' }]);
    const refunds = fake.requests.filter(
      (r) => r.path === '/v1/refunds' && r.form.payment_intent === pending!.providerPaymentId,
    );
    expect(refunds).toHaveLength(1);
    expect(refunds[0]!.form.amount).toBe('12000');
    expect(refunds[0]!.idempotencyKey).toBe(`refund-${pending!.providerPaymentId}-12000`);
  });
});

describe("the card updater's payment_method.updated", () => {
  it('refreshes brand, last 4 and expiry, makes an expired card active again and retries its failed invoice', async () => {
    const { customer, invoice } = await customerWithOpenInvoice('Stripe Updated Card');
    const methodId = newMethodId();
    fake.scriptCharges(methodId, { code: 'expired_card', message: 'Your card has expired.' });
    await saveWithStripe(customer.id, visa(methodId));
    expect(await methodsOf(customer.id)).toMatchObject([{ status: 'expired', last4: '4242' }]);

    // The issuer sent the new card: Stripe's updater changed the method, and it charges again.
    fake.scriptCharges(methodId, 'succeeded');
    await deliver(
      stripeEvent('payment_method.updated', {
        id: methodId,
        object: 'payment_method',
        type: 'card',
        customer: null,
        card: { brand: 'mastercard', last4: '4444', exp_month: 3, exp_year: 2031, fingerprint: 'fp_new' },
        billing_details: { name: 'Dana Ferro', email: null },
      }),
    );

    expect(await methodsOf(customer.id)).toMatchObject([
      {
        brand: 'mastercard',
        last4: '4444',
        expMonth: 3,
        expYear: 2031,
        status: 'active',
        fingerprint: `fp_${methodId}`,
      },
    ]);
    expect(await attemptsOf(invoice.id)).toMatchObject([
      { attemptNumber: 1, status: 'failed' },
      { attemptNumber: 2, status: 'succeeded' },
    ]);
    expect(intentRequests(invoice.id).map((r) => r.idempotencyKey)).toEqual([
      `invoice-${invoice.id}-attempt-1`,
      `invoice-${invoice.id}-attempt-2`,
    ]);
    expect((await invoiceNow(invoice.id)).status).toBe('paid');
    const [audit] = await ctx.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, 'payment_method.updated'))
      .orderBy(asc(auditEvents.createdAt));
    expect(JSON.stringify(audit)).not.toContain('fp_');
    expect(audit!.after).toMatchObject({
      method: 'Mastercard •••• 4444',
      expMonth: 3,
      expYear: 2031,
      status: 'active',
    });
  });
});

describe("a Pay Now checkout with Stripe: the card saved when the customer ticks Stripe's save box", () => {
  const CONSENT =
    'I authorise AdCRM Media to charge this payment method for the invoices of my contracts when they are due, ' +
    'until I turn autopay off or remove the method.';

  /** The pay link's Pay Now of a customer with its $120.00 invoice: our session, Stripe's, and the request for it. */
  async function payNow(name: string) {
    const due = await customerWithOpenInvoice(name);
    const opened = await publicClient(ctx.app).openCheckout(due.token);
    expect(opened.statusCode, opened.body).toBe(200);
    const [session] = await ctx.db
      .select()
      .from(checkoutSessions)
      .where(eq(checkoutSessions.contractId, due.contract.id));
    expect(opened.json().checkoutUrl).toBe(`https://checkout.stripe.test/c/pay/${session!.providerSessionId}`);
    const request = fake.requests.find(
      (r) => r.path === '/v1/checkout/sessions' && r.form.client_reference_id === session!.id,
    )!;
    return { ...due, session: session!, request };
  }
  const stripeCustomerOf = async (customerId: string) =>
    (await ctx.db.select().from(customers).where(eq(customers.id, customerId)))[0]!.stripeCustomerId;
  const autopayOf = async (customerId: string) =>
    (await ctx.db.select().from(customers).where(eq(customers.id, customerId)))[0]!.autopayEnabled;

  it("opens Stripe Checkout for the customer's Stripe customer, with Stripe's save box and the consent beside Pay", async () => {
    const { customer, session, request } = await payNow('Offer Tiles');
    const stripeCustomer = await stripeCustomerOf(customer.id);
    expect(stripeCustomer).toMatch(/^cus_[0-9a-f]{24}$/);
    const made = fake.requests.filter(
      (r) => r.path === '/v1/customers' && r.form['metadata[autopay_customer_id]'] === customer.id,
    );
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({
      idempotencyKey: `customer-${customer.id}`,
      form: { name: 'Offer Tiles', email: 'offer-tiles@example.test' },
    });
    expect(request.idempotencyKey).toBe(`checkout-${session.id}`);
    expect(request.form).toMatchObject({
      mode: 'payment',
      customer: stripeCustomer,
      'saved_payment_method_options[payment_method_save]': 'enabled',
      'custom_text[submit][message]': `If you save your card: ${CONSENT}`,
      'line_items[0][price_data][unit_amount]': '12000',
      'metadata[checkout_token]': session.token,
    });
    // Stripe takes a customer or an e-mail, not both: the customer's e-mail is its Stripe customer's.
    expect(request.form.customer_email).toBeUndefined();
    expect(fake.sessions.get(session.providerSessionId!)).toMatchObject({
      mode: 'payment',
      customer: stripeCustomer,
      customer_email: null,
      saved_payment_method_options: { payment_method_save: 'enabled' },
    });
  });

  it('the box ticked: the payment as before, then the card on file with the consent offered, and autopay on', async () => {
    const { customer, invoice, session } = await payNow('Ticked Tiles');
    const stripeCustomer = await stripeCustomerOf(customer.id);
    expect(await autopayOf(customer.id)).toBe(false);
    const methodId = newMethodId();
    const completed = fake.complete(session.providerSessionId!, {
      saveCard: true,
      paymentMethod: visa(methodId, '1881'),
    });
    const event = stripeEvent('checkout.session.completed', completed);
    await deliver(event);

    expect(await paymentsOf(invoice.id)).toMatchObject([
      {
        status: 'succeeded',
        provider: 'stripe',
        providerPaymentId: completed.payment_intent,
        amountCents: 120_00,
        method: 'card',
        checkoutSessionId: session.id,
      },
    ]);
    expect(await invoiceNow(invoice.id)).toMatchObject({ status: 'paid', amountPaidCents: 120_00 });
    const methods = await methodsOf(customer.id);
    expect(methods).toHaveLength(1);
    expect(methods[0]).toMatchObject({
      provider: 'stripe',
      providerMethodId: methodId,
      providerCustomerId: stripeCustomer,
      kind: 'card',
      brand: 'visa',
      last4: '1881',
      expMonth: 12,
      expYear: 2030,
      fingerprint: `fp_${methodId}`,
      isDefault: true,
      status: 'active',
      source: 'checkout',
      consentText: CONSENT,
      consentUserId: null,
      consentName: 'Dana Ferro',
      consentEmail: 'ticked-tiles@example.test',
      consentIp: null,
      consentUserAgent: null,
      consentAt: new Date(event.created * 1000),
    });
    expect(await autopayOf(customer.id)).toBe(true);
    // The invoice was paid by the checkout: nothing is charged to the card now.
    expect(await attemptsOf(invoice.id)).toEqual([]);
    expect(
      fake.requests.filter((r) => r.method === 'GET' && r.path === `/v1/payment_intents/${completed.payment_intent}`),
    ).toHaveLength(1);
    const [audit] = await ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'payment_method.saved'), eq(auditEvents.entityId, customer.id)));
    expect(audit!.after).toEqual({
      paymentMethodId: methods[0]!.id,
      method: 'Visa •••• 1881',
      source: 'checkout',
      isDefault: true,
    });
  });

  it('the box not ticked: the payment as before and no method (nor one kept unticked, or of another customer)', async () => {
    const { customer, invoice, session } = await payNow('Unticked Tiles');
    const stripeCustomer = await stripeCustomerOf(customer.id);
    const methodId = newMethodId();
    const completed = fake.complete(session.providerSessionId!, { paymentMethod: visa(methodId) });
    await deliver(stripeEvent('checkout.session.completed', completed));
    expect(await paymentsOf(invoice.id)).toMatchObject([
      { status: 'succeeded', providerPaymentId: completed.payment_intent, amountCents: 120_00 },
    ]);
    expect(await methodsOf(customer.id)).toEqual([]);
    expect(await autopayOf(customer.id)).toBe(false);

    // Attached to the customer without the tick (allow_redisplay `limited`): still not the customer's consent.
    fake.paymentMethods.get(methodId)!.customer = stripeCustomer;
    await deliver(stripeEvent('checkout.session.completed', completed));
    expect(await methodsOf(customer.id)).toEqual([]);
    // Saved with a tick, but to another Stripe customer than this checkout's: not this customer's card.
    Object.assign(fake.paymentMethods.get(methodId)!, { customer: 'cus_someone_else', allow_redisplay: 'always' });
    await deliver(stripeEvent('checkout.session.completed', completed));
    expect(await methodsOf(customer.id)).toEqual([]);
    expect(await autopayOf(customer.id)).toBe(false);
    expect(await paymentsOf(invoice.id)).toHaveLength(1);
  });

  it('the signed completion replayed, again as a new delivery and three at once: one method, one payment', async () => {
    const { customer, invoice, session } = await payNow('Replayed Tiles');
    const methodId = newMethodId();
    const completed = fake.complete(session.providerSessionId!, { saveCard: true, paymentMethod: visa(methodId) });
    const event = stripeEvent('checkout.session.completed', completed);
    await deliver(event);
    await deliver(event);
    await deliver(stripeEvent('checkout.session.completed', completed));
    await Promise.all([deliver(event), deliver(event), deliver(event)]);

    expect(await methodsOf(customer.id)).toMatchObject([{ providerMethodId: methodId, source: 'checkout' }]);
    expect(await paymentsOf(invoice.id)).toMatchObject([{ status: 'succeeded', amountCents: 120_00 }]);
    expect(await invoiceNow(invoice.id)).toMatchObject({ status: 'paid', amountPaidCents: 120_00 });
    const saved = await ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'payment_method.saved'), eq(auditEvents.entityId, customer.id)));
    expect(saved).toHaveLength(1);
  });

  it('Stripe failing to make the customer: the checkout opens as before, without the offer', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.message);
    process.on('warning', onWarning);
    const undo = fake.failRequests('POST /v1/customers');
    let opened: Awaited<ReturnType<typeof payNow>>;
    try {
      opened = await payNow('Unoffered Tiles');
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      undo();
      process.off('warning', onWarning);
    }
    const { customer, contract, invoice, session, request } = opened;
    expect(
      fake.requests.filter((r) => r.path === '/v1/customers' && r.form['metadata[autopay_customer_id]'] === customer.id)
        .length,
    ).toBeGreaterThan(0);
    expect(await stripeCustomerOf(customer.id)).toBeNull();
    expect(request.form).toMatchObject({ mode: 'payment', customer_email: 'unoffered-tiles@example.test' });
    expect(request.form.customer).toBeUndefined();
    expect(request.form['saved_payment_method_options[payment_method_save]']).toBeUndefined();
    expect(request.form['custom_text[submit][message]']).toBeUndefined();
    expect(warnings).toEqual([
      `A Stripe checkout of contract ${contract.id} opens without the offer to save its card: StripeAPIError`,
    ]);

    // Paid there (no box to tick): the payment is recorded, and no method.
    const completed = fake.complete(session.providerSessionId!, { saveCard: true });
    await deliver(stripeEvent('checkout.session.completed', completed));
    expect(await paymentsOf(invoice.id)).toMatchObject([{ status: 'succeeded', amountCents: 120_00 }]);
    expect(await methodsOf(customer.id)).toEqual([]);
  });
});
