import { TEST_CARDS } from '@shared/contracts/checkout';
import type { Report } from '@shared/contracts/reports';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { autopayAttempts, customers, invoices, outboxEmails } from '../../db/schema';
import { buildTestApp, type TestContext } from '../../test/app';
import { setTaxSettings } from '../../test/billing-factories';
import { createTestCustomer } from '../../test/catalog-factories';
import { monthStartFromToday, today } from '../../test/dates';
import { createTestUser, type TestUser } from '../../test/factories';
import { asDelivered } from '../../test/outbox';
import { card, createPayLinkContract, nextAddress } from '../../test/payment-factories';
import { runAutopayCharges } from '../autopay/autopay-charges.service';
import { runBilling } from '../billing/billing-run';
import { buildReport } from './reports.service';

/**
 * The report's autopay figures (product.md section 18): the share of the invoices paid in the range that autopay
 * paid, and what retries recovered, company-wide and for each rep. Everything is written by the product's own
 * paths (set-up links, the charge run, a manual payment, a credit note) today, so the figures are this month's.
 *
 *   rep A: a1 $120.00 paid by the card saved through a set-up link (charged at once, attempt 1)
 *          a2 $150.00 paid by the charge run on a card saved before it was billed (attempt 1)
 *          a3  $80.00 paid by check
 *   rep B: b1 $200.00 9995 declines attempt 1; a 4242 saved through a new link retries it at once: attempt 2 pays
 *          b2  $50.00 credited in full by a credit note (paid, no payment)
 *          b3  $90.00 9995 declines attempt 1, never recovered: not paid
 */

const ORIGIN = 'https://pay.example.test';
let ctx: TestContext;
const deps = () => ({ db: ctx.db, mailer: ctx.app.mailer, baseUrl: ORIGIN });
let repA: TestUser & { token: string };
let repB: TestUser & { token: string };
const invoiceOf: Record<string, string> = {};

const setupTokenIn = (text: string) => new RegExp(`${ORIGIN}/setup/([A-Za-z0-9_-]+)`).exec(text)?.[1] ?? null;

/** Finance e-mails a set-up link; the customer saves `number` through it (which charges what is due at once). */
async function saveCard(customerId: string, number: string) {
  const sent = await ctx.injectAs('finance', {
    method: 'POST',
    url: `/api/customers/${customerId}/payment-setup-link`,
  });
  expect(sent.statusCode, sent.body).toBe(200);
  const [customer] = await ctx.db.select().from(customers).where(eq(customers.id, customerId));
  const mails = (
    await ctx.db
      .select()
      .from(outboxEmails)
      .where(eq(outboxEmails.to, customer!.email))
      .orderBy(asc(outboxEmails.createdAt), asc(outboxEmails.id))
  )
    .map(asDelivered)
    .filter((m) => m.subject.startsWith('Set up automatic payment'));
  const token = setupTokenIn(mails.at(-1)!.text);
  const saved = await ctx.app.inject({
    method: 'POST',
    url: `/api/setup/${token}`,
    payload: { ...card(number), consent: true, makeDefault: true },
    remoteAddress: nextAddress(),
  });
  expect(saved.statusCode, saved.body).toBe(200);
}

/** A pay-link customer of `rep` with one issued invoice of `cents`, of the month before last (due now). */
async function customerWithInvoice(key: string, rep: TestUser, cents: number) {
  const customer = await createTestCustomer(ctx.db, { name: `Autopay ${key}`, email: `autopay-${key}@example.test` });
  const start = monthStartFromToday(-2);
  const { contract } = await createPayLinkContract(ctx.db, {
    status: 'active',
    customerId: customer.id,
    salesRepId: rep.id,
    startDate: start,
    termMonths: 1,
    lines: [{ unitPriceCents: cents }],
  });
  await runBilling(ctx.db, { contractId: contract.id, asOf: start, baseUrl: ORIGIN });
  const [invoice] = await ctx.db.select().from(invoices).where(eq(invoices.contractId, contract.id));
  expect(invoice!.totalCents).toBe(cents);
  invoiceOf[key] = invoice!.id;
  return { customer, contract, invoice: invoice! };
}

async function post(url: string, payload: Record<string, unknown>) {
  const response = await ctx.injectAs('finance', { method: 'POST', url, payload });
  expect(response.statusCode, `${url}: ${response.body}`).toBeLessThan(300);
}

const autopayOf = async (who: { id: string; role: TestUser['role'] }, range: Parameters<typeof buildReport>[2]) =>
  (await buildReport(ctx.db, who, range, new Date())).autopay;

const figures = (
  paidInvoices: number,
  autopayInvoices: number,
  autopayShare: number | null,
  autopayAmount: number,
  recoveredInvoices: number,
  recoveredAmount: number,
): Report['autopay'] => ({
  paidInvoices,
  autopayInvoices,
  autopayShare,
  autopayAmount,
  recoveredInvoices,
  recoveredAmount,
});

