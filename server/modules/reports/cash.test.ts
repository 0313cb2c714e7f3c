import type { ReceivablesOutlook } from '@shared/contracts/receivables';
import type { Report } from '@shared/contracts/reports';
import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Db } from '../../db/client';
import { customerCreditEntries, invoices, payments, sessions } from '../../db/schema';
import { buildTestApp, type TestContext } from '../../test/app';
import { createBillableContract, setTaxSettings } from '../../test/billing-factories';
import { createTestCustomer } from '../../test/catalog-factories';
import { createTestUser, type TestUser } from '../../test/factories';
import { runBilling } from '../billing/billing-run';
import { dashboardStats } from '../dashboard/dashboard.service';
import { receivablesOutlook } from '../receivables/receivables.service';
import { reportCsv } from './reports.csv';
import { buildReport, compactReportTotals } from './reports.service';

/**
 * Cash is money received (decision 048): every figure that says cash or revenue received (the Admin
 * Dashboard's Monthly Revenue, finance's Cash this month, the report's revenue and its months, the report's
 * CSV) is one number, checked here against tables of cents worked out by hand.
 *
 * The first scenario is written by the product's own paths (the billing run applying credit balances, manual
 * payments, credit notes, Refund Credit and a void that refunds both a credit-balance payment and a wire
 * transfer, through the API), then each money row is moved to the day the table gives it (an UPDATE, which the
 * report triggers follow). The second is a table of rows written directly: every method and kind, a failed
 * attempt, rows just outside the range.
 */

let ctx: TestContext;
const BASE_URL = 'https://crm.example.test';
/** The moment every figure is read at: March 20, 2031 (a Thursday), noon UTC. */
const NOW = new Date('2031-03-20T12:00:00Z');
const at = (iso: string) => new Date(iso);

let repA: TestUser & { token: string };
let repB: TestUser & { token: string };

const cents = (amount: number) => Math.round(amount * 100);

async function post(url: string, payload: Record<string, unknown>) {
  const response = await ctx.injectAs('finance', { method: 'POST', url, payload });
  expect(response.statusCode, `${url}: ${response.body}`).toBeLessThan(300);
  return response.json();
}

async function invoicesOf(contractId: string) {
  return ctx.db.select().from(invoices).where(eq(invoices.contractId, contractId)).orderBy(asc(invoices.periodStart));
}

async function paymentsOf(invoiceId: string) {
  return ctx.db.select().from(payments).where(eq(payments.invoiceId, invoiceId)).orderBy(asc(payments.createdAt));
}

async function movePayment(id: string, paidAt: string) {
  await ctx.db
    .update(payments)
    .set({ paidAt: at(paidAt) })
    .where(eq(payments.id, id));
}

/** The month figures of the report of a range, company-wide or for a rep, in cents. */
async function cashOf(db: Db, who: { id: string; role: string }, range: Parameters<typeof buildReport>[2]) {
  const report = await buildReport(db, who as Parameters<typeof buildReport>[1], range, NOW);
  return {
    total: cents(report.revenue.total),
    byMonth: report.revenue.byMonth.map((m) => [m.month, cents(m.amount)]),
  };
}

beforeAll(async () => {
  ctx = await buildTestApp();
  await setTaxSettings(ctx.db, { defaultTaxRate: 0, taxIncluded: false, taxLabel: 'Tax' });
  repA = await ctx.signIn(await createTestUser(ctx.db, { role: 'sales', firstName: 'Ann', lastName: 'Cash' }));
  repB = await ctx.signIn(await createTestUser(ctx.db, { role: 'sales', firstName: 'Ben', lastName: 'Cash' }));
});
afterAll(() => ctx.close());
afterEach(() => {
  vi.useRealTimers();
});

