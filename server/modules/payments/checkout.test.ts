import { TEST_CARDS } from '@shared/contracts/checkout';
import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  auditEvents,
  checkoutSessions,
  contracts,
  invoices,
  notifications,
  outboxEmails,
  payments,
} from '../../db/schema';
import { buildTestApp, type TestContext } from '../../test/app';
import { createBillableContract, setTaxSettings } from '../../test/billing-factories';
import { createTestCustomer } from '../../test/catalog-factories';
import { dayInMonthsFromToday, monthStartFromToday } from '../../test/dates';
import { createTestUser } from '../../test/factories';
import { card, checkoutToken, createPayLinkContract, publicClient } from '../../test/payment-factories';
import { runBilling } from '../billing/billing-run';
import { payWithTestCard } from './demo-payments';

/**
 * The built-in hosted checkout end to end through the API: declined and good cards, replays and
 * concurrent confirmations (really parallel on PostgreSQL), the first payment of a sent contract, and
 * the portal's Pay Now. Expected amounts are literal.
 */

const ORIGIN = 'https://pay.example.test';
let ctx: TestContext;

beforeAll(async () => {
  ctx = await buildTestApp({ config: { PUBLIC_URL: ORIGIN } });
});
afterAll(() => ctx.close());
beforeEach(async () => {
  await setTaxSettings(ctx.db, { defaultTaxRate: 0, taxIncluded: false, taxLabel: 'Tax' });
});

async function invoicesOf(contractId: string) {
  return ctx.db.select().from(invoices).where(eq(invoices.contractId, contractId)).orderBy(asc(invoices.periodStart));
}

async function paymentsOf(invoiceId: string) {
  return ctx.db.select().from(payments).where(eq(payments.invoiceId, invoiceId)).orderBy(asc(payments.createdAt));
}

/** An active pay-link contract with one pending $120.00 invoice, and a checkout opened for it. */
async function openInvoiceCheckout() {
  const client = publicClient(ctx.app);
  const { contract, token } = await createPayLinkContract(ctx.db, {
    status: 'active',
    startDate: '2026-10-20',
    lines: [{ unitPriceCents: 120_00 }],
  });
  await runBilling(ctx.db, { contractId: contract.id, asOf: '2026-10-20', baseUrl: ORIGIN });
  const [invoice] = await invoicesOf(contract.id);
  const opened = await client.openCheckout(token);
  expect(opened.statusCode, opened.body).toBe(200);
  return { client, contract, invoice, payToken: token, token: checkoutToken(opened.json().checkoutUrl) };
}

describe('a declined card', () => {
  it('answers 400 "Your card was declined.", leaves the invoice unpaid and records the failed attempt', async () => {
    const { client, invoice, token } = await openInvoiceCheckout();
    const response = await client.pay(token, card(TEST_CARDS.declined));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: 'Your card was declined.', code: 'BAD_REQUEST' });

    const [after] = await ctx.db.select().from(invoices).where(eq(invoices.id, invoice.id));
    expect(after.amountPaidCents).toBe(0);
    expect(after.paidAt).toBeNull();
    expect(['pending', 'failed']).toContain(after.status);
    const attempts = await paymentsOf(invoice.id);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({
      status: 'failed',
      method: 'card',
      provider: 'builtin',
      cardBrand: 'visa',
      cardLast4: '0002',
      failureMessage: 'Your card was declined.',
    });
    expect(attempts[0].providerPaymentId).toMatch(/^pi_[0-9a-f]{24}$/);
    const [session] = await ctx.db.select().from(checkoutSessions).where(eq(checkoutSessions.token, token));
    expect(session.status).toBe('open');
  });

  it.each([
    [TEST_CARDS.insufficientFunds, 'Your card has insufficient funds.'],
    [TEST_CARDS.expired, 'Your card has expired.'],
    ['4111111111111111', 'Your card was declined. This checkout accepts test cards only.'],
  ])('%s is declined with "%s"', async (number, message) => {
    const { client, token } = await openInvoiceCheckout();
    const response = await client.pay(token, card(number));
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(message);
  });

  it('then a good card pays', async () => {
    const { client, contract, invoice, token } = await openInvoiceCheckout();
    expect((await client.pay(token, card(TEST_CARDS.declined))).statusCode).toBe(400);
    const response = await client.pay(token, card(TEST_CARDS.visa));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ redirectUrl: `/payment/success?checkout=${token}&contract=${contract.id}` });
    const rows = await paymentsOf(invoice.id);
    expect(rows.map((p) => [p.status, p.cardLast4])).toEqual([
      ['failed', '0002'],
      ['succeeded', '4242'],
    ]);
  });
});

