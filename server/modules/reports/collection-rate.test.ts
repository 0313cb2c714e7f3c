import type { Report, ReportRange } from '@shared/contracts/reports';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoices } from '../../db/schema';
import { buildTestApp, type TestContext } from '../../test/app';
import { createBillableContract } from '../../test/billing-factories';
import { createTestCustomer } from '../../test/catalog-factories';
import { createTestUser, type TestUser } from '../../test/factories';
import { reportCsv } from './reports.csv';
import { buildReport, compactReportTotals } from './reports.service';

/**
 * The collection rate (decision 049): of the invoices that fell due in the range up to today, the share of
 * their amount (net of credit notes) that is paid (net of refunds), from 0 to 100; null when none fell due.
 * Today is the caller's: every report here is built at an explicit moment. The expected figures are a table
 * worked out by hand.
 */

let ctx: TestContext;
/** March 20, 2031, noon UTC: today is 2031-03-20. */
const NOW = new Date('2031-03-20T12:00:00Z');
let repD: TestUser & { token: string };
let repE: TestUser & { token: string };
const ids: Record<string, string> = {};
const contractOf: Record<'D' | 'E', { id: string; customerId: string }> = {
  D: { id: '', customerId: '' },
  E: { id: '', customerId: '' },
};

/**
 * [key, rep, total, due date, status, paid, credited, refunded] in cents, and what each is for.
 */
const INVOICES: [string, 'D' | 'E', number, string, 'pending' | 'paid' | 'failed' | 'void', number, number, number][] =
  [
    ['A', 'D', 100_000, '2031-03-05', 'paid', 100_000, 0, 0], // paid in full
    ['B', 'D', 50_000, '2031-03-10', 'pending', 20_000, 0, 0], // partly paid
    ['C', 'D', 80_000, '2031-03-15', 'pending', 0, 30_000, 0], // partly credited: 50,000 fell due
    ['D', 'D', 60_000, '2031-03-20', 'void', 60_000, 60_000, 60_000], // paid, then voided and refunded: out
    ['E', 'D', 40_000, '2031-03-21', 'pending', 0, 0, 0], // due after today: not yet
    ['F', 'E', 70_000, '2031-02-27', 'paid', 70_000, 10_000, 0], // paid, then credited (to the balance): 60,000 of 60,000
    ['G', 'E', 30_000, '2031-03-01', 'pending', 0, 0, 0], // the range's first day, unpaid
    ['H', 'E', 90_000, '2031-02-28', 'paid', 90_000, 0, 20_000], // paid, 20,000 refunded: 70,000 collected
    ['I', 'E', 25_000, '2031-02-10', 'failed', 0, 0, 0], // a card payment failed: nothing collected
    ['J', 'E', 45_000, '2031-03-12', 'paid', 45_000, 45_000, 0], // credited in full: nothing fell due
    ['K', 'D', 10_000, '2030-12-31', 'pending', 0, 0, 0], // December: in the last 6 months only
    ['L', 'D', 15_000, '2031-04-01', 'pending', 0, 0, 0], // next month
  ];

type Collection = Pick<Report['quickStats'], 'collectionRate' | 'dueInvoices' | 'dueTotal' | 'dueCollected'>;
const figures = (dueInvoices: number, dueTotal: number, dueCollected: number, collectionRate: number | null) => ({
  collectionRate,
  dueInvoices,
  dueTotal,
  dueCollected,
});

async function collectionOf(who: 'admin' | 'D' | 'E', range: ReportRange, now = NOW): Promise<Collection> {
  const actor = who === 'admin' ? { id: repD.id, role: 'admin' as const } : who === 'D' ? repD : repE;
  const { quickStats } = await buildReport(ctx.db, actor, range, now);
  return {
    collectionRate: quickStats.collectionRate,
    dueInvoices: quickStats.dueInvoices,
    dueTotal: quickStats.dueTotal,
    dueCollected: quickStats.dueCollected,
  };
}

