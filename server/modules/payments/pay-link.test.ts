import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditEvents, checkoutSessions, contracts, customers, invoices } from '../../db/schema';
import { buildTestApp, type TestContext } from '../../test/app';
import { setTaxSettings } from '../../test/billing-factories';
import {
  checkoutToken,
  createPayLinkContract,
  newToken,
  nextAddress,
  publicClient,
} from '../../test/payment-factories';
import { runBilling } from '../billing/billing-run';

/**
 * The public pay-link side: GET /api/pay/{token} (what is due now), POST /api/pay/{token}/checkout, and
 * GET /api/checkout/{token}. Expected figures are literal amounts worked out by hand.
 */

const ORIGIN = 'https://pay.example.test';
let ctx: TestContext;
let client: ReturnType<typeof publicClient>;

beforeAll(async () => {
  ctx = await buildTestApp({ config: { PUBLIC_URL: ORIGIN, BUSINESS_NAME: 'Northwind Media' } });
  client = publicClient(ctx.app);
});
afterAll(() => ctx.close());
beforeEach(async () => {
  await setTaxSettings(ctx.db, { defaultTaxRate: 0, taxIncluded: false, taxLabel: 'Tax' });
});

/** 2 x $100.00 (seasonal $150.00) - $10.00, a $500.00 package and a $25.00 setup fee. */
const holidayLines = {
  lines: [{ quantity: 2, unitPriceCents: 100_00, discountCents: 10_00, seasonalPriceCents: 150_00 }],
  packagePriceCents: 500_00,
  setupFeeCents: 25_00,
};

describe('GET /api/pay/{token}: a sent contract not billed yet', () => {
  it('shows the first invoice: lines, the package, the setup fee and tax added from the tax settings', async () => {
    await setTaxSettings(ctx.db, { defaultTaxRate: 8.25, taxIncluded: false, taxLabel: 'Sales Tax' });
    const { contract, token, packageName } = await createPayLinkContract(ctx.db, {
      status: 'sent',
      startDate: '2027-02-01',
      title: 'Spring banners',
      ...holidayLines,
    });
    const response = await client.getPayLink(token);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      business: { name: 'Northwind Media' },
      contract: { id: contract.id, title: 'Spring banners', status: 'sent', startDate: '2027-02-01' },
      state: 'due',
      message: null,
      invoices: [],
      // 190.00 + 500.00 + 25.00 = 715.00; 8.25% of it is 58.9875 -> 58.99
      totalDue: 773.99,
      firstPayment: {
        periodStart: '2027-02-01',
        periodEnd: '2027-02-28',
        subtotal: 715,
        tax: 58.99,
        taxLabel: 'Sales Tax',
        taxRate: 8.25,
        taxIncluded: false,
        total: 773.99,
      },
    });
    expect(body.firstPayment.lines.map((l: { amount: number }) => l.amount)).toEqual([190, 500, 25]);
    expect(body.firstPayment.lines[1].description).toBe(`Package: ${packageName}`);
    expect(body.firstPayment.lines[2]).toMatchObject({ description: 'Setup fee (one-time)', seasonal: false });
    expect(body.customer.name).toMatch(/^Customer /);
  });

  it('bills a first period starting October to December at the seasonal price', async () => {
    const { token } = await createPayLinkContract(ctx.db, { status: 'sent', startDate: '2026-11-15', ...holidayLines });
    const body = (await client.getPayLink(token)).json();
    // 2 x 150.00 - 10.00 = 290.00, + 500.00 + 25.00 = 815.00, no tax
    expect(body.totalDue).toBe(815);
    expect(body.firstPayment.lines[0]).toMatchObject({ unitPrice: 150, discount: 10, amount: 290, seasonal: true });
  });

  it('shows the tax part when prices include tax', async () => {
    await setTaxSettings(ctx.db, { defaultTaxRate: 10, taxIncluded: true, taxLabel: 'VAT' });
    const { token } = await createPayLinkContract(ctx.db, { status: 'sent', startDate: '2027-03-01', ...holidayLines });
    const body = (await client.getPayLink(token)).json();
    // 715.00 includes 10% tax: 715 x 10 / 110 = 65.00
    expect(body.firstPayment).toMatchObject({ subtotal: 715, tax: 65, total: 715, taxIncluded: true });
    expect(body.totalDue).toBe(715);
  });
});

