import { randomUUID } from 'node:crypto';
import type { ClientContractDetail, ClientSummary } from '@shared/contracts/client-portal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractLineItems, contracts, invoices } from '../../db/schema';
import { buildTestApp, type TestContext } from '../../test/app';
import { createTestCustomer, createTestProduct } from '../../test/catalog-factories';
import { createTestUser, type TestUser } from '../../test/factories';

type Signed = TestUser & { token: string };

let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(() => ctx.close());

/** A customer with a signed-in client account. */
async function clientOfNewCustomer(): Promise<{ customerId: string; client: Signed }> {
  const customer = await createTestCustomer(ctx.db);
  const client = await ctx.signIn(await createTestUser(ctx.db, { role: 'client', customerId: customer.id }));
  return { customerId: customer.id, client };
}

async function insertContract(
  customerId: string,
  values: Partial<typeof contracts.$inferInsert> & { status: string; startDate?: string },
) {
  const [row] = await ctx.db
    .insert(contracts)
    .values({ customerId, paymentMode: 'portal', startDate: '2026-01-01', ...values })
    .returning();
  return row;
}

/**
 * A per-month line on a contract, from its start date (or the flight given): what the billing engine bills it
 * for. The product is only a name here: a line keeps what it was sold with.
 */
async function insertLine(
  contract: { id: string; startDate: string },
  values: { unitPriceCents: number; seasonalPriceCents?: number | null; priceMetric?: string; flightStart?: string },
) {
  const product = await createTestProduct(ctx.db, { name: `Line ${randomUUID().slice(0, 6)}` });
  await ctx.db.insert(contractLineItems).values({
    contractId: contract.id,
    productId: product.id,
    quantity: 1,
    unitPriceCents: values.unitPriceCents,
    discountCents: 0,
    lineTotalCents: values.unitPriceCents,
    priceMetric: values.priceMetric ?? 'monthly',
    seasonalPriceCents: values.seasonalPriceCents ?? null,
    flightStart: values.flightStart ?? contract.startDate,
  });
}

async function insertInvoice(
  contract: { id: string; customerId: string },
  values: { periodIndex: number; dueDate: string; status: string; totalCents: number; amountPaidCents?: number },
) {
  const [row] = await ctx.db
    .insert(invoices)
    .values({
      number: `INV-T-${randomUUID().slice(0, 12)}`,
      contractId: contract.id,
      customerId: contract.customerId,
      periodIndex: values.periodIndex,
      periodStart: new Date(Date.UTC(2000, 0, 1 + values.periodIndex)).toISOString().slice(0, 10),
      periodEnd: new Date(Date.UTC(2000, 0, 2 + values.periodIndex)).toISOString().slice(0, 10),
      dueDate: values.dueDate,
      status: values.status,
      subtotalCents: values.totalCents,
      taxCents: 0,
      taxLabel: 'Tax',
      taxRateBp: 0,
      taxIncluded: false,
      totalCents: values.totalCents,
      amountPaidCents: values.amountPaidCents ?? (values.status === 'paid' ? values.totalCents : 0),
    })
    .returning();
  return row;
}

const summaryOf = async (client: Signed): Promise<ClientSummary> => {
  const response = await ctx.injectAs(client, { method: 'GET', url: '/api/client/summary' });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};

const setTax = (defaultTaxRate: number, taxIncluded: boolean) =>
  ctx.injectAs('admin', {
    method: 'PUT',
    url: '/api/settings/tax',
    payload: { defaultTaxRate, taxIncluded, taxLabel: 'Tax' },
  });
const setStopAtTerm = (pausePaymentsAfterExpiry: boolean) =>
  ctx.injectAs('admin', {
    method: 'PUT',
    url: '/api/settings/contracts',
    payload: { pausePaymentsAfterExpiry, gracePeriodsEndOfDays: 7 },
  });