describe('cash through the product: credit applied, Refund Credit, a void refunding a payment', () => {
  let outlookCash = 0;

  beforeAll(async () => {
    const x = await createTestCustomer(ctx.db, { name: 'Cash Customer X' });
    const y = await createTestCustomer(ctx.db, { name: 'Cash Customer Y' });
    // X (rep A): $1,480.00 a month from January 1, 2031. Y (rep B): $1,000.00 a month from February 1.
    const { contract: k1 } = await createBillableContract(ctx.db, {
      startDate: '2031-01-01',
      termMonths: 3,
      customerId: x.id,
      salesRepId: repA.id,
      lines: [{ unitPriceCents: 148_000 }],
    });
    const { contract: k2 } = await createBillableContract(ctx.db, {
      startDate: '2031-02-01',
      termMonths: 3,
      customerId: y.id,
      salesRepId: repB.id,
      lines: [{ unitPriceCents: 100_000 }],
    });

    // January: invoice a, paid by check; two credit notes on it put $725.00 on X's balance; $150.00 of it is
    // paid back (Refund Credit).
    await runBilling(ctx.db, { contractId: k1.id, asOf: '2031-01-01', baseUrl: BASE_URL });
    const [a] = await invoicesOf(k1.id);
    await post(`/api/invoices/${a.id}/payments`, { amount: '1480.00', method: 'check', reference: 'chk 1' });
    await post(`/api/invoices/${a.id}/credit-notes`, { amount: '575.00', reason: 'Goodwill' });
    await post(`/api/invoices/${a.id}/credit-notes`, { amount: '150.00', reason: 'Goodwill' });
    await post(`/api/customers/${x.id}/credit-refunds`, { amount: '150.00', method: 'check' });

    // February: invoice b, $575.00 of it paid by X's credit balance (the billing run), the rest by wire; then
    // voided: the credit-balance payment goes back to the balance, the wire is refunded.
    await runBilling(ctx.db, { contractId: k1.id, asOf: '2031-02-01', baseUrl: BASE_URL });
    const b = (await invoicesOf(k1.id))[1];
    expect(b.amountPaidCents).toBe(57_500);
    await post(`/api/invoices/${b.id}/payments`, { amount: '905.00', method: 'wire', reference: 'wire 1' });
    await post(`/api/invoices/${b.id}/void`, { reason: 'Billed in error' });

    // March: invoice c, $575.00 paid by the balance again; a card payment of the rest fails.
    await runBilling(ctx.db, { contractId: k1.id, asOf: '2031-03-01', baseUrl: BASE_URL });
    const c = (await invoicesOf(k1.id))[2];
    expect(c.amountPaidCents).toBe(57_500);
    await ctx.db.insert(payments).values({
      invoiceId: c.id,
      contractId: c.contractId,
      customerId: c.customerId,
      kind: 'payment',
      status: 'failed',
      amountCents: 90_500,
      method: 'card',
      provider: 'builtin',
      failureMessage: 'Your card was declined.',
      paidAt: at('2031-03-02T09:00:00Z'),
    });
    // Y pays invoice d in cash.
    await runBilling(ctx.db, { contractId: k2.id, asOf: '2031-02-01', baseUrl: BASE_URL });
    const [d] = await invoicesOf(k2.id);
    await post(`/api/invoices/${d.id}/payments`, { amount: '1000.00', method: 'cash', reference: 'till' });

    // Each money row to its day of the table below.
    const [aCheck] = await paymentsOf(a.id);
    expect(aCheck).toMatchObject({ kind: 'payment', method: 'check', amountCents: 148_000 });
    await movePayment(aCheck.id, '2031-01-10T10:00:00Z');
    const bRows = await paymentsOf(b.id);
    const row = (kind: string, method: string) => bRows.find((p) => p.kind === kind && p.method === method)!;
    expect(bRows.map((p) => [p.kind, p.method, p.amountCents]).sort()).toEqual(
      [
        ['payment', 'credit', 57_500],
        ['payment', 'wire', 90_500],
        ['refund', 'credit', 57_500],
        ['refund', 'wire', 90_500],
      ].sort(),
    );
    await movePayment(row('payment', 'credit').id, '2031-02-01T06:00:00Z');
    await movePayment(row('payment', 'wire').id, '2031-02-05T10:00:00Z');
    await movePayment(row('refund', 'credit').id, '2031-02-10T10:00:00Z');
    await movePayment(row('refund', 'wire').id, '2031-03-03T10:00:00Z');
    const [cCredit] = (await paymentsOf(c.id)).filter((p) => p.status === 'succeeded');
    expect(cCredit).toMatchObject({ method: 'credit', amountCents: 57_500 });
    await movePayment(cCredit.id, '2031-03-01T06:00:00Z');
    const [dCash] = await paymentsOf(d.id);
    await movePayment(dCash.id, '2031-03-15T16:00:00Z');
    const credit = await ctx.db.select().from(customerCreditEntries).where(eq(customerCreditEntries.customerId, x.id));
    expect(credit.map((e) => [e.kind, e.amountCents]).sort()).toEqual(
      [
        ['credit', 57_500],
        ['credit', 15_000],
        ['refunded', -15_000],
        ['applied', -57_500],
        ['unapplied', 57_500],
        ['applied', -57_500],
      ].sort(),
    );
    await ctx.db
      .update(customerCreditEntries)
      .set({ createdAt: at('2031-01-20T10:00:00Z') })
      .where(and(eq(customerCreditEntries.customerId, x.id), eq(customerCreditEntries.kind, 'refunded')));
    outlookCash = (await receivablesOutlook(ctx.db, NOW)).cashThisMonth;
  });

  // The table, in cents, worked out by hand from the rows above (+ money in, - money out, 0 not cash):
  //   Jan 10  check a                  +148,000   rep A
  //   Jan 20  Refund Credit X           -15,000   (the customer's: company-wide only)
  //   Feb  1  credit balance on b             0
  //   Feb  5  wire b                    +90,500   rep A
  //   Feb 10  b's credit payment back         0   (to the balance)
  //   Mar  1  credit balance on c             0
  //   Mar  2  card on c, failed               0
  //   Mar  3  wire b refunded           -90,500   rep A
  //   Mar 15  cash d                   +100,000   rep B
  const COMPANY = [
    ['2031-01', 133_000],
    ['2031-02', 90_500],
    ['2031-03', 9_500],
  ];
  const REP_A = [
    ['2031-01', 148_000],
    ['2031-02', 90_500],
    ['2031-03', -90_500],
  ];
  const REP_B = [
    ['2031-01', 0],
    ['2031-02', 0],
    ['2031-03', 100_000],
  ];

  it("gives the report's revenue by month and its total (company-wide and per rep)", async () => {
    const admin = { id: repA.id, role: 'admin' };
    expect(await cashOf(ctx.db, admin, 'last_3_months')).toEqual({ total: 233_000, byMonth: COMPANY });
    expect(await cashOf(ctx.db, repA, 'last_3_months')).toEqual({ total: 148_000, byMonth: REP_A });
    expect(await cashOf(ctx.db, repB, 'last_3_months')).toEqual({ total: 100_000, byMonth: REP_B });
    expect(await cashOf(ctx.db, admin, 'current_month')).toEqual({ total: 9_500, byMonth: [['2031-03', 9_500]] });
    expect(await cashOf(ctx.db, admin, 'last_month')).toEqual({ total: 90_500, byMonth: [['2031-02', 90_500]] });
  });

  it("gives the Admin Dashboard's Monthly Revenue, and finance's Cash this month, as the same number", async () => {
    const admin = await ctx.as('admin');
    expect((await dashboardStats(ctx.db, admin, false, NOW)).monthlyRevenue).toBe(95);
    expect((await dashboardStats(ctx.db, repA, false, NOW)).monthlyRevenue).toBe(-905);
    expect((await dashboardStats(ctx.db, repB, false, NOW)).monthlyRevenue).toBe(1000);
    expect(outlookCash).toBe(95);
  });

  it('gives the same cash in the CSV export', async () => {
    const admin = await ctx.as('admin');
    const csv = reportCsv(await buildReport(ctx.db, admin, 'last_3_months', NOW));
    expect(csv).toContain('Revenue,Total,2330.00\r\n');
    expect(csv).toContain('Revenue by month,2031-01,1330.00\r\nRevenue by month,2031-02,905.00\r\n');
    expect(csv).toContain('Revenue by month,2031-03,95.00\r\n');
  });

  it('keeps the same totals once the delta rows are folded', async () => {
    await compactReportTotals(ctx.db);
    const admin = { id: repA.id, role: 'admin' };
    expect(await cashOf(ctx.db, admin, 'last_3_months')).toEqual({ total: 233_000, byMonth: COMPANY });
    expect(await cashOf(ctx.db, repA, 'last_3_months')).toEqual({ total: 148_000, byMonth: REP_A });
  });
});