describe('GET /api/pay/{token}: open invoices', () => {
  it('lists pending and failed invoices with what is still due, oldest first, and their total', async () => {
    const { contract, token } = await createPayLinkContract(ctx.db, {
      status: 'active',
      startDate: '2026-01-10',
      lines: [{ unitPriceCents: 100_00 }],
    });
    await runBilling(ctx.db, { contractId: contract.id, asOf: '2026-03-15', baseUrl: ORIGIN });
    const issued = await ctx.db
      .select()
      .from(invoices)
      .where(eq(invoices.contractId, contract.id))
      .orderBy(invoices.periodStart);
    expect(issued).toHaveLength(3);
    // As payments would leave them: January paid, February partly paid, March failed once.
    await ctx.db
      .update(invoices)
      .set({ status: 'paid', amountPaidCents: 100_00, paidAt: new Date() })
      .where(eq(invoices.id, issued[0].id));
    await ctx.db.update(invoices).set({ amountPaidCents: 40_00 }).where(eq(invoices.id, issued[1].id));
    await ctx.db.update(invoices).set({ status: 'failed' }).where(eq(invoices.id, issued[2].id));

    const body = (await client.getPayLink(token)).json();
    expect(body.state).toBe('due');
    expect(body.firstPayment).toBeNull();
    expect(body.totalDue).toBe(160);
    expect(body.invoices).toEqual([
      {
        id: issued[1].id,
        number: issued[1].number,
        periodStart: '2026-02-10',
        periodEnd: '2026-03-09',
        dueDate: '2026-02-17',
        status: 'pending',
        total: 100,
        amountPaid: 40,
        amountDue: 60,
        overdue: true,
      },
      {
        id: issued[2].id,
        number: issued[2].number,
        periodStart: '2026-03-10',
        periodEnd: '2026-04-09',
        dueDate: '2026-03-17',
        status: 'failed',
        total: 100,
        amountPaid: 0,
        amountDue: 100,
        overdue: true,
      },
    ]);
  });

  it('says nothing is due (and opens no checkout) when every invoice is paid', async () => {
    const { contract, token } = await createPayLinkContract(ctx.db, {
      status: 'active',
      startDate: '2026-06-05',
      lines: [{ unitPriceCents: 50_00 }],
    });
    await runBilling(ctx.db, { contractId: contract.id, asOf: '2026-06-05', baseUrl: ORIGIN });
    await ctx.db
      .update(invoices)
      .set({ status: 'paid', amountPaidCents: 50_00 })
      .where(eq(invoices.contractId, contract.id));
    const body = (await client.getPayLink(token)).json();
    expect(body).toMatchObject({
      state: 'nothing_due',
      message: 'Nothing is due on this contract right now.',
      invoices: [],
      firstPayment: null,
      totalDue: 0,
    });
    const open = await client.openCheckout(token);
    expect(open.statusCode).toBe(409);
    expect(open.json()).toEqual({ message: 'Nothing is due on this contract right now.', code: 'CONFLICT' });
  });

  it.each([
    ['canceled', 'This contract was canceled, so there is nothing to pay through this link.'],
    ['completed', 'This contract is completed, so there is nothing to pay through this link.'],
  ])('a %s contract says so and offers no payment', async (status, message) => {
    const { token } = await createPayLinkContract(ctx.db, { status, startDate: '2026-01-01', ...holidayLines });
    const body = (await client.getPayLink(token)).json();
    expect(body).toMatchObject({ state: 'closed', message, totalDue: 0, firstPayment: null, invoices: [] });
    const open = await client.openCheckout(token);
    expect(open.statusCode).toBe(409);
    expect(open.json().message).toBe(message);
  });
});

describe('unknown and malformed tokens', () => {
  it.each([
    ['an unknown token', () => newToken()],
    ['a malformed token', () => 'not a token!'],
    ['a token too short to be one', () => 'abc'],
  ])('%s answers 404 "This payment link is not valid" on GET and POST', async (_name, token) => {
    const t = encodeURIComponent(token());
    for (const response of [await client.getPayLink(t), await client.openCheckout(t)]) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: 'This payment link is not valid', code: 'NOT_FOUND' });
    }
  });

  it('an unknown checkout answers 404 "This checkout link is not valid"', async () => {
    const response = await client.getCheckout(newToken());
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'This checkout link is not valid', code: 'NOT_FOUND' });
  });
});

describe('rate limits', () => {
  it('answers 429 with Retry-After after 60 page loads a minute from one address; other addresses go on', async () => {
    const address = nextAddress();
    const token = newToken();
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) {
      statuses.push(
        (await ctx.app.inject({ method: 'GET', url: `/api/pay/${token}`, remoteAddress: address })).statusCode,
      );
    }
    expect(statuses.slice(0, 60).every((s) => s === 404)).toBe(true);
    const limited = await ctx.app.inject({ method: 'GET', url: `/api/pay/${token}`, remoteAddress: address });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({
      code: 'RATE_LIMITED',
      message: expect.stringMatching(/^Too many requests/),
    });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(statuses[60]).toBe(429);

    const other = await ctx.app.inject({ method: 'GET', url: `/api/pay/${token}`, remoteAddress: nextAddress() });
    expect(other.statusCode).toBe(404);
  });

  it('limits card submissions to 10 a minute per address', async () => {
    const address = nextAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const response = await ctx.app.inject({
        method: 'POST',
        url: `/api/checkout/${newToken()}/pay`,
        payload: {},
        remoteAddress: address,
      });
      statuses.push(response.statusCode);
    }
    expect(statuses.slice(0, 10).every((s) => s === 400)).toBe(true);
    expect(statuses[10]).toBe(429);
  });
});

