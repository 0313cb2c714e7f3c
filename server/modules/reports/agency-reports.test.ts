import type { Report } from '@shared/contracts/reports';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoices } from '../../db/schema';
import { buildTestApp, type TestContext } from '../../test/app';
import { createBillableContract, setTaxSettings } from '../../test/billing-factories';
import { createTestCustomer } from '../../test/catalog-factories';
import { monthStartFromToday } from '../../test/dates';
import { createTestUser, type TestUser } from '../../test/factories';
import { runBilling } from '../billing/billing-run';

/**
 * The report's agency figures (product.md section 20, decision 060 "Reports"): gross (subtotals), agency
 * commission and net revenue of the non-void invoices billed to an agency issued in the range, and revenue by
 * agency. Invoices come from the billing run with 10% tax added; the figures below are worked by hand.
 *
 *   Cardinal Media (15%)
 *     rep A  Bella Notte   net    $1,000.00 line + $100.00 setup fee: subtotal 1,100.00, commission
 *                                 (1,100 - 100) x 15% = 150.00 (deducted; total (1,100 - 150) x 1.1 = 1,045.00)
 *     rep A  Olive Grove   gross    $400.00: subtotal 400.00, commission 60.00 (owed; total 440.00)
 *     rep A  Bella Notte   net      $200.00, issued last month: subtotal 200.00, commission 30.00
 *   Harbor Agency (20%)
 *     rep B  Dune Cafe     gross  $2,000.00: subtotal 2,000.00, commission 400.00 (owed; total 2,200.00)
 *     rep B  Elm Books     net      $500.00, voided: in no figure
 *   rep A    Plain Bakery  (no agency) $300.00: in no agency figure
 *
 * This month, company-wide: Cardinal 2 advertisers, 2 invoices, gross 1,500.00, commission 210.00, net
 * 1,290.00; Harbor 1 advertiser, 1 invoice, gross 2,000.00, commission 400.00, net 1,600.00 (first: the better
 * net); totals 3 invoices, gross 3,500.00, commission 610.00 (150.00 deducted, 460.00 owed), net 2,890.00.
 */

let ctx: TestContext;
let repA: TestUser & { token: string };
let repB: TestUser & { token: string };
let cardinalId: string;
let harborId: string;
const invoiceOf: Record<string, { id: string; subtotalCents: number; commissionCents: number; totalCents: number }> =
  {};