describe('a good card', () => {
  it('pays the invoice once, keeps only the brand and last 4 digits, and completes the checkout', async () => {
    const { client, contract, invoice, token } = await openInvoiceCheckout();
    const response = await client.pay(token, card(TEST_CARDS.mastercard));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ redirectUrl: `/payment/success?checkout=${token}&contract=${contract.id}` });

    const [paid] = await ctx.db.select().from(invoices).where(eq(invoices.id, invoice.id));
    expect(paid).toMatchObject({ status: 'paid', amountPaidCents: 120_00 });
    expect(paid.paidAt).not.toBeNull();
    const [payment] = await paymentsOf(invoice.id);
    expect(payment).toMatchObject({
      kind: 'payment',
      status: 'succeeded',
      amountCents: 120_00,
      method: 'card',
      provider: 'builtin',
      cardBrand: 'mastercard',
      cardLast4: '4444',
    });
    const [session] = await ctx.db.select().from(checkoutSessions).where(eq(checkoutSessions.token, token));
    expect(session.status).toBe('completed');
    expect(payment.checkoutSessionId).toBe(session.id);

    // No card number anywhere: payments, audit events, e-mails.
    const stored = JSON.stringify([
      await ctx.db.select().from(payments),
      await ctx.db.select().from(auditEvents),
      await ctx.db.select().from(outboxEmails),
    ]);
    expect(stored).not.toContain(TEST_CARDS.mastercard);
    expect(stored).not.toContain('5555 5555');

    const page = (await client.getCheckout(token)).json();
    expect(page).toMatchObject({
      status: 'completed',
      redirectUrl: `/payment/success?checkout=${token}&contract=${contract.id}`,
    });
    expect(
      (
        await client.getPayLink(
          (
            await ctx.db.select().from(contracts).where(eq(contracts.id, contract.id))
          )[0].payLinkToken!,
        )
      ).json().state,
    ).toBe('nothing_due');
  });

  it('a replayed confirmation answers the success page again and pays nothing more', async () => {
    const { client, contract, invoice, token } = await openInvoiceCheckout();
    const first = await client.pay(token, card());
    const replay = await client.pay(token, card());
    const replayOtherCard = await client.pay(token, card(TEST_CARDS.declined));
    for (const response of [first, replay, replayOtherCard]) {
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ redirectUrl: `/payment/success?checkout=${token}&contract=${contract.id}` });
    }
    const rows = await paymentsOf(invoice.id);
    expect(rows.filter((p) => p.status === 'succeeded')).toHaveLength(1);
    expect(rows).toHaveLength(1);
  });

  it('five confirmations sent at once pay exactly once', async () => {
    const { client, contract, invoice, token } = await openInvoiceCheckout();
    const responses = await Promise.all(Array.from({ length: 5 }, () => client.pay(token, card())));
    for (const response of responses) {
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ redirectUrl: `/payment/success?checkout=${token}&contract=${contract.id}` });
    }
    const rows = await paymentsOf(invoice.id);
    expect(rows).toHaveLength(1);
    const [after] = await ctx.db.select().from(invoices).where(eq(invoices.id, invoice.id));
    expect(after).toMatchObject({ status: 'paid', amountPaidCents: 120_00 });
    const paidAudits = await ctx.db
      .select({ n: sql<number>`count(*)::int` })
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.entity, 'invoice'),
          eq(auditEvents.entityId, invoice.id),
          sql`${auditEvents.action} like 'invoice.paid%'`,
        ),
      );
    expect(paidAudits[0].n).toBeLessThanOrEqual(1);
  });

  it('two checkouts of one invoice: once one pays, the other is closed and pays nothing', async () => {
    const { client, contract, invoice, token } = await openInvoiceCheckout();
    // A second checkout for the same invoice, as the portal's Pay Now would open.
    const [second] = await ctx.db
      .insert(checkoutSessions)
      .values({
        token: `second${token}`.slice(0, 40),
        contractId: contract.id,
        invoiceIds: [invoice.id],
        amountCents: 120_00,
        provider: 'builtin',
        providerSessionId: `cs_second_${invoice.id}`,
        source: 'portal',
        expiresAt: new Date(Date.now() + 3_600_000),
      })
      .returning();
    expect((await client.pay(token, card())).statusCode).toBe(200);
    const late = await client.pay(second.token, card());
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe('This checkout has expired. Go back to the payment page to start a new one.');
    expect((await paymentsOf(invoice.id)).filter((p) => p.status === 'succeeded')).toHaveLength(1);
  });

  it("a checkout of the contract's other invoices stays open when one invoice is paid; a new one for it replaces it", async () => {
    const client = publicClient(ctx.app);
    const { contract, token: payLink } = await createPayLinkContract(ctx.db, {
      status: 'active',
      startDate: '2026-09-20',
      lines: [{ unitPriceCents: 10_00 }],
    });
    await runBilling(ctx.db, { contractId: contract.id, asOf: '2026-10-20', baseUrl: ORIGIN });
    const [september, october] = await invoicesOf(contract.id);
    const portalCheckout = async (invoiceId: string, amountCents: number) =>
      (
        await ctx.db
          .insert(checkoutSessions)
          .values({
            token: `portal${invoiceId.replaceAll('-', '')}`,
            contractId: contract.id,
            invoiceIds: [invoiceId],
            amountCents,
            provider: 'builtin',
            providerSessionId: `cs_${invoiceId}`,
            source: 'portal',
            expiresAt: new Date(Date.now() + 3_600_000),
          })
          .returning()
      )[0];
    const forSeptember = await portalCheckout(september.id, 10_00);
    const forOctober = await portalCheckout(october.id, 10_00);
    expect((await client.pay(forSeptember.token, card())).statusCode).toBe(200);
    const [stillOpen] = await ctx.db.select().from(checkoutSessions).where(eq(checkoutSessions.id, forOctober.id));
    expect(stillOpen.status).toBe('open');
    // The pay link's checkout now charges October, the one invoice left. One open checkout per invoice: it
    // takes the place of the portal's checkout of October, which can no longer be paid.
    const linkCheckout = checkoutToken((await client.openCheckout(payLink)).json().checkoutUrl);
    expect((await client.getCheckout(forOctober.token)).json().status).toBe('expired');
    expect((await client.pay(forOctober.token, card())).statusCode).toBe(409);
    expect((await client.pay(linkCheckout, card())).statusCode).toBe(200);
    // (October was long overdue today: dunning paused the contract after September's payment and resumed it
    // after October's, which bills the periods since; those later invoices are not this test's subject.)
    const [septemberNow, octoberNow] = await invoicesOf(contract.id);
    expect([septemberNow.status, octoberNow.status]).toEqual(['paid', 'paid']);
  });

  it('an expired checkout refuses payment with 409', async () => {
    const { client, invoice, token } = await openInvoiceCheckout();
    await ctx.db
      .update(checkoutSessions)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(checkoutSessions.token, token));
    const response = await client.pay(token, card());
    expect(response.statusCode).toBe(409);
    expect(await paymentsOf(invoice.id)).toHaveLength(0);
  });

  it('refuses an invalid card form with the field messages', async () => {
    const { client, token } = await openInvoiceCheckout();
    const response = await client.pay(token, {
      cardNumber: '4242 4242 4242 4241',
      expiry: '01 / 20',
      cvc: '1',
      name: '',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors).toEqual({
      cardNumber: ['Your card number is invalid.'],
      expiry: ["Your card's expiration date is in the past."],
      cvc: ["Your card's security code is incomplete."],
      name: ['Name on card is required'],
    });
  });
});

