import type { Invoice } from '@shared/contracts/invoices';
import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { commissions, contacts, contractLineItems, invoiceLines, invoices, outboxEmails } from '../../db/schema';
import { rowsOf } from '../../lib/db-rows';
import { buildTestApp, type TestContext } from '../../test/app';
import { createBillableContract, setContractSettings, setTaxSettings } from '../../test/billing-factories';
import { createTestCustomer } from '../../test/catalog-factories';
import { createRep, payInvoice } from '../../test/commission-factories';
import { asDelivered } from '../../test/outbox';
import { pdfText } from '../../test/pdf';
import { runBilling } from './billing-run';

/**
 * The billing run on contracts billed to an agency (product.md section 20), against a real database (PGlite,
 * and PostgreSQL when TEST_DATABASE_URL is set). Every expected figure is worked by hand in the tables below.
 *
 * The contract: $1,000.00 of media a month from 2026-03-01 and a $200.00 setup fee on the first invoice; the
 * agency's commission 15% of the media ($150.00 an invoice, never on the setup fee); tax 8.25%.
 */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(() => ctx.close());
beforeEach(async () => {
  await setContractSettings(ctx.db, { pausePaymentsAfterExpiry: true, gracePeriodsEndOfDays: 7 });
});

type Mode = 'net' | 'gross';

async function agencyContract(mode: Mode | null, included: boolean, salesRepId: string | null = null) {
  await setTaxSettings(ctx.db, { defaultTaxRate: 8.25, taxIncluded: included, taxLabel: 'Sales tax' });
  const advertiser = await createTestCustomer(ctx.db, { name: 'Bella Notte Trattoria' });
  const agency = await createTestCustomer(ctx.db, { name: 'Cardinal Media', kind: 'agency', agencyCommissionBp: 1500 });
  const { contract } = await createBillableContract(ctx.db, {
    startDate: '2026-03-01',
    customerId: advertiser.id,
    salesRepId,
    setupFeeCents: 200_00,
    lines: [{ unitPriceCents: 1_000_00 }],
    ...(mode === null ? {} : { billToCustomerId: agency.id, agencyCommissionBp: 1500, agencyBillingMode: mode }),
  });
  await runBilling(ctx.db, { contractId: contract.id, asOf: '2026-04-01', baseUrl: 'https://billing.example.test' });
  const rows = await ctx.db
    .select()
    .from(invoices)
    .where(eq(invoices.contractId, contract.id))
    .orderBy(asc(invoices.periodStart));
  return { contract, advertiser, agency, invoices: rows };
}

async function linesOf(invoiceId: string) {
  const rows = await ctx.db
    .select()
    .from(invoiceLines)
    .where(eq(invoiceLines.invoiceId, invoiceId))
    .orderBy(asc(invoiceLines.position));
  return rows.map((l) => [l.kind, l.description, Number(l.amountCents), l.productId === null]);
}

const figures = (i: typeof invoices.$inferSelect) => [
  Number(i.subtotalCents),
  Number(i.setupFeeCents),
  Number(i.agencyCommissionCents),
  i.agencyBillingMode,
  Number(i.taxCents),
  Number(i.totalCents),
];

// [mode, tax included, first invoice, second invoice]: [subtotal, setup fee, commission, mode, tax, total].
const TABLE: [Mode, boolean, unknown[], unknown[]][] = [
  // Net, tax added: net $1,050.00 x 8.25% = $86.625 -> $86.63; then net $850.00 x 8.25% = $70.125 -> $70.13.
  ['net', false, [1_200_00, 200_00, 150_00, 'net', 86_63, 1_136_63], [1_000_00, 0, 150_00, 'net', 70_13, 920_13]],
  // Net, tax included: $1,050.00 x 825 / 10825 = $80.023 -> $80.02; $850.00 x 825 / 10825 = $64.781 -> $64.78.
  ['net', true, [1_200_00, 200_00, 150_00, 'net', 80_02, 1_050_00], [1_000_00, 0, 150_00, 'net', 64_78, 850_00]],
  // Gross, tax added: $1,200.00 x 8.25% = $99.00; $1,000.00 x 8.25% = $82.50.
  [
    'gross',
    false,
    [1_200_00, 200_00, 150_00, 'gross', 99_00, 1_299_00],
    [1_000_00, 0, 150_00, 'gross', 82_50, 1_082_50],
  ],
  // Gross, tax included: $1,200.00 x 825 / 10825 = $91.454 -> $91.45; $1,000.00 x 825 / 10825 = $76.212 -> $76.21.
  [
    'gross',
    true,
    [1_200_00, 200_00, 150_00, 'gross', 91_45, 1_200_00],
    [1_000_00, 0, 150_00, 'gross', 76_21, 1_000_00],
  ],
];