const get = async (who: Parameters<TestContext['injectAs']>[0], range: string) => {
  const response = await ctx.injectAs(who, { method: 'GET', url: `/api/reports?range=${range}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as Report;
};

beforeAll(async () => {
  ctx = await buildTestApp();
  await setTaxSettings(ctx.db, { defaultTaxRate: 10, taxIncluded: false, taxLabel: 'Sales tax' });
  repA = await ctx.signIn(await createTestUser(ctx.db, { role: 'sales', firstName: 'Ada', lastName: 'Rep' }));
  repB = await ctx.signIn(await createTestUser(ctx.db, { role: 'sales', firstName: 'Ben', lastName: 'Rep' }));
  const cardinal = await createTestCustomer(ctx.db, {
    name: 'Cardinal Media',
    kind: 'agency',
    agencyCommissionBp: 1500,
  });
  const harbor = await createTestCustomer(ctx.db, { name: 'Harbor Agency', kind: 'agency', agencyCommissionBp: 2000 });
  cardinalId = cardinal.id;
  harborId = harbor.id;
  const advertiser = (name: string) => createTestCustomer(ctx.db, { name });
  const bella = await advertiser('Bella Notte');
  const olive = await advertiser('Olive Grove');
  const dune = await advertiser('Dune Cafe');
  const elm = await advertiser('Elm Books');
  const plain = await advertiser('Plain Bakery');

  const start = monthStartFromToday(-1);
  const bill = async (
    key: string,
    options: Omit<Parameters<typeof createBillableContract>[1], 'startDate'>,
    issuedAt: string,
  ): Promise<void> => {
    const { contract } = await createBillableContract(ctx.db, { ...options, startDate: start, termMonths: 1 });
    await runBilling(ctx.db, { contractId: contract.id, asOf: start });
    const [invoice] = await ctx.db.select().from(invoices).where(eq(invoices.contractId, contract.id));
    // The issue instant is set by hand, so each invoice is in the month the table above says, whatever today is.
    await ctx.db
      .update(invoices)
      .set({ issuedAt: new Date(`${issuedAt}T12:00:00Z`) })
      .where(eq(invoices.id, invoice!.id));
    invoiceOf[key] = {
      id: invoice!.id,
      subtotalCents: invoice!.subtotalCents,
      commissionCents: invoice!.agencyCommissionCents,
      totalCents: invoice!.totalCents,
    };
  };
  const thisMonth = monthStartFromToday(0);
  const lastMonth = monthStartFromToday(-1);
  const agency = (id: string, bp: number, mode: 'net' | 'gross') => ({
    billToCustomerId: id,
    agencyCommissionBp: bp,
    agencyBillingMode: mode,
  });
  await bill(
    'bellaNet',
    {
      customerId: bella.id,
      salesRepId: repA.id,
      lines: [{ unitPriceCents: 1000_00 }],
      setupFeeCents: 100_00,
      ...agency(cardinal.id, 1500, 'net'),
    },
    thisMonth,
  );
  await bill(
    'oliveGross',
    {
      customerId: olive.id,
      salesRepId: repA.id,
      lines: [{ unitPriceCents: 400_00 }],
      ...agency(cardinal.id, 1500, 'gross'),
    },
    thisMonth,
  );
  await bill(
    'bellaEarlier',
    {
      customerId: bella.id,
      salesRepId: repA.id,
      lines: [{ unitPriceCents: 200_00 }],
      ...agency(cardinal.id, 1500, 'net'),
    },
    lastMonth,
  );
  await bill(
    'duneGross',
    {
      customerId: dune.id,
      salesRepId: repB.id,
      lines: [{ unitPriceCents: 2000_00 }],
      ...agency(harbor.id, 2000, 'gross'),
    },
    thisMonth,
  );
  await bill(
    'elmVoid',
    { customerId: elm.id, salesRepId: repB.id, lines: [{ unitPriceCents: 500_00 }], ...agency(harbor.id, 2000, 'net') },
    thisMonth,
  );
  await bill('plain', { customerId: plain.id, salesRepId: repA.id, lines: [{ unitPriceCents: 300_00 }] }, thisMonth);
  const voided = await ctx.injectAs('finance', {
    method: 'POST',
    url: `/api/invoices/${invoiceOf.elmVoid!.id}/void`,
    payload: { reason: 'Booked twice' },
  });
  expect(voided.statusCode, voided.body).toBe(200);
});
afterAll(() => ctx.close());

describe('the invoices the agency figures are made from', () => {
  it('are what the billing engine issued (subtotal, commission, total in cents)', () => {
    const figures = Object.fromEntries(
      Object.entries(invoiceOf).map(([key, i]) => [key, [i.subtotalCents, i.commissionCents, i.totalCents]]),
    );
    expect(figures).toEqual({
      bellaNet: [1100_00, 150_00, 1045_00],
      oliveGross: [400_00, 60_00, 440_00],
      bellaEarlier: [200_00, 30_00, 187_00],
      duneGross: [2000_00, 400_00, 2200_00],
      elmVoid: [500_00, 100_00, 440_00],
      plain: [300_00, 0, 330_00],
    });
  });
});

describe('GET /api/reports agencies', () => {
  it('gives gross, commission and net company-wide, and revenue by agency by net', async () => {
    expect((await get('admin', 'current_month')).agencies).toEqual({
      invoices: 3,
      gross: 3500,
      commission: 610,
      net: 2890,
      deductedCommission: 150,
      owedCommission: 460,
      agencyCount: 2,
      byAgency: [
        {
          agencyId: harborId,
          name: 'Harbor Agency',
          advertisers: 1,
          invoices: 1,
          gross: 2000,
          commission: 400,
          net: 1600,
        },
        {
          agencyId: cardinalId,
          name: 'Cardinal Media',
          advertisers: 2,
          invoices: 2,
          gross: 1500,
          commission: 210,
          net: 1290,
        },
      ],
    });
  });

  it('counts each invoice in the month it was issued', async () => {
    expect((await get('admin', 'last_month')).agencies).toEqual({
      invoices: 1,
      gross: 200,
      commission: 30,
      net: 170,
      deductedCommission: 30,
      owedCommission: 0,
      agencyCount: 1,
      byAgency: [
        {
          agencyId: cardinalId,
          name: 'Cardinal Media',
          advertisers: 1,
          invoices: 1,
          gross: 200,
          commission: 30,
          net: 170,
        },
      ],
    });
    // Both months: Cardinal's three invoices for its two advertisers, Harbor's one.
    const both = (await get('sales_manager', 'last_3_months')).agencies;
    expect([both.invoices, both.gross, both.commission, both.net]).toEqual([4, 3700, 640, 3060]);
    expect(both.byAgency.map((a) => [a.name, a.advertisers, a.invoices, a.gross, a.commission, a.net])).toEqual([
      ['Harbor Agency', 1, 1, 2000, 400, 1600],
      ['Cardinal Media', 2, 3, 1700, 240, 1460],
    ]);
  });

  it("gives a rep their own contracts' invoices only", async () => {
    expect((await get(repA, 'current_month')).agencies).toEqual({
      invoices: 2,
      gross: 1500,
      commission: 210,
      net: 1290,
      deductedCommission: 150,
      owedCommission: 60,
      agencyCount: 1,
      byAgency: [
        {
          agencyId: cardinalId,
          name: 'Cardinal Media',
          advertisers: 2,
          invoices: 2,
          gross: 1500,
          commission: 210,
          net: 1290,
        },
      ],
    });
    expect((await get(repB, 'current_month')).agencies).toEqual({
      invoices: 1,
      gross: 2000,
      commission: 400,
      net: 1600,
      deductedCommission: 0,
      owedCommission: 400,
      agencyCount: 1,
      byAgency: [
        {
          agencyId: harborId,
          name: 'Harbor Agency',
          advertisers: 1,
          invoices: 1,
          gross: 2000,
          commission: 400,
          net: 1600,
        },
      ],
    });
    expect((await get(repB, 'last_month')).agencies).toEqual({
      invoices: 0,
      gross: 0,
      commission: 0,
      net: 0,
      deductedCommission: 0,
      owedCommission: 0,
      agencyCount: 0,
      byAgency: [],
    });
  });

  it('exports the same figures in the CSV, and no agency rows when there was no agency billing', async () => {
    const csv = (await ctx.injectAs('admin', { method: 'GET', url: '/api/reports/export?range=current_month' })).body;
    expect(csv).toContain(
      [
        'Agency commission,Invoices billed to agencies,3',
        'Agency commission,Gross revenue,3500.00',
        'Agency commission,Agency commission,610.00',
        'Agency commission,Net revenue,2890.00',
        'Agency commission,Deducted on net-billed invoices,150.00',
        'Agency commission,Owed on gross-billed invoices,460.00',
        'Revenue by agency,Harbor Agency: advertisers,1',
        'Revenue by agency,Harbor Agency: invoices,1',
        'Revenue by agency,Harbor Agency: gross,2000.00',
        'Revenue by agency,Harbor Agency: commission,400.00',
        'Revenue by agency,Harbor Agency: net,1600.00',
        'Revenue by agency,Cardinal Media: advertisers,2',
      ].join('\r\n'),
    );
    const none = (await ctx.injectAs(repB, { method: 'GET', url: '/api/reports/export?range=last_month' })).body;
    expect(none).not.toContain('Agency commission,');
    expect(none).not.toContain('Revenue by agency,');
  });
});
