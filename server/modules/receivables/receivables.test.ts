import type { ContractSummary } from '@shared/contracts/contract-responses';
import type { CustomerReceivable, ReceivableRow, ReceivablesOutlook } from '@shared/contracts/receivables';
import type { Report } from '@shared/contracts/reports';
import { ROLES } from '@shared/roles';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { autopayAttempts, invoices, paymentMethods } from '../../db/schema';
import { businessToday } from '../../lib/business-day';
import { createMailer } from '../../lib/mailer';
import { buildTestApp, type TestContext } from '../../test/app';
import { createBillableContract, setContractSettings, setTaxSettings } from '../../test/billing-factories';
import { createTestCustomer } from '../../test/catalog-factories';
import { runBilling } from '../billing/billing-run';
import { runDunning } from '../dunning/dunning.service';

/**
 * Receivables (the aggregate per customer, its filters and CSV, one customer's open invoices, finance's cash
 * outlook) over invoices made by the product's own paths: contracts billed by the billing run, manual
 * payments, credit notes and a credit refund through the API, dunning run on the business day. The expected
 * figures are a literal table; only the dates are counted from today, by a simple day count of the test's own.
 */

let ctx: TestContext;
const BASE_URL = 'https://crm.example.test';
const today = businessToday();

/** A calendar day `days` after `day` (the test's own date arithmetic). */
const plus = (day: string, days: number) => {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};

const ids: Record<'A' | 'B' | 'C' | 'D' | 'E', string> = { A: '', B: '', C: '', D: '', E: '' };
const invoiceOf: Record<string, { id: string; number: string; contractId: string }> = {};

/**
 * One contract of `customer` billing `cents` a month (term one month: nothing is scheduled after it), its one
 * invoice due `daysPastDue` days before today (due = period start + 7 grace days).
 */
async function invoiceDue(key: string, customerId: string, cents: number, daysPastDue: number) {
  const startDate = plus(today, -daysPastDue - 7);
  const { contract } = await createBillableContract(ctx.db, {
    startDate,
    customerId,
    termMonths: 1,
    lines: [{ unitPriceCents: cents }],
  });
  await runBilling(ctx.db, { contractId: contract.id, asOf: startDate, baseUrl: BASE_URL });
  const [invoice] = await ctx.db
    .select()
    .from(invoices)
    .where(eq(invoices.contractId, contract.id))
    .orderBy(asc(invoices.periodStart));
  expect(invoice.dueDate).toBe(plus(today, -daysPastDue));
  invoiceOf[key] = { id: invoice.id, number: invoice.number, contractId: contract.id };
}

async function pay(key: string, amount: string) {
  const response = await ctx.injectAs('finance', {
    method: 'POST',
    url: `/api/invoices/${invoiceOf[key].id}/payments`,
    payload: { amount, method: 'check', reference: `chk ${key}`, paidAt: today },
  });
  expect(response.statusCode, response.body).toBeLessThan(300);
}

async function credit(key: string, amount: string) {
  const response = await ctx.injectAs('finance', {
    method: 'POST',
    url: `/api/invoices/${invoiceOf[key].id}/credit-notes`,
    payload: { amount, reason: 'Goodwill' },
  });
  expect(response.statusCode, response.body).toBeLessThan(300);
}