async function tableOf(rows: [who: 'admin' | 'D' | 'E', range: ReportRange, expected: Collection][]) {
  return Promise.all(
    rows.map(async ([who, range]) => [who, range, await collectionOf(who, range)] as [string, ReportRange, Collection]),
  );
}

beforeAll(async () => {
  ctx = await buildTestApp();
  repD = await ctx.signIn(await createTestUser(ctx.db, { role: 'sales', firstName: 'Dee', lastName: 'Due' }));
  repE = await ctx.signIn(await createTestUser(ctx.db, { role: 'sales', firstName: 'Eve', lastName: 'Due' }));
  for (const [key, rep] of [
    ['D', repD],
    ['E', repE],
  ] as const) {
    const customer = await createTestCustomer(ctx.db, { name: `Collection ${key} Ltd` });
    const { contract } = await createBillableContract(ctx.db, {
      startDate: '2030-01-01',
      termMonths: 24,
      customerId: customer.id,
      salesRepId: rep.id,
      lines: [{ unitPriceCents: 10_000 }],
    });
    contractOf[key] = { id: contract.id, customerId: customer.id };
  }
  let n = 0;
  for (const [key, rep, total, dueDate, status, paid, credited, refunded] of INVOICES) {
    n++;
    const [row] = await ctx.db
      .insert(invoices)
      .values({
        number: `INV-2031-9${String(n).padStart(5, '0')}`,
        contractId: contractOf[rep].id,
        customerId: contractOf[rep].customerId,
        periodIndex: 100 + n,
        periodStart: `2029-${String(n).padStart(2, '0')}-01`,
        periodEnd: `2029-${String(n).padStart(2, '0')}-28`,
        dueDate,
        status,
        subtotalCents: total,
        taxCents: 0,
        taxLabel: 'Tax',
        taxRateBp: 0,
        taxIncluded: false,
        totalCents: total,
        amountPaidCents: paid,
        creditedCents: credited,
        refundedCents: refunded,
        issuedAt: new Date('2029-12-01T00:00:00Z'),
      })
      .returning();
    ids[key] = row.id;
  }
});
afterAll(() => ctx.close());