describe('GET /api/client/summary', () => {
  it('counts active contracts, sums what is still due on pending invoices, and names the earliest as next', async () => {
    const { customerId, client } = await clientOfNewCustomer();
    const a = await insertContract(customerId, { status: 'active' });
    await insertContract(customerId, { status: 'active' });
    await insertContract(customerId, { status: 'paused' });
    await insertContract(customerId, { status: 'draft' });
    await insertContract(customerId, { status: 'canceled' });
    await insertInvoice(a, { periodIndex: 0, dueDate: '2026-02-08', status: 'paid', totalCents: 300_00 });
    await insertInvoice(a, {
      periodIndex: 1,
      dueDate: '2026-03-08',
      status: 'pending',
      totalCents: 500_00,
      amountPaidCents: 200_00,
    });
    await insertInvoice(a, { periodIndex: 2, dueDate: '2026-03-08', status: 'pending', totalCents: 120_00 });
    await insertInvoice(a, { periodIndex: 3, dueDate: '2026-04-08', status: 'pending', totalCents: 99_99 });
    await insertInvoice(a, { periodIndex: 4, dueDate: '2026-01-01', status: 'void', totalCents: 50_00 });
    await insertInvoice(a, { periodIndex: 5, dueDate: '2026-01-15', status: 'failed', totalCents: 70_00 });
    // Another customer's invoices count for nobody here.
    const other = await clientOfNewCustomer();
    const theirs = await insertContract(other.customerId, { status: 'active' });
    await insertInvoice(theirs, { periodIndex: 0, dueDate: '2026-01-02', status: 'pending', totalCents: 1_000_00 });

    expect(await summaryOf(client)).toEqual({
      activeContracts: 2,
      outstandingBalance: 519.99, // 300.00 + 120.00 + 99.99
      pendingInvoices: 3,
      nextPayment: { amount: 420, dueDate: '2026-03-08', source: 'invoice', invoiceId: null },
      // Every payable invoice (pending or failed) is past its due date: what is still due on each.
      overdueCount: 4,
      overdueAmount: 589.99, // 70.00 + 300.00 + 120.00 + 99.99
      overdueInvoices: expect.any(Array),
      pausedForNonPayment: [],
      // "Pay all due": every invoice with something due, pending or failed (not the paid one, not the void one).
      payAllCount: 4,
      payAllAmount: 589.99, // 70.00 + 300.00 + 120.00 + 99.99
    });
    expect(
      (await summaryOf(client)).overdueInvoices.map((invoice) => [invoice.dueDate, invoice.amountDue]).sort(),
    ).toEqual([
      ['2026-01-15', 70],
      ['2026-03-08', 120],
      ['2026-03-08', 300],
      ['2026-04-08', 99.99],
    ]);
    expect(await summaryOf(other.client)).toEqual({
      activeContracts: 1,
      outstandingBalance: 1000,
      pendingInvoices: 1,
      nextPayment: expect.objectContaining({ amount: 1000, dueDate: '2026-01-02', source: 'invoice' }),
      overdueCount: 1,
      overdueAmount: 1000,
      overdueInvoices: [expect.objectContaining({ amountDue: 1000, dueDate: '2026-01-02' })],
      pausedForNonPayment: [],
      payAllCount: 1,
      payAllAmount: 1000,
    });
  });

  it('names the one open invoice for Pay Now when a single invoice is next', async () => {
    const { customerId, client } = await clientOfNewCustomer();
    const contract = await insertContract(customerId, { status: 'active' });
    const invoice = await insertInvoice(contract, {
      periodIndex: 0,
      dueDate: '2026-05-08',
      status: 'pending',
      totalCents: 75_50,
    });
    expect((await summaryOf(client)).nextPayment).toEqual({
      amount: 75.5,
      dueDate: '2026-05-08',
      source: 'invoice',
      invoiceId: invoice.id,
    });
  });

  it('without open invoices: the next scheduled periods of active contracts, with tax, setup fee and term end', async () => {
    await setTax(8.25, false);
    await setStopAtTerm(true);
    try {
      const { customerId, client } = await clientOfNewCustomer();
      // Periods 0 and 1 invoiced and paid: next is period 2, Jan 31 + 2 months = Mar 31, due Apr 7.
      const a = await insertContract(customerId, { status: 'active', startDate: '2099-01-31', setupFeeCents: 50_00 });
      await insertLine(a, { unitPriceCents: 1_000_00, seasonalPriceCents: 1_200_00 });
      await insertInvoice(a, { periodIndex: 0, dueDate: '2099-02-07', status: 'paid', totalCents: 1 });
      await insertInvoice(a, { periodIndex: 1, dueDate: '2099-03-07', status: 'paid', totalCents: 1 });
      // Its first period starts the same day: due the same day, with its setup fee.
      const b = await insertContract(customerId, { status: 'active', startDate: '2099-03-31', setupFeeCents: 10_00 });
      await insertLine(b, { unitPriceCents: 200_00 });
      // Billing stops at the term's end (2099-02-01): its next period would start on that day.
      const ending = await insertContract(customerId, {
        status: 'active',
        startDate: '2099-01-01',
        termMonths: 1,
        autoStopDate: '2099-02-01',
      });
      await insertLine(ending, { unitPriceCents: 300_00 });
      await insertInvoice(ending, { periodIndex: 0, dueDate: '2099-01-08', status: 'paid', totalCents: 1 });
      // Paused and sent contracts are not billed.
      const paused = await insertContract(customerId, { status: 'paused', startDate: '2099-01-15' });
      await insertLine(paused, { unitPriceCents: 9_00 });
      const sent = await insertContract(customerId, { status: 'sent', startDate: '2099-01-10' });
      await insertLine(sent, { unitPriceCents: 8_00 });

      // 1,000.00 + 8.25% = 1,082.50; (200.00 + 10.00) + 8.25% = 210.00 + 17.325 -> 17.33 = 227.33.
      expect((await summaryOf(client)).nextPayment).toEqual({
        amount: 1309.83,
        dueDate: '2099-04-07',
        source: 'scheduled',
        invoiceId: null,
      });

      // Billing that runs on after the term: the ending contract's next period (Feb 1, due Feb 8) comes first.
      await setStopAtTerm(false);
      expect((await summaryOf(client)).nextPayment).toEqual({
        amount: 324.75, // 300.00 + 24.75
        dueDate: '2099-02-08',
        source: 'scheduled',
        invoiceId: null,
      });
      // Prices that include tax: the amount is the monthly amount itself.
      await setTax(8.25, true);
      expect((await summaryOf(client)).nextPayment).toMatchObject({ amount: 300, dueDate: '2099-02-08' });
    } finally {
      await setTax(0, false);
      await setStopAtTerm(true);
    }
  });

  it('bills a period starting October to December at the in-season amount, the first one with the setup fee', async () => {
    const { customerId, client } = await clientOfNewCustomer();
    const contract = await insertContract(customerId, {
      status: 'active',
      startDate: '2099-10-31',
      setupFeeCents: 100_00,
    });
    await insertLine(contract, { unitPriceCents: 1_000_00, seasonalPriceCents: 1_500_00 });
    expect((await summaryOf(client)).nextPayment).toEqual({
      amount: 1600,
      dueDate: '2099-11-07',
      source: 'scheduled',
      invoiceId: null,
    });
  });

  it('counts what the schedule bills: a flat line starting in the next period, and not the stored figures', async () => {
    // The portal once read the contract's stored monthly amount: $1,500.00 due December 8 while the
    // schedule billed $3,300.00 that day (a $1,800.00 flat pre-roll starting December 1).
    const { customerId, client } = await clientOfNewCustomer();
    const contract = await insertContract(customerId, {
      status: 'active',
      startDate: '2099-11-01',
      monthlyAmountCents: 1_500_00,
      seasonalMonthlyAmountCents: 1_500_00,
    });
    await insertLine(contract, { unitPriceCents: 1_500_00 });
    await insertLine(contract, { unitPriceCents: 1_800_00, priceMetric: 'flat', flightStart: '2099-12-01' });
    await insertInvoice(contract, { periodIndex: 0, dueDate: '2099-11-08', status: 'paid', totalCents: 1_500_00 });
    expect((await summaryOf(client)).nextPayment).toEqual({
      amount: 3300,
      dueDate: '2099-12-08',
      source: 'scheduled',
      invoiceId: null,
    });
  });

  it('for a contract running since the past, the first period that starts today or later', async () => {
    const { customerId, client } = await clientOfNewCustomer();
    const contract = await insertContract(customerId, {
      status: 'active',
      startDate: '2020-01-15',
      setupFeeCents: 999_00,
    });
    await insertLine(contract, { unitPriceCents: 400_00, seasonalPriceCents: 450_00 });
    // The oracle: the next 15th on or after today (UTC), due a week later.
    const now = new Date();
    const day = now.getUTCDate();
    const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + (day > 15 ? 1 : 0), 15));
    const due = new Date(start.getTime() + 7 * 86_400_000).toISOString().slice(0, 10);
    const inSeason = start.getUTCMonth() >= 9;
    expect((await summaryOf(client)).nextPayment).toEqual({
      amount: inSeason ? 450 : 400,
      dueDate: due,
      source: 'scheduled',
      invoiceId: null,
    });
  });

  it('is all zeros for a client account not linked to a customer, and nothing at all without active contracts', async () => {
    const unlinked = await ctx.signIn(await createTestUser(ctx.db, { role: 'client' }));
    const empty = {
      activeContracts: 0,
      outstandingBalance: 0,
      pendingInvoices: 0,
      nextPayment: null,
      overdueCount: 0,
      overdueAmount: 0,
      overdueInvoices: [],
      pausedForNonPayment: [],
      payAllCount: 0,
      payAllAmount: 0,
    };
    expect(await summaryOf(unlinked)).toEqual(empty);
    const { customerId, client } = await clientOfNewCustomer();
    await insertContract(customerId, { status: 'sent' });
    expect(await summaryOf(client)).toEqual(empty);
  });
});