describe('the first payment of a sent contract', () => {
  it('activates the contract, issues its first invoice and pays it', async () => {
    await setTaxSettings(ctx.db, { defaultTaxRate: 5, taxIncluded: false, taxLabel: 'Tax' });
    const client = publicClient(ctx.app);
    const rep = await createTestUser(ctx.db, { role: 'sales' });
    const { contract, token } = await createPayLinkContract(ctx.db, {
      status: 'sent',
      salesRepId: rep.id,
      startDate: dayInMonthsFromToday(2, 15),
      lines: [{ quantity: 3, unitPriceCents: 40_00 }],
      setupFeeCents: 30_00,
    });
    // 3 x 40.00 + 30.00 = 150.00, + 5% = 157.50
    expect((await client.getPayLink(token)).json().totalDue).toBe(157.5);
    const { checkoutUrl } = (await client.openCheckout(token)).json();

    const declined = await client.pay(checkoutToken(checkoutUrl), card(TEST_CARDS.declined));
    expect(declined.statusCode).toBe(400);
    const [stillSent] = await ctx.db.select().from(contracts).where(eq(contracts.id, contract.id));
    expect(stillSent.status).toBe('sent');
    expect(await invoicesOf(contract.id)).toHaveLength(0);
    const failed = await ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, contract.id), eq(auditEvents.action, 'payment.failed')));
    expect(failed).toHaveLength(1);
    expect(failed[0].after).toMatchObject({ cardLast4: '0002', failureMessage: 'Your card was declined.' });

    const paid = await client.pay(checkoutToken(checkoutUrl), card());
    expect(paid.statusCode, paid.body).toBe(200);

    const [active] = await ctx.db.select().from(contracts).where(eq(contracts.id, contract.id));
    expect(active.status).toBe('active');
    expect(active.activatedAt).not.toBeNull();
    expect(active.stripeCustomerId).toMatch(/^cus_/);
    expect(active.stripeSubscriptionId).toMatch(/^sub_/);
    const issued = await invoicesOf(contract.id);
    expect(issued.map((i) => [i.periodIndex, i.periodStart, i.status, i.totalCents, i.amountPaidCents])).toEqual([
      [0, dayInMonthsFromToday(2, 15), 'paid', 157_50, 157_50],
    ]);
    const activation = await ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, contract.id), eq(auditEvents.action, 'contract.activated')));
    expect(activation).toHaveLength(1);
    expect(activation[0].actorId).toBeNull();
    const told = await ctx.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, rep.id), eq(notifications.type, 'contract_activated')));
    expect(told.map((n) => n.entityId)).toEqual([contract.id]);
  });

  it('with a start date in the past, pays the first invoice and issues the later ones as unpaid', async () => {
    const client = publicClient(ctx.app);
    // Started on the first day of the month two months ago: the payment settles that month's invoice, and the
    // periods since, up to this month's, are issued unpaid.
    const startDate = monthStartFromToday(-2);
    const { contract, token } = await createPayLinkContract(ctx.db, {
      status: 'sent',
      startDate,
      lines: [{ unitPriceCents: 60_00 }],
    });
    const { checkoutUrl } = (await client.openCheckout(token)).json();
    expect((await client.pay(checkoutToken(checkoutUrl), card())).statusCode).toBe(200);
    const issued = await invoicesOf(contract.id);
    expect(issued.map((i) => [i.periodStart, i.status])).toEqual([
      [startDate, 'paid'],
      [monthStartFromToday(-1), 'pending'],
      [monthStartFromToday(0), 'pending'],
    ]);
  });

  it('a contract activated by staff meanwhile: the payment goes to its first invoice, activation happens once', async () => {
    const client = publicClient(ctx.app);
    const { contract, token } = await createPayLinkContract(ctx.db, {
      status: 'sent',
      startDate: dayInMonthsFromToday(2, 10),
      lines: [{ unitPriceCents: 70_00 }],
    });
    const { checkoutUrl } = (await client.openCheckout(token)).json();
    await ctx.db.update(contracts).set({ status: 'active' }).where(eq(contracts.id, contract.id));
    await runBilling(ctx.db, { contractId: contract.id, asOf: dayInMonthsFromToday(2, 10), baseUrl: ORIGIN });
    expect((await client.pay(checkoutToken(checkoutUrl), card())).statusCode).toBe(200);
    const issued = await invoicesOf(contract.id);
    expect(issued.map((i) => [i.periodStart, i.status, i.amountPaidCents])).toEqual([
      [dayInMonthsFromToday(2, 10), 'paid', 70_00],
    ]);
    const activations = await ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, contract.id), eq(auditEvents.action, 'contract.activated')));
    expect(activations).toHaveLength(0);
  });

  it('five first-payment confirmations at once activate once and pay once', async () => {
    const client = publicClient(ctx.app);
    const { contract, token } = await createPayLinkContract(ctx.db, {
      status: 'sent',
      startDate: monthStartFromToday(3),
      lines: [{ unitPriceCents: 90_00 }],
    });
    const payToken = checkoutToken((await client.openCheckout(token)).json().checkoutUrl);
    const responses = await Promise.all(Array.from({ length: 5 }, () => client.pay(payToken, card())));
    expect(responses.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    const issued = await invoicesOf(contract.id);
    expect(issued).toHaveLength(1);
    expect(issued[0]).toMatchObject({ status: 'paid', amountPaidCents: 90_00 });
    expect(await paymentsOf(issued[0].id)).toHaveLength(1);
  });
});