describe('cash from a table of money rows', () => {
  const instant = (iso: string) => at(iso);
  let rowsWritten = false;

  /**
   * Rows of one rep's contract (repC) and customer: [method, kind, status, amount in cents, paid at]. The
   * expected cash of each month, worked by hand, follows the table.
   */
  const ROWS: [
    'card' | 'check' | 'wire' | 'cash' | 'other' | 'credit',
    'payment' | 'refund',
    'succeeded' | 'failed',
    number,
    string,
  ][] = [
    ['card', 'payment', 'succeeded', 148_000, '2031-03-02T10:00:00Z'], //  +148,000 Mar (card, autopay)
    ['check', 'payment', 'succeeded', 50_000, '2031-03-05T10:00:00Z'], //  +50,000 Mar (manual)
    ['wire', 'payment', 'succeeded', 100_000, '2031-02-14T10:00:00Z'], //  +100,000 Feb (bank)
    ['cash', 'payment', 'succeeded', 12_000, '2030-10-03T10:00:00Z'], //  +12,000 Oct
    ['other', 'payment', 'succeeded', 7_500, '2031-01-31T23:59:59Z'], //  +7,500 Jan (its last second)
    ['card', 'payment', 'failed', 99_900, '2031-03-06T10:00:00Z'], //  0 (failed)
    ['credit', 'payment', 'succeeded', 57_500, '2031-03-01T06:00:00Z'], //  0 (credit balance applied)
    ['credit', 'payment', 'succeeded', 28_800, '2031-03-01T06:00:00Z'], //  0 (credit balance applied)
    ['card', 'refund', 'succeeded', 20_000, '2031-03-10T10:00:00Z'], //  -20,000 Mar (a payment refunded)
    ['credit', 'refund', 'succeeded', 28_800, '2031-03-11T10:00:00Z'], //  0 (back to the balance)
    ['card', 'refund', 'failed', 5_000, '2031-03-12T10:00:00Z'], //  0 (a refund that failed)
    ['card', 'payment', 'succeeded', 33_300, '2030-09-30T23:59:59Z'], //  in no range below (September)
    ['card', 'payment', 'succeeded', 44_400, '2031-04-01T00:00:00Z'], //  in no range below (April)
  ];
  /** Credit balances paid back (Refund Credit) and the balance's other movements: [kind, cents, at]. */
  const CREDIT: ['credit' | 'applied' | 'unapplied' | 'refunded', number, string][] = [
    ['refunded', -15_000, '2031-03-12T10:00:00Z'], //  -15,000 Mar
    ['refunded', -6_000, '2031-01-09T10:00:00Z'], //  -6,000 Jan
    ['credit', 30_000, '2031-03-03T10:00:00Z'], //  0
    ['applied', -57_500, '2031-03-01T06:00:00Z'], //  0
    ['unapplied', 28_800, '2031-03-11T10:00:00Z'], //  0
  ];
  // Company-wide: Oct 12,000; Jan 7,500 - 6,000 = 1,500; Feb 100,000; Mar 148,000 + 50,000 - 20,000 - 15,000
  // = 163,000. The rep's: Oct 12,000; Jan 7,500; Feb 100,000; Mar 178,000 (the customer's Refund Credit is not
  // the rep's).
  const SIX_MONTHS = ['2030-10', '2030-11', '2030-12', '2031-01', '2031-02', '2031-03'];
  const COMPANY = [12_000, 0, 0, 1_500, 100_000, 163_000];
  const REP = [12_000, 0, 0, 7_500, 100_000, 178_000];
  let repC: TestUser & { token: string };

  beforeAll(async () => {
    // A database of its own figures: the scenario above is removed first, so only this table counts.
    await ctx.db.execute(sql`truncate payments, customer_credit_entries, report_month_totals cascade`);
    repC = await ctx.signIn(await createTestUser(ctx.db, { role: 'sales', firstName: 'Cy', lastName: 'Cash' }));
    const customer = await createTestCustomer(ctx.db, { name: 'Cash Table Ltd' });
    const { contract } = await createBillableContract(ctx.db, {
      startDate: '2030-09-01',
      termMonths: 12,
      customerId: customer.id,
      salesRepId: repC.id,
      lines: [{ unitPriceCents: 10_000 }],
    });
    await runBilling(ctx.db, { contractId: contract.id, asOf: '2030-09-01', baseUrl: BASE_URL });
    const [invoice] = await invoicesOf(contract.id);
    await ctx.db.insert(payments).values(
      ROWS.map(([method, kind, status, amountCents, paidAt]) => ({
        invoiceId: invoice.id,
        contractId: contract.id,
        customerId: customer.id,
        kind,
        status,
        amountCents,
        method,
        provider: method === 'credit' ? 'credit' : 'manual',
        paidAt: instant(paidAt),
      })),
    );
    await ctx.db.insert(customerCreditEntries).values(
      CREDIT.map(([kind, amountCents, createdAt]) => ({
        customerId: customer.id,
        kind,
        amountCents,
        createdAt: instant(createdAt),
      })),
    );
    rowsWritten = true;
  });

  it("gives every month of the report's last six months, company-wide and for the rep", async () => {
    expect(rowsWritten).toBe(true);
    const admin = await ctx.as('admin');
    expect(await cashOf(ctx.db, admin, 'last_6_months')).toEqual({
      total: 276_500,
      byMonth: SIX_MONTHS.map((m, i) => [m, COMPANY[i]]),
    });
    expect(await cashOf(ctx.db, repC, 'last_6_months')).toEqual({
      total: 297_500,
      byMonth: SIX_MONTHS.map((m, i) => [m, REP[i]]),
    });
    expect((await dashboardStats(ctx.db, admin, false, NOW)).monthlyRevenue).toBe(1630);
    expect((await dashboardStats(ctx.db, repC, false, NOW)).monthlyRevenue).toBe(1780);
    expect((await receivablesOutlook(ctx.db, NOW)).cashThisMonth).toBe(1630);
  });

  it('answers the same through the API: dashboard, cash outlook, report and its CSV', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
    // Signed in at the pinned moment: a session's idle and absolute limits count from it.
    const admin = await ctx.signIn(await createTestUser(ctx.db, { role: 'admin' }));
    const finance = await ctx.signIn(await createTestUser(ctx.db, { role: 'finance' }));
    const rep = await ctx.signIn(repC);
    // The sessions' last use is the database's clock (the real one on PostgreSQL): set it to the pinned moment.
    await ctx.db.update(sessions).set({ lastUsedAt: NOW });
    const get = async (who: TestUser & { token: string }, url: string) => {
      const response = await ctx.injectAs(who, { method: 'GET', url });
      expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
      return response;
    };
    expect((await get(admin, '/api/dashboard/stats')).json().monthlyRevenue).toBe(1630);
    expect((await get(rep, '/api/dashboard/stats')).json().monthlyRevenue).toBe(1780);
    expect(((await get(finance, '/api/receivables/outlook')).json() as ReceivablesOutlook).cashThisMonth).toBe(1630);
    const report = (await get(admin, '/api/reports?range=last_6_months')).json() as Report;
    expect(report.revenue).toEqual({
      total: 2765,
      byMonth: SIX_MONTHS.map((month, i) => ({ month, amount: COMPANY[i] / 100 })),
    });
    const csv = (await get(admin, '/api/reports/export?range=last_6_months')).body;
    expect(csv).toContain('Revenue,Total,2765.00\r\n');
    expect(csv).toContain(
      [
        'Revenue by month,2030-10,120.00',
        'Revenue by month,2030-11,0.00',
        'Revenue by month,2030-12,0.00',
        'Revenue by month,2031-01,15.00',
        'Revenue by month,2031-02,1000.00',
        'Revenue by month,2031-03,1630.00',
      ].join('\r\n'),
    );
  });

  it('follows a row that moves, changes status or is removed, and a contract that changes rep', async () => {
    const admin = await ctx.as('admin');
    const [failed] = await ctx.db
      .select()
      .from(payments)
      .where(and(eq(payments.status, 'failed'), eq(payments.amountCents, 99_900)));
    // The failed attempt is retried and succeeds (+99,900 in March); the Refund Credit of January moves to
    // March (-6,000 there, +6,000 back to January); the credit application of 575.00 is deleted (nothing).
    await ctx.db.update(payments).set({ status: 'succeeded' }).where(eq(payments.id, failed.id));
    await ctx.db
      .update(customerCreditEntries)
      .set({ createdAt: instant('2031-03-13T10:00:00Z') })
      .where(and(eq(customerCreditEntries.kind, 'refunded'), eq(customerCreditEntries.amountCents, -6_000)));
    await ctx.db.delete(payments).where(and(eq(payments.method, 'credit'), eq(payments.amountCents, 57_500)));
    expect(await cashOf(ctx.db, admin, 'last_6_months')).toEqual({
      total: 276_500 + 99_900,
      byMonth: SIX_MONTHS.map((m, i) => [m, [12_000, 0, 0, 7_500, 100_000, 163_000 + 99_900 - 6_000][i]]),
    });
    // The contract goes to rep A: its cash (not the credit balance's) goes with it.
    await ctx.db.execute(sql`update contracts set sales_rep_id = ${repA.id} where sales_rep_id = ${repC.id}`);
    const moved = [12_000, 0, 0, 7_500, 100_000, 178_000 + 99_900];
    expect(await cashOf(ctx.db, repA, 'last_6_months')).toEqual({
      total: moved.reduce((a, b) => a + b, 0),
      byMonth: SIX_MONTHS.map((m, i) => [m, moved[i]]),
    });
    expect((await cashOf(ctx.db, repC, 'last_6_months')).total).toBe(0);
  });
});