beforeAll(async () => {
  ctx = await buildTestApp();
  await setTaxSettings(ctx.db, { defaultTaxRate: 0, taxIncluded: false, taxLabel: 'Tax' });
  await setContractSettings(ctx.db, {
    pausePaymentsAfterExpiry: true,
    gracePeriodsEndOfDays: 7,
    pauseAfterOverdueDays: 60,
  });
  for (const key of Object.keys(ids) as (keyof typeof ids)[]) {
    ids[key] = (await createTestCustomer(ctx.db, { name: `Receivable ${key} Ltd`, company: null })).id;
  }
  // A: $100.00 45 days past due, $30.00 paid; $250.00 due in 3 days.
  await invoiceDue('A1', ids.A, 100_00, 45);
  await invoiceDue('A2', ids.A, 250_00, -3);
  // B: $400.00 100 days past due, credited $150.00; $80.00 10 days past due.
  await invoiceDue('B1', ids.B, 400_00, 100);
  await invoiceDue('B2', ids.B, 80_00, 10);
  // C: $60.00 8 days past due; $50.00 5 days past due, paid, then credited $20.00 (to its credit balance).
  await invoiceDue('C1', ids.C, 60_00, 8);
  await invoiceDue('C2', ids.C, 50_00, 5);
  // D: $90.00 paid and credited in full ($90.00 credit), $40.00 of it refunded.
  await invoiceDue('D1', ids.D, 90_00, 20);
  // E: paid in full: owes nothing, holds no credit.
  await invoiceDue('E1', ids.E, 70_00, 2);

  await pay('A1', '30.00');
  await credit('B1', '150.00');
  await pay('C2', '50.00');
  await credit('C2', '20.00');
  await pay('D1', '90.00');
  await credit('D1', '90.00');
  await pay('E1', '70.00');
  const refund = await ctx.injectAs('finance', {
    method: 'POST',
    url: `/api/customers/${ids.D}/credit-refunds`,
    payload: { amount: '40.00', method: 'check' },
  });
  expect(refund.statusCode, refund.body).toBeLessThan(300);

  // Dunning on the business day: reminders at due + 3 and + 10, the pause for non-payment at due + 60.
  await runDunning(
    {
      db: ctx.db,
      mailer: createMailer({ SMTP_URL: undefined, MAIL_FROM: 'AdCRM <b@adcrm.local>' }),
      baseUrl: BASE_URL,
    },
    { asOf: today },
  );

  // Scheduled, not yet invoiced: an active contract starting in 10 days, $123.45 a month and a $10.00 setup fee.
  await createBillableContract(ctx.db, {
    startDate: plus(today, 10),
    setupFeeCents: 10_00,
    lines: [{ unitPriceCents: 123_45 }],
  });
});
afterAll(() => ctx.close());

const list = async (query = '') => {
  const response = await ctx.injectAs('finance', { method: 'GET', url: `/api/receivables${query}` });
  expect(response.statusCode, response.body).toBe(200);
  return { rows: response.json() as ReceivableRow[], total: Number(response.headers['x-total-count']) };
};

/** [customer, open, current, 1-30, 31-60, 61-90, 90+, overdue, stage, credit, last payment] */
type Expected = [string, number, number, number, number, number, number, number, string | null, number, number | null];
const tableOf = (rows: ReceivableRow[]): Expected[] =>
  rows.map((r) => [
    r.customerName,
    r.openBalance,
    r.aging.current,
    r.aging['1-30'],
    r.aging['31-60'],
    r.aging['61-90'],
    r.aging['90+'],
    r.overdue,
    r.dunningStage,
    r.creditBalance,
    r.lastPaymentAmount,
  ]);

// biome-ignore format: a table is easier to review with aligned columns
const EXPECTED: Record<'A' | 'B' | 'C' | 'D', Expected> = {
  //     customer             open    current 1-30  31-60 61-90 90+   overdue stage                credit last payment
  B: ['Receivable B Ltd',   330,    0,      80,   0,    0,    250,  330,    'contract_paused',   0,     null],
  A: ['Receivable A Ltd',   320,    250,    0,    70,   0,    0,    70,     'second_reminder',   0,     30],
  C: ['Receivable C Ltd',   60,     0,      60,   0,    0,    0,    60,     'first_reminder',    20,    50],
  D: ['Receivable D Ltd',   0,      0,      0,    0,    0,    0,    0,      null,                50,    90],
};