describe('POST /api/invoices/{id}/checkout (Pay Now in the portal)', () => {
  async function clientWithInvoice() {
    const customer = await createTestCustomer(ctx.db);
    const user = await ctx.signIn(await createTestUser(ctx.db, { role: 'client', customerId: customer.id }));
    const { contract } = await createBillableContract(ctx.db, {
      status: 'active',
      startDate: '2026-11-02',
      customerId: customer.id,
      lines: [{ unitPriceCents: 45_00 }],
    });
    await runBilling(ctx.db, { contractId: contract.id, asOf: '2026-11-02', baseUrl: ORIGIN });
    const [invoice] = await invoicesOf(contract.id);
    return { user, contract, invoice };
  }

  it('opens the same checkout for the client on their own pending invoice, and Back leads to the portal', async () => {
    const { user, contract, invoice } = await clientWithInvoice();
    const response = await ctx.injectAs(user, { method: 'POST', url: `/api/invoices/${invoice.id}/checkout` });
    expect(response.statusCode, response.body).toBe(200);
    const token = checkoutToken(response.json().checkoutUrl);
    const client = publicClient(ctx.app);
    expect((await client.getCheckout(token)).json()).toMatchObject({
      amount: 45,
      returnUrl: '/portal',
      description: `Invoice ${invoice.number}`,
    });
    expect((await client.pay(token, card())).json()).toEqual({
      redirectUrl: `/payment/success?checkout=${token}&contract=${contract.id}`,
    });
    const again = await ctx.injectAs(user, { method: 'POST', url: `/api/invoices/${invoice.id}/checkout` });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('This invoice has already been paid.');
  });

  it("answers 404 for another customer's invoice and for an unknown one", async () => {
    const { invoice } = await clientWithInvoice();
    const other = await clientWithInvoice();
    const response = await ctx.injectAs(other.user, { method: 'POST', url: `/api/invoices/${invoice.id}/checkout` });
    expect(response.statusCode).toBe(404);
    const unknown = await ctx.injectAs(other.user, {
      method: 'POST',
      url: '/api/invoices/00000000-0000-4000-8000-000000000000/checkout',
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('refuses staff (403): Pay Now is for the customer', async () => {
    const { invoice } = await clientWithInvoice();
    const response = await ctx.injectAs('finance', { method: 'POST', url: `/api/invoices/${invoice.id}/checkout` });
    expect(response.statusCode).toBe(403);
  });
});

describe('payWithTestCard (the demo data)', () => {
  it('declines with the decline card, then pays a back-dated card payment through the built-in checkout', async () => {
    const { contract } = await createPayLinkContract(ctx.db, {
      status: 'active',
      startDate: '2026-08-12',
      lines: [{ unitPriceCents: 33_00 }],
    });
    await runBilling(ctx.db, { contractId: contract.id, asOf: '2026-08-12', baseUrl: ORIGIN });
    const [invoice] = await invoicesOf(contract.id);
    const paidAt = new Date('2026-08-14T15:00:00Z');
    expect(await payWithTestCard(ctx.db, { invoiceId: invoice.id, card: 'declined', paidAt })).toEqual({
      outcome: 'declined',
      message: 'Your card was declined.',
    });
    expect(await payWithTestCard(ctx.db, { invoiceId: invoice.id, paidAt })).toEqual({ outcome: 'succeeded' });
    const rows = await paymentsOf(invoice.id);
    expect(rows.map((p) => [p.status, p.provider, p.cardLast4, p.paidAt.toISOString()])).toEqual([
      ['failed', 'builtin', '0002', '2026-08-14T15:00:00.000Z'],
      ['succeeded', 'builtin', '4242', '2026-08-14T15:00:00.000Z'],
    ]);
    const [paid] = await ctx.db.select().from(invoices).where(eq(invoices.id, invoice.id));
    expect(paid).toMatchObject({ status: 'paid', amountPaidCents: 33_00 });
    await expect(payWithTestCard(ctx.db, { invoiceId: invoice.id })).rejects.toThrow('This invoice has nothing due.');
  });
});