describe('POST /api/pay/{token}/checkout', () => {
  it('opens a built-in checkout for the first payment, and opening it again leads to the same checkout', async () => {
    await setTaxSettings(ctx.db, { defaultTaxRate: 8.25, taxIncluded: false, taxLabel: 'Sales Tax' });
    const { contract, token, customerId } = await createPayLinkContract(ctx.db, {
      status: 'sent',
      startDate: '2027-02-01',
      ...holidayLines,
    });
    const first = await client.openCheckout(token);
    expect(first.statusCode, first.body).toBe(200);
    const { checkoutUrl } = first.json();
    expect(checkoutUrl).toMatch(new RegExp(`^${ORIGIN}/checkout/[A-Za-z0-9_-]{32}$`));
    expect((await client.openCheckout(token)).json().checkoutUrl).toBe(checkoutUrl);

    const [session] = await ctx.db.select().from(checkoutSessions).where(eq(checkoutSessions.contractId, contract.id));
    expect(session).toMatchObject({
      token: checkoutToken(checkoutUrl),
      amountCents: 773_99,
      invoiceIds: [],
      provider: 'builtin',
      source: 'pay_link',
      status: 'open',
    });
    expect(session.providerSessionId).toMatch(/^cs_/);

    const page = await client.getCheckout(checkoutToken(checkoutUrl));
    expect(page.statusCode).toBe(200);
    const [customer] = await ctx.db.select().from(customers).where(eq(customers.id, customerId));
    expect(page.json()).toMatchObject({
      business: { name: 'Northwind Media' },
      customer: { name: customer!.name, email: customer!.email },
      description: 'First invoice: Billing test contract',
      amount: 773.99,
      status: 'open',
      returnUrl: `/p/${token}`,
      redirectUrl: null,
    });

    // The audit trail names the checkout, never its token.
    const audit = await ctx.db.select().from(auditEvents).where(eq(auditEvents.action, 'checkout.opened'));
    const mine = audit.filter((a) => a.entityId === contract.id);
    expect(mine).toHaveLength(1);
    expect(JSON.stringify(mine[0])).not.toContain(session.token);
  });

  it('a checkout for open invoices charges what is still due on them', async () => {
    const { contract, token } = await createPayLinkContract(ctx.db, {
      status: 'active',
      startDate: '2026-09-03',
      lines: [{ unitPriceCents: 80_00 }],
    });
    await runBilling(ctx.db, { contractId: contract.id, asOf: '2026-10-03', baseUrl: ORIGIN });
    const { checkoutUrl } = (await client.openCheckout(token)).json();
    const page = (await client.getCheckout(checkoutToken(checkoutUrl))).json();
    expect(page.amount).toBe(160);
    const numbers = (
      await ctx.db.select().from(invoices).where(eq(invoices.contractId, contract.id)).orderBy(invoices.periodStart)
    ).map((i) => i.number);
    expect(page.description).toBe(`Invoices ${numbers.join(', ')}`);
  });

  it('an expired checkout shows as expired and is not reused', async () => {
    const { token } = await createPayLinkContract(ctx.db, { status: 'sent', startDate: '2027-04-01', ...holidayLines });
    const { checkoutUrl } = (await client.openCheckout(token)).json();
    await ctx.db
      .update(checkoutSessions)
      .set({ expiresAt: sql`now() - interval '1 minute'` })
      .where(eq(checkoutSessions.token, checkoutToken(checkoutUrl)));
    expect((await client.getCheckout(checkoutToken(checkoutUrl))).json().status).toBe('expired');
    const again = (await client.openCheckout(token)).json().checkoutUrl;
    expect(again).not.toBe(checkoutUrl);
  });

  it('a contract changed meanwhile: its stored figures do not matter, the lines do', async () => {
    const { contract, token } = await createPayLinkContract(ctx.db, {
      status: 'sent',
      startDate: '2027-05-01',
      ...holidayLines,
    });
    await ctx.db.update(contracts).set({ totalCents: 1 }).where(eq(contracts.id, contract.id));
    expect((await client.getPayLink(token)).json().totalDue).toBe(715);
  });
});