describe('GET /api/receivables', () => {
  it('lists each customer owing money or holding credit once, aged by days past due, largest balance first', async () => {
    const { rows, total } = await list();
    expect(total).toBe(4);
    expect(tableOf(rows)).toEqual([EXPECTED.B, EXPECTED.A, EXPECTED.C, EXPECTED.D]);
    const byName = Object.fromEntries(rows.map((r) => [r.customerName, r]));
    expect(byName['Receivable B Ltd']).toMatchObject({
      openInvoices: 2,
      overdueInvoices: 2,
      oldestDueDate: plus(today, -100),
      daysPastDue: 100,
      lastPaymentDate: null,
    });
    expect(byName['Receivable A Ltd']).toMatchObject({
      openInvoices: 2,
      overdueInvoices: 1,
      oldestDueDate: plus(today, -45),
      daysPastDue: 45,
      lastPaymentDate: today,
    });
    expect(byName['Receivable D Ltd']).toMatchObject({ openInvoices: 0, oldestDueDate: null, daysPastDue: 0 });
  });

  it('filters by bucket, dunning stage, credit and name, sorts by the oldest due date, pages', async () => {
    expect(tableOf((await list('?bucket=90%2B')).rows)).toEqual([EXPECTED.B]);
    expect(tableOf((await list('?bucket=1-30')).rows)).toEqual([EXPECTED.B, EXPECTED.C]);
    expect(tableOf((await list('?bucket=current')).rows)).toEqual([EXPECTED.A]);
    expect(tableOf((await list('?bucket=61-90')).rows)).toEqual([]);
    expect(tableOf((await list('?stage=first_reminder')).rows)).toEqual([EXPECTED.C]);
    expect(tableOf((await list('?stage=contract_paused')).rows)).toEqual([EXPECTED.B]);
    expect(tableOf((await list('?stage=overdue')).rows)).toEqual([]);
    expect(tableOf((await list('?credit=true')).rows)).toEqual([EXPECTED.C, EXPECTED.D]);
    expect(tableOf((await list('?q=receivable%20a')).rows)).toEqual([EXPECTED.A]);
    expect(tableOf((await list('?sort=oldest')).rows)).toEqual([EXPECTED.B, EXPECTED.A, EXPECTED.C, EXPECTED.D]);
    const page = await list('?limit=2&offset=1');
    expect(page.total).toBe(4);
    expect(tableOf(page.rows)).toEqual([EXPECTED.A, EXPECTED.C]);
    expect((await list('?limit=2&offset=10')).total).toBe(4);
  });

  it('refuses filters it does not know with 400', async () => {
    for (const query of ['?bucket=7-14', '?stage=late', '?sort=name', '?credit=maybe', '?limit=0']) {
      const response = await ctx.injectAs('finance', { method: 'GET', url: `/api/receivables${query}` });
      expect(response.statusCode, query).toBe(400);
      expect(response.json().message).toBeTruthy();
    }
  });

  it('sums the filtered customers in the summary', async () => {
    const all = await ctx.injectAs('finance', { method: 'GET', url: '/api/receivables/summary' });
    expect(all.json()).toEqual({
      customers: 4,
      openBalance: 710,
      overdue: 460,
      aging: { current: 250, '1-30': 140, '31-60': 70, '61-90': 0, '90+': 250 },
      creditBalance: 70,
    });
    const credit = await ctx.injectAs('finance', { method: 'GET', url: '/api/receivables/summary?credit=true' });
    expect(credit.json()).toEqual({
      customers: 2,
      openBalance: 60,
      overdue: 60,
      aging: { current: 0, '1-30': 60, '31-60': 0, '61-90': 0, '90+': 0 },
      creditBalance: 70,
    });
  });
});