describe('collection rate', () => {
  it('counts what fell due in the range up to today, net of credit notes, paid net of refunds (literal table)', async () => {
    // Worked by hand from INVOICES (amounts in dollars):
    //   current month, through Mar 20: A 1,000 of 1,000, B 200 of 500, C 0 of 500, G 0 of 300
    //     (D void, E after today, J nothing due, L next month) = 1,200 of 2,300: 52.17%
    //   last month: F 600 of 600 (not 700 of 600), H 700 of 900, I 0 of 250 = 1,300 of 1,750: 74.29%
    //   last 3 months and this year (Jan 1 - Mar 20): both = 2,500 of 4,050: 61.73%
    //   last 6 months: + K 0 of 100 = 2,500 of 4,150: 60.24%
    const expected: [who: 'admin' | 'D' | 'E', range: ReportRange, expected: Collection][] = [
      ['admin', 'current_month', figures(4, 2300, 1200, 52.2)],
      ['admin', 'last_month', figures(3, 1750, 1300, 74.3)],
      ['admin', 'last_3_months', figures(7, 4050, 2500, 61.7)],
      ['admin', 'last_6_months', figures(8, 4150, 2500, 60.2)],
      ['admin', 'current_year', figures(7, 4050, 2500, 61.7)],
      // Rep D: A, B, C this month; nothing fell due last month.
      ['D', 'current_month', figures(3, 2000, 1200, 60)],
      ['D', 'last_month', figures(0, 0, 0, null)],
      ['D', 'last_6_months', figures(4, 2100, 1200, 57.1)],
      // Rep E: G this month; F, H, I last month.
      ['E', 'current_month', figures(1, 300, 0, 0)],
      ['E', 'last_month', figures(3, 1750, 1300, 74.3)],
      ['E', 'last_3_months', figures(4, 2050, 1300, 63.4)],
    ];
    expect(await tableOf(expected)).toEqual(expected);
  });

  it('is null when nothing fell due yet, and never counts a day after today', async () => {
    // May 2: nothing falls due in May. April 1 at 08:00: L fell due today (15,000, unpaid).
    expect(await collectionOf('admin', 'current_month', new Date('2031-05-02T09:00:00Z'))).toEqual(
      figures(0, 0, 0, null),
    );
    expect(await collectionOf('admin', 'current_month', new Date('2031-04-01T08:00:00Z'))).toEqual(
      figures(1, 150, 0, 0),
    );
    // March 4: only G (Mar 1) has fallen due this month.
    expect(await collectionOf('admin', 'current_month', new Date('2031-03-04T23:00:00Z'))).toEqual(
      figures(1, 300, 0, 0),
    );
  });

  it('follows payments, credit notes, voids and a change of rep made through the product', async () => {
    const finance = await ctx.as('finance');
    const post = async (url: string, payload: Record<string, unknown>) => {
      const response = await ctx.injectAs(finance, { method: 'POST', url, payload });
      expect(response.statusCode, `${url}: ${response.body}`).toBeLessThan(300);
    };
    // B's last 300.00 paid; a credit note of 100.00 on G (20,000 still due); A voided (paid: refunded, out).
    await post(`/api/invoices/${ids.B}/payments`, { amount: '300.00', method: 'check', reference: 'chk B' });
    await post(`/api/invoices/${ids.G}/credit-notes`, { amount: '100.00', reason: 'Goodwill' });
    await post(`/api/invoices/${ids.A}/void`, { reason: 'Billed twice' });
    const [a] = await ctx.db.select().from(invoices).where(eq(invoices.id, ids.A));
    expect(a).toMatchObject({ status: 'void', refundedCents: 100_000 });
    // This month now: B 500 of 500, C 0 of 500, G 0 of 200 = 500 of 1,200: 41.67%.
    expect(await collectionOf('admin', 'current_month')).toEqual(figures(3, 1200, 500, 41.7));
    expect(await collectionOf('D', 'current_month')).toEqual(figures(2, 1000, 500, 50));
    expect(await collectionOf('E', 'current_month')).toEqual(figures(1, 200, 0, 0));

    // Rep E's contract goes to rep D: its invoices' figures go with it.
    await ctx.db.execute(sql`update contracts set sales_rep_id = ${repD.id} where id = ${contractOf.E.id}`);
    expect(await collectionOf('D', 'current_month')).toEqual(figures(3, 1200, 500, 41.7));
    expect(await collectionOf('D', 'last_month')).toEqual(figures(3, 1750, 1300, 74.3));
    expect(await collectionOf('E', 'last_month')).toEqual(figures(0, 0, 0, null));

    // Folding the delta rows changes nothing.
    await compactReportTotals(ctx.db);
    expect(await collectionOf('admin', 'current_month')).toEqual(figures(3, 1200, 500, 41.7));
    expect(await collectionOf('admin', 'last_6_months')).toEqual(figures(7, 3050, 1800, 59));
    expect(await collectionOf('D', 'last_6_months')).toEqual(figures(7, 3050, 1800, 59));
  });

  it('exports the collection figures in the CSV', async () => {
    const admin = await ctx.as('admin');
    const csv = reportCsv(await buildReport(ctx.db, admin, 'last_month', NOW));
    expect(csv).toContain(
      [
        'Quick stats,Collection rate (%),74.3',
        'Quick stats,Invoices fallen due,3',
        'Quick stats,Fallen due,1750.00',
        'Quick stats,Collected of what fell due,1300.00',
      ].join('\r\n'),
    );
    const may = reportCsv(await buildReport(ctx.db, admin, 'current_month', new Date('2031-05-02T09:00:00Z')));
    expect(may).toContain('Quick stats,Collection rate (%),\r\nQuick stats,Invoices fallen due,0\r\n');
  });
});
