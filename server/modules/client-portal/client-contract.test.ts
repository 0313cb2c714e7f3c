import { randomUUID } from 'node:crypto';
import type { ClientContractDetail, ClientSummary } from '@shared/contracts/client-portal';
import type { ContractSchedule } from '@shared/contracts/invoices';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractLineItems, contracts, invoices } from '../../db/schema';
import { buildTestApp, type TestContext } from '../../test/app';
import { setTaxSettings } from '../../test/billing-factories';
import { createTestCustomer, createTestProduct } from '../../test/catalog-factories';
import { createTestUser, type TestUser } from '../../test/factories';

/**
 * The client's contract page: GET /api/client/contracts/{id} (lines, flights, in-season prices, what is
 * overdue) and GET /api/client/contracts/{id}/schedule (its upcoming invoices from the billing engine), and the
 * summary's alerts (overdue invoices, contracts paused for non-payment). Expected figures are written out by
 * hand for the contracts seeded here.
 */

type Signed = TestUser & { token: string };
let ctx: TestContext;
let mine: { customerId: string; client: Signed };
let theirs: { customerId: string; client: Signed };
let running: { id: string };
let paused: { id: string };
let manual: { id: string };
let overdueOld: { id: string; number: string };
let overdueFailed: { id: string; number: string };
let theirContract: { id: string };

async function clientOfNewCustomer() {
  const customer = await createTestCustomer(ctx.db);
  const client = await ctx.signIn(await createTestUser(ctx.db, { role: 'client', customerId: customer.id }));
  return { customerId: customer.id, client };
}

async function insertContract(customerId: string, values: Partial<typeof contracts.$inferInsert>) {
  const [row] = await ctx.db
    .insert(contracts)
    .values({ customerId, paymentMode: 'portal', startDate: '2027-01-01', status: 'active', ...values })
    .returning();
  return row;
}

async function insertLine(
  contractId: string,
  values: Partial<typeof contractLineItems.$inferInsert> & { name: string; unitPriceCents: number },
) {
  const product = await createTestProduct(ctx.db, { name: values.name, adType: 'video' });
  const quantity = values.quantity ?? 1;
  await ctx.db.insert(contractLineItems).values({
    contractId,
    productId: product.id,
    quantity,
    discountCents: 0,
    lineTotalCents: quantity * values.unitPriceCents - (values.discountCents ?? 0),
    flightStart: '2027-01-01',
    ...values,
  });
}