describe('GET /api/receivables?autopay=failed (the screen\'s "Autopay failed")', () => {
  it('keeps the customers with an open invoice whose latest autopay attempt failed or needs the customer', async () => {
    // Test data only: a card on file for A, B, C and E, and attempts written as the charge run would leave them.
    const methodOf: Record<string, string> = {};
    for (const key of ['A', 'B', 'C', 'E'] as const) {
      const [method] = await ctx.db
        .insert(paymentMethods)
        .values({
          customerId: ids[key],
          provider: 'builtin',
          providerMethodId: `pm_receivables_${key}`,
          brand: 'visa',
          last4: '4242',
          expMonth: 12,
          expYear: 2030,
          isDefault: true,
          consentText: 'I authorise the test business to charge this payment method.',
          consentName: `Receivable ${key} Ltd`,
          source: 'portal',
        })
        .returning({ id: paymentMethods.id });
      methodOf[key] = method.id;
    }
    const attempt = (key: string, customer: 'A' | 'B' | 'C' | 'E', attemptNumber: number, status: string) => ({
      invoiceId: invoiceOf[key].id,
      customerId: ids[customer],
      attemptNumber,
      paymentMethodId: methodOf[customer],
      amountCents: 1_00,
      status,
      seriesStartedOn: today,
    });
    await ctx.db.insert(autopayAttempts).values([
      // A1: failed, then failed again: its latest attempt failed.
      attempt('A1', 'A', 1, 'failed'),
      attempt('A1', 'A', 2, 'failed'),
      // B1: failed, then a retry in progress; B2: failed, then skipped (nothing due): neither latest failed.
      attempt('B1', 'B', 1, 'failed'),
      attempt('B1', 'B', 2, 'pending'),
      attempt('B2', 'B', 1, 'failed'),
      attempt('B2', 'B', 2, 'skipped'),
      // C1: waits for the customer's 3-D Secure.
      attempt('C1', 'C', 1, 'requires_action'),
      // E1 failed but has since been paid: not open.
      attempt('E1', 'E', 1, 'failed'),
    ]);

    expect(tableOf((await list('?autopay=failed')).rows)).toEqual([EXPECTED.A, EXPECTED.C]);
    expect((await list('?autopay=failed')).total).toBe(2);
    expect(tableOf((await list('?autopay=failed&bucket=31-60')).rows)).toEqual([EXPECTED.A]);
    expect(tableOf((await list('?autopay=all')).rows)).toEqual([EXPECTED.B, EXPECTED.A, EXPECTED.C, EXPECTED.D]);
    const summary = await ctx.injectAs('finance', { method: 'GET', url: '/api/receivables/summary?autopay=failed' });
    expect(summary.json()).toEqual({
      customers: 2,
      openBalance: 380,
      overdue: 130,
      aging: { current: 250, '1-30': 60, '31-60': 70, '61-90': 0, '90+': 0 },
      creditBalance: 20,
    });
    const csv = await ctx.injectAs('finance', { method: 'GET', url: '/api/receivables/export?autopay=failed' });
    expect(csv.body.split('\r\n').map((line) => line.split(',')[0])).toEqual([
      'Customer',
      'Receivable A Ltd',
      'Receivable C Ltd',
      '',
    ]);
    const refused = await ctx.injectAs('finance', { method: 'GET', url: '/api/receivables?autopay=true' });
    expect(refused.statusCode).toBe(400);
  });
});