beforeAll(async () => {
  ctx = await buildTestApp({ config: { PUBLIC_URL: ORIGIN } });
  await setTaxSettings(ctx.db, { defaultTaxRate: 0, taxIncluded: false, taxLabel: 'Tax' });
  repA = await ctx.signIn(await createTestUser(ctx.db, { role: 'sales', firstName: 'Ava', lastName: 'Auto' }));
  repB = await ctx.signIn(await createTestUser(ctx.db, { role: 'sales', firstName: 'Bo', lastName: 'Auto' }));

  const a1 = await customerWithInvoice('a1', repA, 120_00);
  await saveCard(a1.customer.id, TEST_CARDS.visa);

  // a2: the card is saved while nothing is due; the invoice issued afterwards is charged by the charge run.
  const a2Customer = await createTestCustomer(ctx.db, { name: 'Autopay a2', email: 'autopay-a2@example.test' });
  await saveCard(a2Customer.id, TEST_CARDS.visa);
  const start = monthStartFromToday(-2);
  const { contract: a2Contract } = await createPayLinkContract(ctx.db, {
    status: 'active',
    customerId: a2Customer.id,
    salesRepId: repA.id,
    startDate: start,
    termMonths: 1,
    lines: [{ unitPriceCents: 150_00 }],
  });
  await runBilling(ctx.db, { contractId: a2Contract.id, asOf: start, baseUrl: ORIGIN });
  expect(await runAutopayCharges(deps(), { today: today() })).toMatchObject({ attempted: 1, succeeded: 1 });
  const [a2] = await ctx.db.select().from(invoices).where(eq(invoices.contractId, a2Contract.id));
  invoiceOf.a2 = a2!.id;

  const a3 = await customerWithInvoice('a3', repA, 80_00);
  await post(`/api/invoices/${a3.invoice.id}/payments`, { amount: '80.00', method: 'check', reference: 'chk 7' });

  const b1 = await customerWithInvoice('b1', repB, 200_00);
  await saveCard(b1.customer.id, TEST_CARDS.insufficientFunds);
  await saveCard(b1.customer.id, TEST_CARDS.visa);

  const b2 = await customerWithInvoice('b2', repB, 50_00);
  await post(`/api/invoices/${b2.invoice.id}/credit-notes`, { amount: '50.00', reason: 'Goodwill' });

  const b3 = await customerWithInvoice('b3', repB, 90_00);
  await saveCard(b3.customer.id, TEST_CARDS.insufficientFunds);
});
afterAll(() => ctx.close());

describe('the report: paid by autopay, recovered by retries', () => {
  it('wrote what the table says through the product', async () => {
    const rows = await ctx.db.select().from(invoices);
    const state = Object.fromEntries(
      Object.entries(invoiceOf).map(([key, id]) => {
        const invoice = rows.find((r) => r.id === id)!;
        return [key, [invoice.status, invoice.amountPaidCents, invoice.creditedCents]];
      }),
    );
    expect(state).toEqual({
      a1: ['paid', 120_00, 0],
      a2: ['paid', 150_00, 0],
      a3: ['paid', 80_00, 0],
      b1: ['paid', 200_00, 0],
      b2: ['paid', 0, 50_00],
      b3: ['failed', 0, 0],
    });
    const attempts = await ctx.db
      .select()
      .from(autopayAttempts)
      .orderBy(asc(autopayAttempts.attemptedAt), asc(autopayAttempts.attemptNumber));
    const keyOf = (id: string) => Object.entries(invoiceOf).find(([, v]) => v === id)![0];
    expect(attempts.map((a) => [keyOf(a.invoiceId), a.attemptNumber, a.status, a.amountCents])).toEqual([
      ['a1', 1, 'succeeded', 120_00],
      ['a2', 1, 'succeeded', 150_00],
      ['b1', 1, 'failed', 200_00],
      ['b1', 2, 'succeeded', 200_00],
      ['b3', 1, 'failed', 90_00],
    ]);
  });

  it('counts this month company-wide and for each rep only their own invoices', async () => {
    const admin = await ctx.as('admin');
    expect(await autopayOf(admin, 'current_month')).toEqual(figures(5, 3, 60, 470, 1, 200));
    // A rep: their own contracts' invoices only. 2 of 3 is 66.7%.
    expect(await autopayOf(repA, 'current_month')).toEqual(figures(3, 2, 66.7, 270, 0, 0));
    expect(await autopayOf(repB, 'current_month')).toEqual(figures(2, 1, 50, 200, 1, 200));
    // A sales manager reads every contract, as the admin.
    expect(await autopayOf(await ctx.as('sales_manager'), 'current_year')).toEqual(figures(5, 3, 60, 470, 1, 200));
  });

  it('counts nothing of a range the payments and attempts are not in', async () => {
    const admin = await ctx.as('admin');
    expect(await autopayOf(admin, 'last_month')).toEqual(figures(0, 0, null, 0, 0, 0));
    expect(await autopayOf(repB, 'last_month')).toEqual(figures(0, 0, null, 0, 0, 0));
  });

  it('answers the figures in GET /api/reports and in its CSV export', async () => {
    const answer = await ctx.injectAs(repB, { method: 'GET', url: '/api/reports?range=current_month' });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().autopay).toEqual({
      paidInvoices: 2,
      autopayInvoices: 1,
      autopayShare: 50,
      autopayAmount: 200,
      recoveredInvoices: 1,
      recoveredAmount: 200,
    });

    const csv = await ctx.injectAs('admin', { method: 'GET', url: '/api/reports/export?range=current_month' });
    expect(csv.statusCode).toBe(200);
    const lines = csv.body.split('\r\n').filter((line) => line.startsWith('Autopay,'));
    expect(lines).toEqual([
      'Autopay,Invoices paid,5',
      'Autopay,Paid by autopay,3',
      'Autopay,Paid by autopay (%),60.0',
      'Autopay,Collected by autopay,470.00',
      'Autopay,Recovered by retries,1',
      'Autopay,Recovered by retries amount,200.00',
    ]);
  });
});