describe("a client sees only its own customer's records", () => {
  let mine: { customerId: string; client: Signed };
  let theirs: { customerId: string; client: Signed };
  let myContract: typeof contracts.$inferSelect;
  let myDraft: typeof contracts.$inferSelect;
  let theirContract: typeof contracts.$inferSelect;
  let myInvoice: typeof invoices.$inferSelect;
  let theirInvoice: typeof invoices.$inferSelect;

  beforeAll(async () => {
    mine = await clientOfNewCustomer();
    theirs = await clientOfNewCustomer();
    const product = await createTestProduct(ctx.db, { name: 'Holiday Banner', adType: 'banner' });
    const created = await ctx.injectAs('admin', {
      method: 'POST',
      url: '/api/contracts',
      payload: {
        customerId: mine.customerId,
        title: 'Winter push',
        startDate: '2026-11-01',
        paymentMode: 'portal',
        setupFee: 25,
        sendToCustomer: true,
        lineItems: [{ productId: product.id, quantity: 2, unitPrice: 150, discount: 10 }],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    myContract = { ...created.json(), customerId: mine.customerId };
    myDraft = await insertContract(mine.customerId, { status: 'draft', title: 'Not yet' });
    theirContract = await insertContract(theirs.customerId, { status: 'active', title: 'Theirs' });
    myInvoice = await insertInvoice(myContract, {
      periodIndex: 50,
      dueDate: '2026-12-08',
      status: 'pending',
      totalCents: 315_00,
    });
    theirInvoice = await insertInvoice(theirContract, {
      periodIndex: 0,
      dueDate: '2026-12-08',
      status: 'pending',
      totalCents: 99_00,
    });
  });

  it("lists its own sent contracts, never drafts or another customer's", async () => {
    const response = await ctx.injectAs(mine.client, { method: 'GET', url: '/api/client/contracts' });
    expect(response.statusCode).toBe(200);
    expect(response.json().map((c: { id: string }) => c.id)).toEqual([myContract.id]);
    expect(response.headers['x-total-count']).toBe('1');
    expect(response.json()[0]).toMatchObject({ title: 'Winter push', status: 'sent', totalAmount: 315 });
  });

  it("shows its own contract in detail; a draft, another customer's and an unknown id answer 404", async () => {
    const response = await ctx.injectAs(mine.client, { method: 'GET', url: `/api/client/contracts/${myContract.id}` });
    expect(response.statusCode).toBe(200);
    const detail: ClientContractDetail = response.json();
    expect(detail).toMatchObject({
      id: myContract.id,
      title: 'Winter push',
      status: 'sent',
      monthlyAmount: 290,
      setupFee: 25,
      totalAmount: 315,
      firstInvoiceAmount: 315,
      package: null,
      lineItems: [
        { name: 'Holiday Banner', adType: 'banner', quantity: 2, unitPrice: 150, discount: 10, lineTotal: 290 },
      ],
    });
    expect(Object.keys(detail)).not.toContain('salesRepId');
    for (const id of [myDraft.id, theirContract.id, randomUUID()]) {
      const refused = await ctx.injectAs(mine.client, { method: 'GET', url: `/api/client/contracts/${id}` });
      expect(refused.statusCode).toBe(404);
      expect(refused.json().message).toBe('Contract not found');
    }
    expect(
      (await ctx.injectAs('admin', { method: 'GET', url: `/api/client/contracts/${myContract.id}` })).statusCode,
    ).toBe(403);
  });

  it("lists only its own invoices on both invoice lists, and another customer's invoice answers 404", async () => {
    for (const url of ['/api/client/invoices', '/api/invoices']) {
      const response = await ctx.injectAs(mine.client, { method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(
        response.json().map((i: { id: string }) => i.id),
        url,
      ).toEqual([myInvoice.id]);
      expect(response.json()[0], url).toMatchObject({ amount: 315, status: 'pending' });
    }
    const own = await ctx.injectAs(mine.client, { method: 'GET', url: `/api/invoices/${myInvoice.id}` });
    expect(own.statusCode).toBe(200);
    const pdf = await ctx.injectAs(mine.client, { method: 'GET', url: `/api/invoices/${myInvoice.id}/pdf` });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toContain('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');

    for (const [method, url] of [
      ['GET', `/api/invoices/${theirInvoice.id}`],
      ['GET', `/api/invoices/${theirInvoice.id}/pdf`],
      ['POST', `/api/invoices/${theirInvoice.id}/checkout`],
    ] as const) {
      const response = await ctx.injectAs(mine.client, { method, url });
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
    const theirList = await ctx.injectAs(theirs.client, { method: 'GET', url: '/api/client/invoices' });
    expect(theirList.json().map((i: { id: string }) => i.id)).toEqual([theirInvoice.id]);
  });
});