describe('GET /api/receivables/export', () => {
  it('downloads the filtered rows as CSV named with the business day', async () => {
    const response = await ctx.injectAs('finance', { method: 'GET', url: '/api/receivables/export?bucket=1-30' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/csv');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="receivables-${today}.csv"`);
    expect(response.body.split('\r\n')).toEqual([
      'Customer,Company,Open Balance,Current,1-30 Days,31-60 Days,61-90 Days,90+ Days,Overdue,Open Invoices,Oldest Due Date,Days Past Due,Dunning Stage,Credit Balance,Last Payment Date,Last Payment Amount',
      `Receivable B Ltd,,330.00,0.00,80.00,0.00,0.00,250.00,330.00,2,${plus(today, -100)},100,Contract paused for non-payment,0.00,,`,
      `Receivable C Ltd,,60.00,0.00,60.00,0.00,0.00,0.00,60.00,1,${plus(today, -8)},8,First reminder sent,20.00,${today},50.00`,
      '',
    ]);
  });
});

describe('GET /api/receivables/customers/:id', () => {
  it("shows a customer's balance, credit and open invoices, oldest due first", async () => {
    const response = await ctx.injectAs('sales_manager', { method: 'GET', url: `/api/receivables/customers/${ids.A}` });
    expect(response.statusCode).toBe(200);
    const body = response.json() as CustomerReceivable;
    expect(body).toEqual({
      customerId: ids.A,
      openBalance: 320,
      overdue: 70,
      creditBalance: 0,
      lastPaymentDate: today,
      lastPaymentAmount: 30,
      openInvoiceCount: 2,
      openInvoices: [
        {
          id: invoiceOf.A1.id,
          number: invoiceOf.A1.number,
          contractId: invoiceOf.A1.contractId,
          dueDate: plus(today, -45),
          total: 100,
          amountDue: 70,
          status: 'pending',
          overdue: true,
          daysPastDue: 45,
        },
        {
          id: invoiceOf.A2.id,
          number: invoiceOf.A2.number,
          contractId: invoiceOf.A2.contractId,
          dueDate: plus(today, 3),
          total: 250,
          amountDue: 250,
          status: 'pending',
          overdue: false,
          daysPastDue: 0,
        },
      ],
    });
  });

  it('answers zeros for a customer that owes nothing, and 404 for one that does not exist', async () => {
    const paid = await ctx.injectAs('finance', { method: 'GET', url: `/api/receivables/customers/${ids.E}` });
    expect(paid.json()).toMatchObject({ openBalance: 0, overdue: 0, creditBalance: 0, openInvoices: [] });
    const missing = await ctx.injectAs('finance', {
      method: 'GET',
      url: '/api/receivables/customers/00000000-0000-4000-8000-000000000000',
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('Customer not found');
  });
});

describe('GET /api/receivables/outlook', () => {
  it("gives finance's dashboard figures: A/R, overdue, cash this month, expected in the next 30 days", async () => {
    const response = await ctx.injectAs('finance', { method: 'GET', url: '/api/receivables/outlook' });
    expect(response.statusCode).toBe(200);
    expect(response.json() as ReceivablesOutlook).toEqual({
      openBalance: 710,
      overdue: 460,
      // Checks of 30 + 50 + 90 + 70 received today, less the $40.00 credit refund.
      cashThisMonth: 200,
      // A2's $250.00 due in 3 days, and the scheduled contract's first charge ($123.45 + $10.00 setup) due in 17.
      expectedNext30Days: 383.45,
      expectedFromInvoices: 250,
      expectedFromSchedule: 133.45,
      asOf: today,
    });
  });
});

describe('who may read receivables', () => {
  it('finance, admins and managers; sales and clients get 403', async () => {
    const expected: Record<string, number> = {
      super_admin: 200,
      admin: 200,
      sales_manager: 200,
      finance: 200,
      sales: 403,
      client: 403,
    };
    for (const role of ROLES) {
      for (const url of [
        '/api/receivables',
        '/api/receivables/summary',
        '/api/receivables/export',
        '/api/receivables/outlook',
        `/api/receivables/customers/${ids.A}`,
      ]) {
        const response = await ctx.injectAs(role, { method: 'GET', url });
        expect(response.statusCode, `${role} ${url}`).toBe(expected[role]);
      }
    }
    const anonymous = await ctx.app.inject({ method: 'GET', url: '/api/receivables' });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe("the contracts list's reason and expiring filters (the reports' alert links)", () => {
  const contractsAt = async (query: string) => {
    const response = await ctx.injectAs('admin', { method: 'GET', url: `/api/contracts${query}` });
    expect(response.statusCode, response.body).toBe(200);
    return { rows: response.json() as ContractSummary[], total: Number(response.headers['x-total-count']) };
  };
  const report = async () =>
    (await ctx.injectAs('admin', { method: 'GET', url: '/api/reports?range=current_month' })).json() as Report;

  it('shows just the contracts paused for non-payment, as many as the alert counts', async () => {
    const paused = await contractsAt('?reason=non_payment');
    expect(paused.rows.map((c) => c.id)).toEqual([invoiceOf.B1.contractId]);
    expect(paused.total).toBe((await report()).alerts.contractsPausedForNonPayment);
    expect((await contractsAt('?status=paused&reason=manual')).rows).toEqual([]);
    expect((await contractsAt('?status=active&reason=non_payment')).rows).toEqual([]);
    const bad = await ctx.injectAs('admin', { method: 'GET', url: '/api/contracts?reason=late' });
    expect(bad.statusCode).toBe(400);
  });

  it('shows just the running contracts ending within 30 days, as many as the alert counts', async () => {
    const expiring = await contractsAt('?expiring=30');
    const alert = (await report()).alerts.expiringContracts;
    expect(alert).toBeGreaterThan(0);
    expect(expiring.total).toBe(alert);
    // A second count of the same rule from the contracts themselves: running, auto-stop from today to today + 30.
    const all = await contractsAt('?limit=500');
    const ending = all.rows.filter(
      (c) =>
        ['active', 'paused'].includes(c.status) &&
        c.autoStopDate !== null &&
        c.autoStopDate >= today &&
        c.autoStopDate <= plus(today, 30),
    );
    expect(expiring.rows.map((c) => c.id).sort()).toEqual(ending.map((c) => c.id).sort());
    for (const query of ['?expiring=0', '?expiring=soon']) {
      const bad = await ctx.injectAs('admin', { method: 'GET', url: `/api/contracts${query}` });
      expect(bad.statusCode, query).toBe(400);
    }
  });
});