describe('the billing run on contracts billed to an agency', () => {
  it.each(TABLE)('%s billing, tax included %s: the stored invoices and lines', async (mode, included, p0, p1) => {
    const { invoices: rows, advertiser, agency } = await agencyContract(mode, included);
    expect(rows.map(figures)).toEqual([p0, p1]);
    expect(rows.every((i) => i.customerId === advertiser.id && i.billToCustomerId === agency.id)).toBe(true);
    const commissionLine = ['agency_commission', 'Agency commission 15%', -150_00, true];
    expect(await linesOf(rows[0].id)).toEqual([
      ['product', expect.stringMatching(/^Product /), 1_000_00, false],
      ['setup_fee', 'Setup fee (one-time)', 200_00, true],
      ...(mode === 'net' ? [commissionLine] : []),
    ]);
    expect(await linesOf(rows[1].id)).toEqual([
      ['product', expect.stringMatching(/^Product /), 1_000_00, false],
      ...(mode === 'net' ? [commissionLine] : []),
    ]);
  });

  it('bills a contract without agency terms as before: no commission, no mode, billed to the customer', async () => {
    const { invoices: rows, advertiser } = await agencyContract(null, false);
    expect(rows.map(figures)).toEqual([
      [1_200_00, 200_00, 0, null, 99_00, 1_299_00],
      [1_000_00, 0, 0, null, 82_50, 1_082_50],
    ]);
    expect(rows.every((i) => i.billToCustomerId === advertiser.id)).toBe(true);
    expect((await linesOf(rows[0].id)).map((l) => l[0])).toEqual(['product', 'setup_fee']);
  });

  it('answers the commission, the mode and the negative line in the invoice (GET /api/invoices/{id})', async () => {
    const { invoices: rows } = await agencyContract('net', false);
    const response = await ctx.injectAs('finance', { method: 'GET', url: `/api/invoices/${rows[0].id}` });
    expect(response.statusCode).toBe(200);
    const invoice: Invoice = response.json();
    expect([invoice.subtotal, invoice.agencyCommission, invoice.agencyBillingMode, invoice.tax, invoice.total]).toEqual(
      [1200, 150, 'net', 86.63, 1136.63],
    );
    expect(invoice.lines.map((l) => [l.kind, l.description, l.unitPrice, l.amount, l.productId])).toEqual([
      ['product', expect.stringMatching(/^Product /), 1000, 1000, expect.any(String)],
      ['setup_fee', 'Setup fee (one-time)', 200, 200, null],
      ['agency_commission', 'Agency commission 15%', -150, -150, null],
    ]);
    const gross = await agencyContract('gross', false);
    const grossInvoice: Invoice = (
      await ctx.injectAs('finance', { method: 'GET', url: `/api/invoices/${gross.invoices[0].id}` })
    ).json();
    expect([grossInvoice.agencyCommission, grossInvoice.agencyBillingMode, grossInvoice.total]).toEqual([
      150,
      'gross',
      1299,
    ]);
  });

  it('prints the commission line and the net in the PDF, its total on the net; the schedule shows the commission', async () => {
    const { contract, invoices: rows } = await agencyContract('net', false);
    const response = await ctx.injectAs('finance', { method: 'GET', url: `/api/invoices/${rows[0].id}/pdf` });
    expect(response.statusCode).toBe(200);
    const text = await pdfText(response.rawPayload);
    for (const words of ['Agency commission 15%', '-$150.00', 'Net of agency commission', '$1,050.00', '$1,136.63']) {
      expect(text).toContain(words);
    }
    const schedule = (
      await ctx.injectAs('finance', { method: 'GET', url: `/api/contracts/${contract.id}/schedule` })
    ).json();
    // From the current period on (the setup fee was on the first invoice): $1,000.00, less $150.00, 8.25% tax.
    const figures = schedule.items.map((i: Record<string, unknown>) => [
      i.subtotal,
      i.agencyCommission,
      i.agencyBillingMode,
      i.tax,
      i.total,
    ]);
    expect(figures).toHaveLength(12);
    expect(figures).toEqual(Array(12).fill([1000, 150, 'net', 70.13, 920.13]));
  });

  it("addresses the invoice to the agency's billing contact and names both, in the e-mail and the PDF", async () => {
    const advertiser = await createTestCustomer(ctx.db, { name: 'Harbor Bakery', email: 'owner@harbor.example' });
    const agency = await createTestCustomer(ctx.db, {
      name: 'Northwind Media',
      email: 'desk@northwind.example',
      kind: 'agency',
      agencyCommissionBp: 1500,
    });
    await ctx.db.insert(contacts).values({
      customerId: agency.id,
      name: 'Dana Payables',
      email: 'payables@northwind.example',
      isBilling: true,
    });
    const { contract } = await createBillableContract(ctx.db, {
      startDate: '2026-03-01',
      customerId: advertiser.id,
      lines: [{ unitPriceCents: 1_000_00 }],
      billToCustomerId: agency.id,
      agencyCommissionBp: 1500,
      agencyBillingMode: 'gross',
    });
    await runBilling(ctx.db, { contractId: contract.id, asOf: '2026-03-01', baseUrl: 'https://billing.example.test' });
    const [invoice] = await ctx.db.select().from(invoices).where(eq(invoices.contractId, contract.id));
    expect(invoice.billToCustomerId).toBe(agency.id);
    const mail = (await ctx.db.select().from(outboxEmails).where(eq(outboxEmails.entityId, invoice.id))).map(
      asDelivered,
    );
    expect(mail.map((m) => m.to)).toEqual(['payables@northwind.example']);
    expect(mail[0].text).toContain('Hello Dana,');
    expect(mail[0].text).toContain('Advertiser: Harbor Bakery — Billed to: Northwind Media');

    const response = await ctx.injectAs('finance', { method: 'GET', url: `/api/invoices/${invoice.id}/pdf` });
    const text = await pdfText(response.rawPayload);
    expect(text).toContain('Northwind Media');
    expect(text).toContain('payables@northwind.example');
    expect(text).toContain('Advertiser: Harbor Bakery — Billed to: Northwind Media');
  });

  it('counts only the product line in product revenue, never the negative commission line (report triggers)', async () => {
    const { contract } = await agencyContract('net', false);
    const [line] = await ctx.db
      .select({ productId: contractLineItems.productId })
      .from(contractLineItems)
      .where(eq(contractLineItems.contractId, contract.id));
    const product = rowsOf<{ cents: string | number }>(
      await ctx.db.execute(sql`
        select coalesce(sum(amount_cents), 0) as cents from report_month_totals
        where metric = 'product' and rep_id is null and product_id = ${line.productId}`),
    );
    // Both invoices' $1,000.00 product lines; the setup fee and the commission have no product.
    expect(Number(product[0].cents)).toBe(2_000_00);
  });
});

