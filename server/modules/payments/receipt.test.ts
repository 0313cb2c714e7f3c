import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { checkoutSessions, contracts, customers, invoices, payments } from '../../db/schema';
import { buildTestApp, type TestContext } from '../../test/app';
import { createBillableContract, setTaxSettings } from '../../test/billing-factories';
import { createTestCustomer } from '../../test/catalog-factories';
import { createTestUser } from '../../test/factories';
import { card, checkoutToken, createPayLinkContract, nextAddress, publicClient } from '../../test/payment-factories';
import { pdfText } from '../../test/pdf';
import { runBilling } from '../billing/billing-run';

/**
 * The payer's receipt (product.md section 17): the success page reads what a checkout paid through the checkout's
 * own token, GET /api/checkout/{token}/receipt and its PDF; staff and the client download a payment's receipt
 * from the invoice. Expected figures are literal; the payment's day is read from the stored row (the business
 * time zone of the tests is UTC) and formatted here.
 */

const ORIGIN = 'https://pay.example.test';
let ctx: TestContext;

beforeAll(async () => {
  ctx = await buildTestApp({ config: { PUBLIC_URL: ORIGIN, BUSINESS_NAME: 'Northpole Media' } });
});
afterAll(() => ctx.close());
beforeEach(async () => {
  await setTaxSettings(ctx.db, { defaultTaxRate: 0, taxIncluded: false, taxLabel: 'Tax' });
});

const dayOf = (at: Date) => at.toISOString().slice(0, 10);
const printed = (at: Date) =>
  new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' }).format(at);

async function invoicesOf(contractId: string) {
  return ctx.db.select().from(invoices).where(eq(invoices.contractId, contractId)).orderBy(asc(invoices.periodStart));
}

async function succeededPaymentsOf(contractId: string) {
  const rows = await ctx.db.select().from(payments).where(eq(payments.contractId, contractId));
  return rows.filter((row) => row.status === 'succeeded' && row.kind === 'payment');
}

const get = (url: string, remoteAddress = nextAddress()) => ctx.app.inject({ method: 'GET', url, remoteAddress });

/**
 * An active pay-link contract ("Winter Lights") with its first two monthly periods invoiced at $120.00 each,
 * paid on its pay link in one checkout with the test Visa card.
 */
async function paidPayLink() {
  const client = publicClient(ctx.app);
  const { contract, token: payToken } = await createPayLinkContract(ctx.db, {
    status: 'active',
    startDate: '2026-08-10',
    title: 'Winter Lights',
    lines: [{ unitPriceCents: 120_00 }],
  });
  await ctx.db
    .update(contracts)
    .set({ description: 'Rep note: push the renewal hard' })
    .where(eq(contracts.id, contract.id));
  await runBilling(ctx.db, { contractId: contract.id, asOf: '2026-09-10', baseUrl: ORIGIN });
  const opened = await client.openCheckout(payToken);
  expect(opened.statusCode, opened.body).toBe(200);
  const token = checkoutToken(opened.json().checkoutUrl);
  const paid = await client.pay(token, card());
  expect(paid.statusCode, paid.body).toBe(200);
  const [fresh] = await ctx.db.select().from(contracts).where(eq(contracts.id, contract.id));
  return { client, contract: fresh, payToken, token, redirectUrl: paid.json().redirectUrl as string };
}