let invoiceIndex = 0;
async function insertInvoice(
  contract: { id: string },
  customerId: string,
  values: { dueDate: string; status: string; totalCents: number; amountPaidCents?: number },
) {
  invoiceIndex++;
  const [row] = await ctx.db
    .insert(invoices)
    .values({
      number: `INV-C-${randomUUID().slice(0, 12)}`,
      contractId: contract.id,
      customerId,
      periodIndex: invoiceIndex,
      periodStart: new Date(Date.UTC(2000, 0, 1 + invoiceIndex)).toISOString().slice(0, 10),
      periodEnd: new Date(Date.UTC(2000, 0, 2 + invoiceIndex)).toISOString().slice(0, 10),
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

beforeAll(async () => {
  ctx = await buildTestApp();
  await setTaxSettings(ctx.db, { defaultTaxRate: 0, taxIncluded: false, taxLabel: 'Tax' });
  [mine, theirs] = [await clientOfNewCustomer(), await clientOfNewCustomer()];

  // Active from 2027-01-01, indefinite: 2 x $120 a month ($150 in season), and a flat $500 line run in March.
  running = await insertContract(mine.customerId, { title: 'Year-round video' });
  await insertLine(running.id, {
    name: 'Pre-roll video',
    quantity: 2,
    unitPriceCents: 120_00,
    seasonalPriceCents: 150_00,
    priceMetric: 'monthly',
    position: 0,
  });
  await insertLine(running.id, {
    name: 'Spring takeover',
    unitPriceCents: 500_00,
    priceMetric: 'flat',
    flightStart: '2027-03-01',
    flightEnd: '2027-03-31',
    position: 1,
  });

  // Paused by dunning, with two overdue invoices (one partly paid, one whose card payment failed), one not
  // due yet and one paid.
  paused = await insertContract(mine.customerId, {
    title: 'Holiday banners',
    status: 'paused',
    pauseReason: 'non_payment',
    startDate: '2025-12-01',
  });
  overdueOld = await insertInvoice(paused, mine.customerId, {
    dueDate: '2026-01-08',
    status: 'pending',
    totalCents: 200_00,
    amountPaidCents: 50_00,
  });
  overdueFailed = await insertInvoice(paused, mine.customerId, {
    dueDate: '2026-02-08',
    status: 'failed',
    totalCents: 100_00,
  });
  await insertInvoice(paused, mine.customerId, { dueDate: '2099-01-08', status: 'pending', totalCents: 300_00 });
  await insertInvoice(paused, mine.customerId, { dueDate: '2025-12-08', status: 'paid', totalCents: 80_00 });
  // Paused by staff: not for non-payment.
  manual = await insertContract(mine.customerId, { title: 'On hold', status: 'paused', pauseReason: 'manual' });

  theirContract = await insertContract(theirs.customerId, {
    title: 'Theirs',
    status: 'paused',
    pauseReason: 'non_payment',
  });
  await insertInvoice(theirContract, theirs.customerId, {
    dueDate: '2026-01-08',
    status: 'pending',
    totalCents: 999_00,
  });
});
afterAll(() => ctx.close());

describe('GET /api/client/contracts/:id', () => {
  it('shows its lines with their customer-facing names, in-season prices and flights, and the monthly amounts', async () => {
    const response = await ctx.injectAs(mine.client, { method: 'GET', url: `/api/client/contracts/${running.id}` });
    expect(response.statusCode, response.body).toBe(200);
    const detail: ClientContractDetail = response.json();
    expect(detail).toMatchObject({
      id: running.id,
      title: 'Year-round video',
      status: 'active',
      pauseReason: null,
      underDeliveryRemedy: 'credit',
      monthlyAmount: 240,
      seasonalMonthlyAmount: 300,
      oneTimeAmount: 500,
      termValue: null,
      overdueCount: 0,
      overdueAmount: 0,
      overdueInvoices: [],
    });
    expect(detail.lineItems).toEqual([
      {
        id: expect.any(String),
        name: 'Pre-roll video',
        adType: 'video',
        priceMetric: 'monthly',
        quantity: 2,
        unitPrice: 120,
        discount: 0,
        lineTotal: 240,
        seasonalPrice: 150,
        seasonalLineTotal: 300,
        flightStart: '2027-01-01',
        flightEnd: null,
      },
      {
        id: expect.any(String),
        name: 'Spring takeover',
        adType: 'video',
        priceMetric: 'flat',
        quantity: 1,
        unitPrice: 500,
        discount: 0,
        lineTotal: 500,
        seasonalPrice: null,
        seasonalLineTotal: 500,
        flightStart: '2027-03-01',
        flightEnd: '2027-03-31',
      },
    ]);
  });

  it('says what is overdue on a contract paused for non-payment: how much, and which invoices', async () => {
    const response = await ctx.injectAs(mine.client, { method: 'GET', url: `/api/client/contracts/${paused.id}` });
    expect(response.json()).toMatchObject({
      status: 'paused',
      pauseReason: 'non_payment',
      overdueCount: 2,
      overdueAmount: 250,
      overdueInvoices: [
        { id: overdueOld.id, number: overdueOld.number, contractId: paused.id, dueDate: '2026-01-08', amountDue: 150 },
        {
          id: overdueFailed.id,
          number: overdueFailed.number,
          contractId: paused.id,
          dueDate: '2026-02-08',
          amountDue: 100,
        },
      ],
    });
    const onHold = await ctx.injectAs(mine.client, { method: 'GET', url: `/api/client/contracts/${manual.id}` });
    expect(onHold.json()).toMatchObject({ pauseReason: 'manual', overdueCount: 0, overdueInvoices: [] });
  });

  it("answers 404 for another customer's contract and an unknown id, and 403 to every staff role", async () => {
    for (const id of [theirContract.id, randomUUID()]) {
      for (const url of [`/api/client/contracts/${id}`, `/api/client/contracts/${id}/schedule`]) {
        const response = await ctx.injectAs(mine.client, { method: 'GET', url });
        expect(response.statusCode, url).toBe(404);
        expect(response.json().message).toBe('Contract not found');
        expect(response.body).not.toContain('Theirs');
      }
    }
    for (const role of ['super_admin', 'admin', 'sales_manager', 'sales', 'finance'] as const) {
      for (const url of [`/api/client/contracts/${running.id}`, `/api/client/contracts/${running.id}/schedule`]) {
        expect((await ctx.injectAs(role, { method: 'GET', url })).statusCode, `${role} ${url}`).toBe(403);
      }
    }
    expect((await ctx.app.inject({ method: 'GET', url: `/api/client/contracts/${running.id}` })).statusCode).toBe(401);
  });
});

describe('GET /api/client/contracts/:id/schedule', () => {
  it("lists the contract's upcoming invoices as the billing run will issue them", async () => {
    const response = await ctx.injectAs(mine.client, {
      method: 'GET',
      url: `/api/client/contracts/${running.id}/schedule`,
    });
    expect(response.statusCode, response.body).toBe(200);
    const schedule: ContractSchedule = response.json();
    // 2027: $240 a month, $740 in March (the flat line), $300 from October (in season); due 7 days in.
    const months = ['01', '02', '03', '04', '05', '06', '07', '08', '09', '10', '11', '12'];
    const totals = [240, 240, 740, 240, 240, 240, 240, 240, 240, 300, 300, 300];
    expect(
      schedule.items.map((item) => [item.periodStart, item.dueDate, item.total, item.inSeason, item.invoice]),
    ).toEqual(months.map((m, i) => [`2027-${m}-01`, `2027-${m}-08`, totals[i], i >= 9, null]));
    expect(schedule.items.every((item) => item.tax === 0 && item.setupFee === 0)).toBe(true);

    // The staff's contract page shows the same schedule.
    const staff = await ctx.injectAs('admin', { method: 'GET', url: `/api/contracts/${running.id}/schedule` });
    expect(staff.json()).toEqual(schedule);
  });
});

describe('GET /api/client/summary: what the client is behind on', () => {
  it('counts its overdue invoices (what is still due), lists them oldest first, and its contracts paused for non-payment', async () => {
    const summary: ClientSummary = (
      await ctx.injectAs(mine.client, { method: 'GET', url: '/api/client/summary' })
    ).json();
    expect(summary).toMatchObject({
      overdueCount: 2,
      overdueAmount: 250,
      overdueInvoices: [
        { id: overdueOld.id, amountDue: 150, dueDate: '2026-01-08' },
        { id: overdueFailed.id, amountDue: 100, dueDate: '2026-02-08' },
      ],
      pausedForNonPayment: [{ id: paused.id, title: 'Holiday banners' }],
    });
    const other: ClientSummary = (
      await ctx.injectAs(theirs.client, { method: 'GET', url: '/api/client/summary' })
    ).json();
    expect(other).toMatchObject({
      overdueCount: 1,
      overdueAmount: 999,
      pausedForNonPayment: [{ id: theirContract.id, title: 'Theirs' }],
    });
  });
});