describe("the sales rep's commission on an invoice billed to an agency: on the net collected subtotal", () => {
  // The rep earns 10% of (subtotal - setup fee - agency commission), before tax, once the invoice is paid.
  // [mode, tax included, base, earned]
  const EARNED: [Mode | null, boolean, number, number][] = [
    // $1,200.00 - $200.00 - $150.00 = $850.00; 10% = $85.00 (tax added on top, not in the base).
    ['net', false, 850_00, 85_00],
    ['gross', false, 850_00, 85_00],
    // Tax included: the tax part of $850.00 ($64.78) comes out: $785.22; 10% = $78.522 -> $78.52.
    ['net', true, 785_22, 78_52],
    ['gross', true, 785_22, 78_52],
    // Without an agency: $1,000.00; 10% = $100.00.
    [null, false, 1_000_00, 100_00],
  ];

  it.each(EARNED)('%s billing, tax included %s: base %i, earned %i', async (mode, included, base, earned) => {
    const rep = await createRep(ctx, 1000);
    const { invoices: rows } = await agencyContract(mode, included, rep.id);
    const paid = await payInvoice(ctx, rows[0].id);
    expect(paid.statusCode).toBe(201);
    const ledger = await ctx.db
      .select({ kind: commissions.kind, base: commissions.baseCents, amount: commissions.amountCents })
      .from(commissions)
      .where(eq(commissions.invoiceId, rows[0].id));
    expect(ledger.map((r) => [r.kind, Number(r.base), Number(r.amount)])).toEqual([['earned', base, earned]]);
  });
});