describe('GET /api/checkout/{token}/receipt', () => {
  it('names what the pay-link payer paid: each invoice, the amount, the day, the card, what is still due', async () => {
    const { contract, payToken, token, redirectUrl } = await paidPayLink();
    expect(redirectUrl).toBe(`/payment/success?checkout=${token}&contract=${contract.id}`);
    const issued = await invoicesOf(contract.id);
    expect(issued.map((i) => i.number)).toEqual([expect.stringMatching(/^INV-\d{4}-\d{6}$/), expect.any(String)]);
    // One card charge, a payment row per invoice: the receipt's moment is the later one.
    const [payment] = (await succeededPaymentsOf(contract.id)).sort((a, b) => b.paidAt.getTime() - a.paidAt.getTime());
    const [customer] = await ctx.db.select().from(customers).where(eq(customers.id, contract.customerId));

    const response = await get(`/api/checkout/${token}/receipt`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toBeUndefined();
    expect(response.json()).toEqual({
      business: { name: 'Northpole Media' },
      state: 'paid',
      contractId: contract.id,
      payPageUrl: `/p/${payToken}`,
      contractPageUrl: null,
      receipt: {
        amount: 240,
        paidAt: payment.paidAt.toISOString(),
        paidOn: dayOf(payment.paidAt),
        method: 'Visa ending in 4242',
        invoices: [
          {
            number: issued[0].number,
            periodStart: '2026-08-10',
            periodEnd: '2026-09-09',
            total: 120,
            amountPaid: 120,
            amountDue: 0,
          },
          {
            number: issued[1].number,
            periodStart: '2026-09-10',
            periodEnd: '2026-10-09',
            total: 120,
            amountPaid: 120,
            amountDue: 0,
          },
        ],
        amountDue: 0,
        contractName: 'Winter Lights',
        emailedTo: customer.email,
      },
      pdfUrl: `/api/checkout/${token}/receipt/pdf`,
    });
  });

  it('its PDF holds the invoice numbers, the amount, the day, the card and the contract title, not its description', async () => {
    const { contract, token } = await paidPayLink();
    const issued = await invoicesOf(contract.id);
    const [payment] = (await succeededPaymentsOf(contract.id)).sort((a, b) => b.paidAt.getTime() - a.paidAt.getTime());
    const response = await get(`/api/checkout/${token}/receipt/pdf`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="receipt-${issued[0].number}.pdf"`);
    expect(response.headers['cache-control']).toBe('private, no-store');
    expect(response.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = pdfText(response.rawPayload);
    for (const expected of [
      'Northpole Media',
      'RECEIPT',
      issued[0].number,
      issued[1].number,
      '$240.00',
      '$120.00',
      `Paid ${printed(payment.paidAt)}`,
      'Visa ending in 4242',
      'Winter Lights',
      'Still due',
      '$0.00',
      'Thank you for your payment. These invoices are paid in full.',
    ]) {
      expect(text, expected).toContain(expected);
    }
    expect(text).not.toContain('push the renewal');
  });

  it('a portal payer is led back to its contract page, and the receipt says what is still due', async () => {
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
    // Finance took $10.00 by check first: the card pays the $35.00 left.
    const check = await ctx.injectAs('finance', {
      method: 'POST',
      url: `/api/invoices/${invoice.id}/payments`,
      payload: { amount: '10.00', method: 'check', reference: 'CHK-1001' },
    });
    expect(check.statusCode, check.body).toBe(201);
    const opened = await ctx.injectAs(user, { method: 'POST', url: `/api/invoices/${invoice.id}/checkout` });
    const token = checkoutToken(opened.json().checkoutUrl);
    expect((await publicClient(ctx.app).pay(token, card())).statusCode).toBe(200);

    const receipt = (await get(`/api/checkout/${token}/receipt`)).json();
    expect(receipt).toMatchObject({
      state: 'paid',
      payPageUrl: null,
      contractPageUrl: `/portal/contracts/${contract.id}`,
      receipt: {
        amount: 35,
        invoices: [{ number: invoice.number, total: 45, amountPaid: 35, amountDue: 0 }],
        amountDue: 0,
        emailedTo: customer.email,
      },
    });
    // The check's own receipt is not this checkout's.
    const text = pdfText((await get(`/api/checkout/${token}/receipt/pdf`)).rawPayload);
    expect(text).toContain('$35.00');
    expect(text).not.toContain('CHK-1001');
  });

  it('while the checkout is open it is pending, with no receipt and no PDF', async () => {
    const client = publicClient(ctx.app);
    const { contract, token: payToken } = await createPayLinkContract(ctx.db, {
      status: 'active',
      startDate: '2026-10-20',
      lines: [{ unitPriceCents: 80_00 }],
    });
    await runBilling(ctx.db, { contractId: contract.id, asOf: '2026-10-20', baseUrl: ORIGIN });
    const token = checkoutToken((await client.openCheckout(payToken)).json().checkoutUrl);
    expect((await get(`/api/checkout/${token}/receipt`)).json()).toEqual({
      business: { name: 'Northpole Media' },
      state: 'pending',
      contractId: contract.id,
      payPageUrl: `/p/${payToken}`,
      contractPageUrl: null,
      receipt: null,
      pdfUrl: null,
    });
    const pdf = await get(`/api/checkout/${token}/receipt/pdf`);
    expect(pdf.statusCode).toBe(404);
    expect(pdf.json()).toEqual({ message: 'Receipt not found', code: 'NOT_FOUND' });
  });

  it('a wrong, malformed, pay-link or closed-unpaid token answers 404 and names nothing', async () => {
    const client = publicClient(ctx.app);
    const { contract, token: payToken } = await createPayLinkContract(ctx.db, {
      status: 'active',
      startDate: '2026-10-20',
      lines: [{ unitPriceCents: 80_00 }],
    });
    await runBilling(ctx.db, { contractId: contract.id, asOf: '2026-10-20', baseUrl: ORIGIN });
    const closed = checkoutToken((await client.openCheckout(payToken)).json().checkoutUrl);
    await ctx.db.update(checkoutSessions).set({ status: 'expired' }).where(eq(checkoutSessions.token, closed));
    const lapsed = checkoutToken((await client.openCheckout(payToken)).json().checkoutUrl);
    await ctx.db
      .update(checkoutSessions)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(checkoutSessions.token, lapsed));

    for (const token of ['A'.repeat(32), 'not a token', 'x'.repeat(150), payToken, closed, lapsed]) {
      for (const url of [
        `/api/checkout/${encodeURIComponent(token)}/receipt`,
        `/api/checkout/${encodeURIComponent(token)}/receipt/pdf`,
      ]) {
        const response = await get(url);
        expect(response.statusCode, `${url}: ${response.body}`).toBe(404);
        // An over-long one does not reach the route (the router's parameter limit): a plain 404.
        expect(response.json(), url).toEqual({
          message: token.length > 100 ? 'Not found' : 'This checkout link is not valid',
          code: 'NOT_FOUND',
        });
      }
    }
  });

  it("one customer's checkout never reads another's payment on the same contract or elsewhere", async () => {
    const first = await paidPayLink();
    const other = await paidPayLink();
    const mine = await invoicesOf(first.contract.id);
    const theirs = await invoicesOf(other.contract.id);
    const body = (await get(`/api/checkout/${first.token}/receipt`)).body;
    const text = pdfText((await get(`/api/checkout/${first.token}/receipt/pdf`)).rawPayload);
    for (const invoice of theirs) {
      expect(body).not.toContain(invoice.number);
      expect(text).not.toContain(invoice.number);
    }
    expect(body).not.toContain(other.contract.id);
    for (const invoice of mine) expect(text).toContain(invoice.number);

    // A later payment on the same contract (its next invoice, paid by check) is not on this checkout's receipt.
    await runBilling(ctx.db, { contractId: first.contract.id, asOf: '2026-10-10', baseUrl: ORIGIN });
    const [, , third] = await invoicesOf(first.contract.id);
    const check = await ctx.injectAs('finance', {
      method: 'POST',
      url: `/api/invoices/${third.id}/payments`,
      payload: { amount: '120.00', method: 'check', reference: 'CHK-2002' },
    });
    expect(check.statusCode, check.body).toBe(201);
    const again = (await get(`/api/checkout/${first.token}/receipt`)).json();
    expect(again.receipt.invoices.map((i: { number: string }) => i.number)).toEqual(mine.map((i) => i.number));
    expect(again.receipt.amount).toBe(240);
  });

  it('is rate limited like the other public pay routes (60 a minute per address)', async () => {
    const { token } = await paidPayLink();
    const address = nextAddress();
    const codes: number[] = [];
    for (let i = 0; i < 61; i++) codes.push((await get(`/api/checkout/${token}/receipt`, address)).statusCode);
    expect(codes.slice(0, 60).every((code) => code === 200)).toBe(true);
    expect(codes[60]).toBe(429);
  });
});

describe('GET /api/invoices/{id}/receipt (staff and the client)', () => {
  it('finance downloads the receipt of a check payment; the client its own; another client 404', async () => {
    const customer = await createTestCustomer(ctx.db);
    const owner = await ctx.signIn(await createTestUser(ctx.db, { role: 'client', customerId: customer.id }));
    const stranger = await ctx.signIn(
      await createTestUser(ctx.db, { role: 'client', customerId: (await createTestCustomer(ctx.db)).id }),
    );
    const { contract } = await createBillableContract(ctx.db, {
      status: 'active',
      startDate: '2026-11-02',
      customerId: customer.id,
      title: 'Holiday Banners',
      lines: [{ unitPriceCents: 300_00 }],
    });
    await runBilling(ctx.db, { contractId: contract.id, asOf: '2026-11-02', baseUrl: ORIGIN });
    const [invoice] = await invoicesOf(contract.id);

    const none = await ctx.injectAs('finance', { method: 'GET', url: `/api/invoices/${invoice.id}/receipt` });
    expect(none.statusCode).toBe(409);
    expect(none.json()).toEqual({ message: 'No payment has been received on this invoice yet', code: 'CONFLICT' });

    const check = await ctx.injectAs('finance', {
      method: 'POST',
      url: `/api/invoices/${invoice.id}/payments`,
      payload: { amount: '125.50', method: 'wire', reference: 'WIRE-77' },
    });
    expect(check.statusCode, check.body).toBe(201);
    const [payment] = await succeededPaymentsOf(contract.id);

    for (const who of ['finance' as const, owner]) {
      const response = await ctx.injectAs(who, { method: 'GET', url: `/api/invoices/${invoice.id}/receipt` });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['content-disposition']).toBe(`attachment; filename="receipt-${invoice.number}.pdf"`);
      const text = pdfText(response.rawPayload);
      for (const expected of [
        invoice.number,
        '$125.50',
        'Wire transfer',
        'WIRE-77',
        'Holiday Banners',
        '$174.50',
        `Paid ${printed(payment.paidAt)}`,
        'Thank you for your payment. $174.50 is still due on this invoice.',
      ]) {
        expect(text, expected).toContain(expected);
      }
    }
    const named = await ctx.injectAs('finance', {
      method: 'GET',
      url: `/api/invoices/${invoice.id}/receipt?payment=${payment.id}`,
    });
    expect(named.statusCode).toBe(200);

    const denied = await ctx.injectAs(stranger, { method: 'GET', url: `/api/invoices/${invoice.id}/receipt` });
    expect(denied.statusCode).toBe(404);
    const otherPayment = await ctx.injectAs('finance', {
      method: 'GET',
      url: `/api/invoices/${invoice.id}/receipt?payment=${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`,
    });
    expect(otherPayment.statusCode).toBe(404);
  });
});
