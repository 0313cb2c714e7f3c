import { TEST_CARDS } from '@shared/contracts/checkout';
import { and, asc, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  autopayAttempts,
  customers,
  invoices,
  notifications,
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
import { card, createPayLinkContract, nextAddress } from '../../test/payment-factories';
import { runBilling } from '../billing/billing-run';
import { runDunning } from '../dunning/dunning.service';
import { runAutopayCharges } from './autopay-charges.service';
import { sendExpiryNotices } from './expiry-notices.service';

/**
 * Autopay through the API and the charge run (product.md section 18): saving a card by set-up link with its
 * consent, every outcome of the built-in test cards, the retry schedule on a pinned day, dunning held while
 * retries are pending, the client's and staff's routes and their refusals, and the expiry notices. Expected
 * figures and texts are literals.
 */

const ORIGIN = 'https://pay.example.test';
let ctx: TestContext;
const deps = () => ({ db: ctx.db, mailer: ctx.app.mailer, baseUrl: ORIGIN });

beforeAll(async () => {
  ctx = await buildTestApp({ config: { PUBLIC_URL: ORIGIN } });
});
afterAll(() => ctx.close());
beforeEach(async () => {
  await setTaxSettings(ctx.db, { defaultTaxRate: 0, taxIncluded: false, taxLabel: 'Tax' });
});

async function mailsTo(email: string) {
  const rows = await ctx.db
    .select()
    .from(outboxEmails)
    .where(eq(outboxEmails.to, email))
    .orderBy(asc(outboxEmails.createdAt), asc(outboxEmails.id));
  return rows.map(asDelivered);
}

const setupTokenIn = (text: string) => new RegExp(`${ORIGIN}/setup/([A-Za-z0-9_-]+)`).exec(text)?.[1] ?? null;

/** Finance e-mails the customer a set-up link; answers the link's token as the e-mail carries it. */
async function sendSetupLink(customerId: string): Promise<string> {
  const sent = await ctx.injectAs('finance', {
    method: 'POST',
    url: `/api/customers/${customerId}/payment-setup-link`,
  });
  expect(sent.statusCode, sent.body).toBe(200);
  const [customer] = await ctx.db.select().from(customers).where(eq(customers.id, customerId));
  const mails = (await mailsTo(customer!.email)).filter((m) => m.subject.startsWith('Set up automatic payment'));
  const token = setupTokenIn(mails.at(-1)!.text);
  expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  return token!;
}

const setup = (token: string, body: object, remoteAddress = nextAddress()) =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/setup/${token}`,
    payload: body,
    remoteAddress,
    headers: { 'user-agent': 'Autopay test browser' },
  });

const consented = (number: string) => ({ ...card(number), consent: true, makeDefault: true });

/** Saves a card for the customer through a set-up link (which charges what is due at once). */
async function saveCard(customerId: string, number: string) {
  const saved = await setup(await sendSetupLink(customerId), consented(number));
  expect(saved.statusCode, saved.body).toBe(200);
  return saved.json();
}

/** A pay-link customer with one issued $120.00 invoice of Oct 20, 2026, due Oct 27 (long past: due now). */
async function customerWithOpenInvoice(name: string) {
  const customer = await createTestCustomer(ctx.db, {
    name,
    email: `${name.toLowerCase().replace(/\W+/g, '-')}@example.test`,
  });
  const { contract } = await createPayLinkContract(ctx.db, {
    status: 'active',
    customerId: customer.id,
    startDate: '2026-10-20',
    termMonths: 1,
    lines: [{ unitPriceCents: 120_00 }],
  });
  await runBilling(ctx.db, { contractId: contract.id, asOf: '2026-10-20', baseUrl: ORIGIN });
  const [invoice] = await ctx.db.select().from(invoices).where(eq(invoices.contractId, contract.id));
  return { customer, contract, invoice: invoice! };
}

const attemptsOf = (invoiceId: string) =>
  ctx.db
    .select()
    .from(autopayAttempts)
    .where(eq(autopayAttempts.invoiceId, invoiceId))
    .orderBy(asc(autopayAttempts.attemptNumber));
const paymentsOf = (invoiceId: string) =>
  ctx.db.select().from(payments).where(eq(payments.invoiceId, invoiceId)).orderBy(asc(payments.createdAt));
const invoiceNow = async (id: string) => (await ctx.db.select().from(invoices).where(eq(invoices.id, id)))[0]!;

describe('a set-up link (POST /api/customers/{id}/payment-setup-link, /api/setup/{token})', () => {
  it('saves a card with its consent record once, never its number, and turns autopay on', async () => {
    const customer = await createTestCustomer(ctx.db, { name: 'Ferro Tiles', email: 'ferro@example.test' });
    const token = await sendSetupLink(customer.id);

    const page = await ctx.app.inject({ method: 'GET', url: `/api/setup/${token}`, remoteAddress: nextAddress() });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json()).toMatchObject({ customerName: 'Ferro Tiles', returnPath: null, methods: [] });
    expect(page.json().consentText).toMatch(
      /^I authorise .+ to charge this payment method for the invoices of my contracts/,
    );

    const noConsent = await setup(token, { ...card(TEST_CARDS.visa), consent: false });
    expect(noConsent.statusCode).toBe(400);
    expect(noConsent.json().message).toBe('Please agree to automatic payments to save this card');

    const declined = await setup(token, consented(TEST_CARDS.declined));
    expect(declined.statusCode).toBe(400);
    expect(declined.json().message).toBe('Your card was declined.');
    expect(await ctx.db.select().from(paymentMethods).where(eq(paymentMethods.customerId, customer.id))).toEqual([]);

    const saved = await setup(token, consented(TEST_CARDS.visa), '10.200.0.7');
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({
      autopayEnabled: true,
      method: { label: 'Visa •••• 4242', brand: 'visa', last4: '4242', isDefault: true, status: 'active' },
    });
    const [row] = await ctx.db.select().from(paymentMethods).where(eq(paymentMethods.customerId, customer.id));
    expect(row).toMatchObject({
      provider: 'builtin',
      source: 'setup_link',
      consentName: 'Ada Lovelace',
      consentEmail: 'ferro@example.test',
      consentIp: '10.200.0.7',
      consentUserAgent: 'Autopay test browser',
      isDefault: true,
    });
    expect(JSON.stringify(row)).not.toContain('4242424242424242');
    expect(JSON.stringify(row)).not.toContain('"123"');
    const [after] = await ctx.db.select().from(customers).where(eq(customers.id, customer.id));
    expect(after!.autopayEnabled).toBe(true);

    const again = await setup(token, consented(TEST_CARDS.mastercard));
    expect(again.statusCode).toBe(410);
    expect(again.json().message).toBe('This set-up link has expired or was already used. Ask us for a new one.');
    expect(
      (await ctx.app.inject({ method: 'GET', url: `/api/setup/${token}`, remoteAddress: nextAddress() })).statusCode,
    ).toBe(410);
  });

  it('answers 410 once expired and 404 for a token it never made; staff without the right get 403', async () => {
    const customer = await createTestCustomer(ctx.db, { name: 'Lumen Bakery' });
    const token = await sendSetupLink(customer.id);
    await ctx.db
      .update(paymentSetupLinks)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(paymentSetupLinks.customerId, customer.id));
    expect((await setup(token, consented(TEST_CARDS.visa))).statusCode).toBe(410);
    const unknown = await ctx.app.inject({
      method: 'GET',
      url: '/api/setup/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      remoteAddress: nextAddress(),
    });
    expect(unknown.statusCode).toBe(404);
    for (const role of ['sales', 'sales_manager'] as const) {
      const refused = await ctx.injectAs(role, {
        method: 'POST',
        url: `/api/customers/${customer.id}/payment-setup-link`,
      });
      expect(refused.statusCode).toBe(403);
    }
  });
});

describe('the charge run, by test card', () => {
  it('4242: a card saved for a customer with an invoice past due is charged at once: "Card on file", the invoice paid, the receipt', async () => {
    const { customer, invoice } = await customerWithOpenInvoice('Orbit Cycles');
    await saveCard(customer.id, TEST_CARDS.visa);

    const after = await invoiceNow(invoice.id);
    expect(after).toMatchObject({ status: 'paid', amountPaidCents: 120_00 });
    const [payment] = await paymentsOf(invoice.id);
    expect(payment).toMatchObject({
      status: 'succeeded',
      method: 'card_on_file',
      amountCents: 120_00,
      cardLast4: '4242',
    });
    const [attempt] = await attemptsOf(invoice.id);
    expect(attempt).toMatchObject({
      attemptNumber: 1,
      status: 'succeeded',
      amountCents: 120_00,
      retryOn: null,
      paymentId: payment!.id,
    });
    const receipt = (await mailsTo(customer.email)).find((m) =>
      m.subject.startsWith(`Receipt for invoice ${invoice.number}`),
    );
    expect(receipt?.text).toContain('Card on file (Visa ending in 4242)');

    // Nothing more to charge: a second run makes no attempt.
    expect(await runAutopayCharges(deps())).toMatchObject({ attempted: 0 });
  });

  it('9995 (insufficient funds): retried 1, 3, 5 and 7 days after the first attempt, then no more; an e-mail each time, staff told at the last', async () => {
    const { customer, invoice } = await customerWithOpenInvoice('Cinder Studio');
    const day0 = today();
    await saveCard(customer.id, TEST_CARDS.insufficientFunds);

    const expected = [
      { attemptNumber: 1, retryOn: plusDays(day0, 1) },
      { attemptNumber: 2, retryOn: plusDays(day0, 3) },
      { attemptNumber: 3, retryOn: plusDays(day0, 5) },
      { attemptNumber: 4, retryOn: plusDays(day0, 7) },
      { attemptNumber: 5, retryOn: null },
    ];
    expect((await attemptsOf(invoice.id)).map(({ attemptNumber, retryOn }) => ({ attemptNumber, retryOn }))).toEqual([
      expected[0],
    ]);
    // Days between the retries charge nothing; each retry day makes the next attempt.
    for (const [offset, attempts] of [
      [0, 1],
      [1, 2],
      [2, 2],
      [3, 3],
      [4, 3],
      [5, 4],
      [7, 5],
      [8, 5],
      [30, 5],
    ] as const) {
      await runAutopayCharges(deps(), { today: plusDays(day0, offset) });
      expect((await attemptsOf(invoice.id)).length, `attempts after day ${offset}`).toBe(attempts);
    }
    const attempts = await attemptsOf(invoice.id);
    // A retry's own retry day is spent when the next attempt is claimed: only the last failure's matters.
    expect(attempts.map((a) => a.status)).toEqual(['failed', 'failed', 'failed', 'failed', 'failed']);
    expect(attempts.map((a) => a.declineCode)).toEqual(Array(5).fill('insufficient_funds'));
    expect(attempts.at(-1)!.retryOn).toBeNull();
    expect(await invoiceNow(invoice.id)).toMatchObject({ status: 'failed', amountPaidCents: 0 });
    expect((await paymentsOf(invoice.id)).map((p) => [p.status, p.method, p.amountCents])).toEqual(
      Array(5).fill(['failed', 'card_on_file', 120_00]),
    );

    const failures = (await mailsTo(customer.email)).filter(
      (m) => m.subject === `Payment failed for ${invoice.number}`,
    );
    expect(failures).toHaveLength(5);
    expect(failures[0]!.text).toContain('Your card has insufficient funds.');
    expect(failures[0]!.text).toContain('$120.00');
    expect(failures[0]!.text).toMatch(new RegExp(`${ORIGIN}/setup/[A-Za-z0-9_-]{43}`));
    expect(failures[4]!.text).toContain('We will not try this card again.');
    const staffNotices = await ctx.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.entityId, invoice.id), eq(notifications.type, 'payment_failed')));
    expect(staffNotices.length).toBeGreaterThan(0);
    expect(new Set(staffNotices.map((n) => n.dedupeKey)).size, 'one failure told to staff: the last').toBe(1);
  });

  it('0069 (expired card): not retried, the method marked expired; a new card retries the invoice at once', async () => {
    const { customer, invoice } = await customerWithOpenInvoice('Harbor Optics');
    await saveCard(customer.id, TEST_CARDS.expired);
    const [first] = await attemptsOf(invoice.id);
    expect(first).toMatchObject({ status: 'failed', declineKind: 'hard', declineCode: 'expired_card', retryOn: null });
    const [method] = await ctx.db.select().from(paymentMethods).where(eq(paymentMethods.customerId, customer.id));
    expect(method!.status).toBe('expired');
    await runAutopayCharges(deps(), { today: plusDays(today(), 3) });
    expect(await attemptsOf(invoice.id)).toHaveLength(1);

    await saveCard(customer.id, TEST_CARDS.mastercard);
    const attempts = await attemptsOf(invoice.id);
    expect(attempts.map((a) => [a.attemptNumber, a.status])).toEqual([
      [1, 'failed'],
      [2, 'succeeded'],
    ]);
    expect(await invoiceNow(invoice.id)).toMatchObject({ status: 'paid', amountPaidCents: 120_00 });
  });

  it('3184 (authentication): no retry, the customer gets a link to confirm the payment', async () => {
    const { customer, contract, invoice } = await customerWithOpenInvoice('Vista Realty');
    await saveCard(customer.id, TEST_CARDS.authentication);
    const [attempt] = await attemptsOf(invoice.id);
    expect(attempt).toMatchObject({ status: 'requires_action', declineKind: 'authentication', retryOn: null });
    const mail = (await mailsTo(customer.email)).find(
      (m) => m.subject === `Payment failed for ${invoice.number}: please confirm it`,
    );
    expect(mail?.text).toContain(`${ORIGIN}/p/${contract.payLinkToken}`);
  });

  it('0341: saves, then its charge is declined (soft) and retried the next day', async () => {
    const { customer, invoice } = await customerWithOpenInvoice('Quill Press');
    await saveCard(customer.id, TEST_CARDS.declinesOffSession);
    const [attempt] = await attemptsOf(invoice.id);
    expect(attempt).toMatchObject({
      status: 'failed',
      declineKind: 'soft',
      declineCode: 'generic_decline',
      retryOn: plusDays(today(), 1),
    });
  });
});

describe('dunning and autopay are one schedule', () => {
  it('holds the reminders while retries are pending and sends them once none is left', async () => {
    const { customer, invoice } = await customerWithOpenInvoice('Nimbus Air');
    const day0 = today();
    await saveCard(customer.id, TEST_CARDS.insufficientFunds);
    const reminders = async () =>
      (await mailsTo(customer.email)).filter(
        (m) => /reminder|overdue/i.test(m.subject) && !m.subject.startsWith('Payment failed'),
      );
    await runDunning(deps(), { asOf: day0, contractId: invoice.contractId });
    expect(await reminders(), 'no reminder while a retry is pending').toEqual([]);

    for (const offset of [1, 3, 5, 7]) await runAutopayCharges(deps(), { today: plusDays(day0, offset) });
    expect((await attemptsOf(invoice.id)).at(-1)).toMatchObject({ attemptNumber: 5, retryOn: null });
    await runDunning(deps(), { asOf: plusDays(day0, 7), contractId: invoice.contractId });
    expect((await reminders()).length, 'the reminders of section 14 once no retry is left').toBeGreaterThan(0);
  });
});

describe("the client's payment methods (/api/client/payment-methods, /api/client/autopay)", () => {
  async function clientOf(customerId: string) {
    return ctx.signIn(await createTestUser(ctx.db, { role: 'client', customerId }));
  }

  it('lists, makes default, removes; removing the last method turns autopay off and says so', async () => {
    const customer = await createTestCustomer(ctx.db, { name: 'Maple Dental' });
    const client = await clientOf(customer.id);
    const list = async () => (await ctx.injectAs(client, { method: 'GET', url: '/api/client/payment-methods' })).json();

    const empty = await ctx.injectAs(client, { method: 'PUT', url: '/api/client/autopay', payload: { enabled: true } });
    expect(empty.statusCode).toBe(409);
    expect(empty.json().message).toBe('Add a payment method before turning autopay on.');

    const start = await ctx.injectAs(client, { method: 'POST', url: '/api/client/payment-methods/setup' });
    expect(start.statusCode).toBe(200);
    const token = setupTokenIn(start.json().url)!;
    const page = await ctx.app.inject({ method: 'GET', url: `/api/setup/${token}`, remoteAddress: nextAddress() });
    expect(page.json().returnPath).toBe('/portal/payment-methods');
    expect((await setup(token, consented(TEST_CARDS.visa))).statusCode).toBe(200);
    await saveCard(customer.id, TEST_CARDS.mastercard);

    const both = await list();
    expect(both.autopay).toMatchObject({ enabled: true, canEnable: true });
    expect(both.methods.map((m: { label: string; isDefault: boolean }) => [m.label, m.isDefault])).toEqual([
      ['Mastercard •••• 4444', true],
      ['Visa •••• 4242', false],
    ]);
    const visa = both.methods[1].id;
    const made = await ctx.injectAs(client, { method: 'POST', url: `/api/client/payment-methods/${visa}/default` });
    expect(made.statusCode, made.body).toBe(200);
    expect(made.json().message).toBe('Visa •••• 4242 is now your default payment method.');

    const off = await ctx.injectAs(client, { method: 'PUT', url: '/api/client/autopay', payload: { enabled: false } });
    expect(off.json().autopay.enabled).toBe(false);
    const on = await ctx.injectAs(client, { method: 'PUT', url: '/api/client/autopay', payload: { enabled: true } });
    expect(on.json().autopay.enabled).toBe(true);

    const first = await ctx.injectAs(client, { method: 'DELETE', url: `/api/client/payment-methods/${visa}` });
    expect(first.json()).toMatchObject({ message: 'Payment method removed.', autopay: { enabled: true } });
    expect(first.json().methods.map((m: { label: string; isDefault: boolean }) => [m.label, m.isDefault])).toEqual([
      ['Mastercard •••• 4444', true],
    ]);
    const last = await ctx.injectAs(client, {
      method: 'DELETE',
      url: `/api/client/payment-methods/${first.json().methods[0].id}`,
    });
    expect(last.json()).toMatchObject({
      message: 'Payment method removed. Autopay is now off: no method is left to charge.',
      autopay: { enabled: false, canEnable: false },
      methods: [],
    });
  });

  it("answers 404 for another customer's method and changes nothing", async () => {
    const mine = await createTestCustomer(ctx.db, { name: 'Cedar Law' });
    const theirs = await createTestCustomer(ctx.db, { name: 'Birch Law' });
    await saveCard(theirs.id, TEST_CARDS.visa);
    const [method] = await ctx.db.select().from(paymentMethods).where(eq(paymentMethods.customerId, theirs.id));
    const client = await clientOf(mine.id);
    for (const request of [
      { method: 'DELETE' as const, url: `/api/client/payment-methods/${method!.id}` },
      { method: 'POST' as const, url: `/api/client/payment-methods/${method!.id}/default` },
    ]) {
      expect((await ctx.injectAs(client, request)).statusCode).toBe(404);
    }
    const [still] = await ctx.db.select().from(paymentMethods).where(eq(paymentMethods.id, method!.id));
    expect(still).toMatchObject({ removedAt: null, isDefault: true });
  });
});

describe("staff: a customer's methods, autopay off (never on), Charge now", () => {
  it('finance sees the consent record and turns autopay off; enabled true is refused, sales gets 403 first', async () => {
    const customer = await createTestCustomer(ctx.db, { name: 'Pioneer Farms' });
    await saveCard(customer.id, TEST_CARDS.visa);
    const seen = await ctx.injectAs('finance', { method: 'GET', url: `/api/customers/${customer.id}/payment-methods` });
    expect(seen.statusCode).toBe(200);
    expect(seen.json().methods[0]).toMatchObject({
      label: 'Visa •••• 4242',
      consent: { name: 'Ada Lovelace', userAgent: 'Autopay test browser' },
    });

    const sales = await ctx.injectAs('sales', {
      method: 'PUT',
      url: `/api/customers/${customer.id}/autopay`,
      payload: { enabled: 'x' },
    });
    expect(sales.statusCode, 'the right is checked before the body').toBe(403);
    const on = await ctx.injectAs('finance', {
      method: 'PUT',
      url: `/api/customers/${customer.id}/autopay`,
      payload: { enabled: true },
    });
    expect(on.statusCode).toBe(400);
    expect(on.json().message).toBe('Only the customer can turn autopay on.');
    const off = await ctx.injectAs('finance', {
      method: 'PUT',
      url: `/api/customers/${customer.id}/autopay`,
      payload: { enabled: false },
    });
    expect(off.statusCode).toBe(200);
    expect(off.json().autopay).toMatchObject({ enabled: false, canEnable: true });
  });

  it("shows the invoice's autopay and charges it now; an invoice with nothing due answers 409", async () => {
    const customer = await createTestCustomer(ctx.db, { name: 'Summit Gear', email: 'summit@example.test' });
    await saveCard(customer.id, TEST_CARDS.insufficientFunds);
    const { contract } = await createPayLinkContract(ctx.db, {
      status: 'active',
      customerId: customer.id,
      startDate: '2026-10-20',
      termMonths: 1,
      lines: [{ unitPriceCents: 80_00 }],
    });
    await runBilling(ctx.db, { contractId: contract.id, asOf: '2026-10-20', baseUrl: ORIGIN });
    const [invoice] = await ctx.db.select().from(invoices).where(eq(invoices.contractId, contract.id));

    const before = await ctx.injectAs('finance', { method: 'GET', url: `/api/invoices/${invoice!.id}` });
    expect(before.json().autopay).toEqual({
      method: 'Visa •••• 9995',
      scheduledOn: '2026-10-27',
      attempts: [],
      canChargeNow: true,
    });
    const mail = (await mailsTo('summit@example.test')).find((m) => m.subject.startsWith(`Invoice ${invoice!.number}`));
    expect(mail?.text).toContain('Will be charged to Visa •••• 9995 on Oct 27, 2026.');

    const charged = await ctx.injectAs('finance', { method: 'POST', url: `/api/invoices/${invoice!.id}/charge` });
    expect(charged.statusCode, charged.body).toBe(200);
    expect(charged.json().autopay.attempts).toEqual([
      expect.objectContaining({
        number: 1,
        status: 'failed',
        amount: 80,
        reason: 'Your card has insufficient funds.',
        nextAttemptOn: plusDays(today(), 1),
      }),
    ]);
    expect(
      (await ctx.injectAs('sales', { method: 'POST', url: `/api/invoices/${invoice!.id}/charge` })).statusCode,
    ).toBe(403);

    await ctx.db.update(invoices).set({ status: 'paid', amountPaidCents: 80_00 }).where(eq(invoices.id, invoice!.id));
    const nothing = await ctx.injectAs('finance', { method: 'POST', url: `/api/invoices/${invoice!.id}/charge` });
    expect(nothing.statusCode).toBe(409);
    expect(nothing.json().message).toBe('Nothing is due on this invoice, so there is nothing to charge.');
    expect(await attemptsOf(invoice!.id)).toHaveLength(1);
  });
});

describe('"Resend" of an autopay invoice', () => {
  it('says when the card on file is charged, today at the earliest, instead of asking to pay', async () => {
    const customer = await createTestCustomer(ctx.db, { name: 'Harbor Kites', email: 'harbor@example.test' });
    await saveCard(customer.id, TEST_CARDS.visa);
    const { contract } = await createPayLinkContract(ctx.db, {
      status: 'active',
      customerId: customer.id,
      startDate: '2026-10-20',
      termMonths: 1,
      lines: [{ unitPriceCents: 64_00 }],
    });
    await runBilling(ctx.db, { contractId: contract.id, asOf: '2026-10-20', baseUrl: ORIGIN });
    const [invoice] = await ctx.db.select().from(invoices).where(eq(invoices.contractId, contract.id));

    const resent = await ctx.injectAs('finance', { method: 'POST', url: `/api/invoices/${invoice!.id}/resend` });
    expect(resent.statusCode, resent.body).toBe(200);
    const copies = (await mailsTo('harbor@example.test')).filter((m) =>
      m.subject.startsWith(`Invoice ${invoice!.number}`),
    );
    expect(copies).toHaveLength(2);
    // Due Oct 27, 2026 and not charged yet (billing alone charges nothing): the next run charges it today.
    const todayInWords = new Date(`${today()}T12:00:00Z`).toLocaleDateString('en-US', {
      month: 'short',
      day: 'numeric',
      year: 'numeric',
      timeZone: 'UTC',
    });
    expect(copies[0]!.text).toContain('Will be charged to Visa •••• 4242 on Oct 27, 2026.');
    expect(copies[1]!.text).toContain(`Will be charged to Visa •••• 4242 on ${todayInWords}.`);
    expect(copies[1]!.text).not.toContain('/p/');
  });
});

describe('cards expiring', () => {
  it('e-mails 30 and 7 days before the end of the expiry month, each once', async () => {
    const customer = await createTestCustomer(ctx.db, { name: 'Delta Marine', email: 'delta@example.test' });
    await saveCard(customer.id, TEST_CARDS.visa);
    await ctx.db
      .update(paymentMethods)
      .set({ expMonth: 1, expYear: 2031 })
      .where(eq(paymentMethods.customerId, customer.id));
    const expiring = async () =>
      (await mailsTo('delta@example.test')).filter((m) => m.subject === 'Your Visa •••• 4242 expires on Jan 31, 2031');

    await sendExpiryNotices(deps(), { today: '2030-12-31' });
    expect(await expiring()).toHaveLength(0);
    await sendExpiryNotices(deps(), { today: '2031-01-01' });
    await sendExpiryNotices(deps(), { today: '2031-01-02' });
    expect(await expiring()).toHaveLength(1);
    await sendExpiryNotices(deps(), { today: '2031-01-24' });
    await sendExpiryNotices(deps(), { today: '2031-01-30' });
    expect(await expiring()).toHaveLength(2);
    expect((await expiring())[1]!.text).toMatch(new RegExp(`${ORIGIN}/setup/[A-Za-z0-9_-]{43}`));
  });
});

describe('the checkout\'s "Save this card" box', () => {
  it('saves the paying card with the consent when ticked, and nothing when not', async () => {
    const { customer, contract } = await customerWithOpenInvoice('Granite Works');
    const remoteAddress = nextAddress();
    const opened = await ctx.app.inject({
      method: 'POST',
      url: `/api/pay/${contract.payLinkToken}/checkout`,
      remoteAddress,
    });
    const token = new URL(opened.json().checkoutUrl).pathname.split('/').pop()!;
    const checkout = await ctx.app.inject({ method: 'GET', url: `/api/checkout/${token}`, remoteAddress });
    expect(checkout.json().autopayConsent).toMatch(/^I authorise /);
    const paid = await ctx.app.inject({
      method: 'POST',
      url: `/api/checkout/${token}/pay`,
      payload: { ...card(TEST_CARDS.visa), saveCard: true },
      remoteAddress,
      headers: { 'user-agent': 'Checkout browser' },
    });
    expect(paid.statusCode, paid.body).toBe(200);
    const rows = await ctx.db
      .select()
      .from(paymentMethods)
      .where(eq(paymentMethods.customerId, customer.id))
      .orderBy(desc(paymentMethods.createdAt));
    expect(rows.map((r) => [r.source, r.last4, r.consentUserAgent, r.isDefault])).toEqual([
      ['checkout', '4242', 'Checkout browser', true],
    ]);
    const [after] = await ctx.db.select().from(customers).where(eq(customers.id, customer.id));
    expect(after!.autopayEnabled).toBe(true);
    const attempts = await ctx.db.select().from(autopayAttempts).where(eq(autopayAttempts.customerId, customer.id));
    expect(attempts, 'the invoice was paid at the checkout: nothing to charge').toEqual([]);
  });
});
