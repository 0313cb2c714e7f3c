import type { Contract } from '@shared/contracts/contract-responses';
import type { Invoice } from '@shared/contracts/invoices';
import { asc, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractLineItems, contracts, invoices, outboxEmails } from '../../db/schema';
import { buildTestApp, type TestContext } from '../../test/app';
import { invoicesByPeriod, setTaxSettings } from '../../test/billing-factories';
import { createTestCustomer, createTestProduct } from '../../test/catalog-factories';
import { runBilling } from '../billing/billing-run';

/**
 * What was sold is what is billed (product.md section 11): each line keeps its price metric, in-season price
 * and flight from the moment it is sold; a later change to the product changes nothing already sold. The
 * contracts are created through the API and billed by the billing run; the expected figures are written out.
 */
let ctx: TestContext;
let customerId: string;

beforeAll(async () => {
  ctx = await buildTestApp();
  customerId = (await createTestCustomer(ctx.db)).id;
  await setTaxSettings(ctx.db, { defaultTaxRate: 0, taxIncluded: false, taxLabel: 'Tax' });
});
afterAll(() => ctx.close());

/** A year far enough ahead that creating and activating bills nothing by itself: the tests bill up to a day. */
const Y = new Date().getUTCFullYear() + 2;

async function create(body: Record<string, unknown>): Promise<Contract> {
  const response = await ctx.injectAs('admin', {
    method: 'POST',
    url: '/api/contracts',
    payload: { customerId, paymentMode: 'portal', setupFee: 0, sendToCustomer: false, ...body },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

async function activateAndBill(id: string, asOf: string) {
  const activated = await ctx.injectAs('admin', { method: 'POST', url: `/api/contracts/${id}/activate` });
  expect(activated.statusCode, activated.body).toBe(200);
  await runBilling(ctx.db, { contractId: id, asOf });
}

/** Each issued invoice: its period start and its product lines as [description, amount in cents]. */
async function billed(contractId: string) {
  const byPeriod = Object.entries(await invoicesByPeriod(ctx.db, contractId));
  return Object.fromEntries(
    byPeriod.map(([start, invoice]) => [
      start,
      {
        subtotal: invoice.subtotal,
        lines: invoice.lines
          .filter(([kind]) => kind === 'product')
          .map(([, description, amount]) => [description, amount]),
      },
    ]),
  );
}

describe('the in-season price belongs to the line', () => {
  it('bills the price sold, whatever the product says later', async () => {
    const product = await createTestProduct(ctx.db, {
      name: 'Holiday banner',
      defaultPriceCents: 15_00,
      seasonalPriceCents: 24_99,
    });
    const contract = await create({
      startDate: `${Y}-10-01`,
      termMonths: 3,
      lineItems: [{ productId: product.id, quantity: 2, unitPrice: 15 }],
    });
    expect(contract).toMatchObject({ monthlyAmount: 30, seasonalMonthlyAmount: 49.98 });
    expect(contract.lineItems[0]).toMatchObject({ seasonalPrice: 24.99, seasonalLineTotal: 49.98 });

    // The catalog changes after the sale.
    const changed = await ctx.injectAs('admin', {
      method: 'PATCH',
      url: `/api/products/${product.id}`,
      payload: { seasonalPrice: 99.99 },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    await activateAndBill(contract.id, `${Y}-12-31`);

    expect(await billed(contract.id)).toEqual({
      [`${Y}-10-01`]: { subtotal: 49_98, lines: [['Holiday banner', 49_98]] },
      [`${Y}-11-01`]: { subtotal: 49_98, lines: [['Holiday banner', 49_98]] },
      [`${Y}-12-01`]: { subtotal: 49_98, lines: [['Holiday banner', 49_98]] },
    });
    const after = (await ctx.injectAs('admin', { method: 'GET', url: `/api/contracts/${contract.id}` })).json();
    expect(after).toMatchObject({ seasonalMonthlyAmount: 49.98 });
    expect(after.lineItems[0]).toMatchObject({ seasonalPrice: 24.99, product: { seasonalPrice: 99.99 } });
  });

  it('bills a negotiated price all year when the line has no in-season price', async () => {
    const product = await createTestProduct(ctx.db, { name: 'Takeover', seasonalPriceCents: 2_00 });
    const contract = await create({
      startDate: `${Y}-10-15`,
      termMonths: 2,
      lineItems: [{ productId: product.id, quantity: 1, unitPrice: 110, seasonalPrice: null }],
    });
    expect(contract).toMatchObject({ monthlyAmount: 110, seasonalMonthlyAmount: 110 });
    await activateAndBill(contract.id, `${Y}-11-30`);
    expect(await billed(contract.id)).toEqual({
      [`${Y}-10-15`]: { subtotal: 110_00, lines: [['Takeover', 110_00]] },
      [`${Y}-11-15`]: { subtotal: 110_00, lines: [['Takeover', 110_00]] },
    });
  });
});

describe('price metrics', () => {
  it('bills a flat-rate line once, on the period its flight starts, and counts it as a one-time charge', async () => {
    const special = await createTestProduct(ctx.db, {
      name: 'Holiday special',
      priceMetric: 'flat',
      defaultPriceCents: 500_00,
      defaultDuration: 45,
    });
    const banner = await createTestProduct(ctx.db, { name: 'Banner', defaultPriceCents: 100_00 });
    const contract = await create({
      startDate: `${Y - 1}-11-01`,
      termMonths: 14,
      setupFee: 50,
      lineItems: [
        { productId: banner.id, quantity: 1, unitPrice: 100 },
        { productId: special.id, quantity: 1, unitPrice: 500, flightStart: `${Y - 1}-12-01` },
      ],
    });
    expect(contract).toMatchObject({
      lineItemsTotal: 600,
      monthlyAmount: 100,
      oneTimeAmount: 550,
      // November bills the banner and the setup fee; the special waits for December, when its flight starts.
      firstInvoiceAmount: 150,
      firstInvoiceDate: `${Y - 1}-11-01`,
      firstInvoiceDueDate: `${Y - 1}-11-08`,
      // 14 months of the banner (1,400) + the special (500) + the setup fee (50)
      termValue: 1950,
      // ui-spec.md's contract total keeps its formula: every line + package + setup fee.
      total: 650,
      totalAmount: 650,
    });
    expect(contract.oneTimeCharges).toEqual([
      {
        kind: 'setup_fee',
        description: 'Setup fee (one-time)',
        amount: 50,
        billedOn: `${Y - 1}-11-01`,
        inSeason: false,
      },
      { kind: 'flat', description: 'Holiday special', amount: 500, billedOn: `${Y - 1}-12-01`, inSeason: false },
    ]);
    // The flight ends after the product's default duration: Dec 1 + 45 days - 1.
    expect(contract.lineItems[1]).toMatchObject({
      priceMetric: 'flat',
      flightStart: `${Y - 1}-12-01`,
      flightEnd: `${Y}-01-14`,
    });

    await activateAndBill(contract.id, `${Y + 1}-06-01`);
    const invoicesBilled = await billed(contract.id);
    expect(Object.keys(invoicesBilled)).toHaveLength(14);
    const withSpecial = Object.entries(invoicesBilled).filter(([, invoice]) =>
      invoice.lines.some(([description]) => description === 'Holiday special'),
    );
    expect(withSpecial).toEqual([
      [
        `${Y - 1}-12-01`,
        {
          subtotal: 600_00,
          lines: [
            ['Banner', 100_00],
            ['Holiday special', 500_00],
          ],
        },
      ],
    ]);
    expect(invoicesBilled[`${Y - 1}-11-01`].subtotal).toBe(150_00);
    expect(invoicesBilled[`${Y}-12-01`].subtotal).toBe(100_00);
    // The value shown over the term is what the term's invoices billed.
    const billedOverTerm = Object.values(invoicesBilled).reduce((sum, invoice) => sum + invoice.subtotal, 0);
    expect(billedOverTerm).toBe(1_950_00);
  });

  it('bills a CPM line at its booked volume each period: thousands of impressions x rate per 1,000', async () => {
    const preRoll = await createTestProduct(ctx.db, { name: 'Pre-roll', priceMetric: 'cpm', defaultPriceCents: 12_00 });
    const contract = await create({
      startDate: `${Y}-02-01`,
      termMonths: 2,
      lineItems: [{ productId: preRoll.id, quantity: 250, unitPrice: 12 }],
    });
    expect(contract).toMatchObject({ monthlyAmount: 3000, oneTimeAmount: 0, firstInvoiceAmount: 3000 });
    await activateAndBill(contract.id, `${Y}-03-31`);
    expect(await billed(contract.id)).toEqual({
      [`${Y}-02-01`]: { subtotal: 3_000_00, lines: [['Pre-roll', 3_000_00]] },
      [`${Y}-03-01`]: { subtotal: 3_000_00, lines: [['Pre-roll', 3_000_00]] },
    });
  });

  it('prorates a monthly line whose flight covers part of a period, and the invoice says what it bills', async () => {
    const banner = await createTestProduct(ctx.db, { name: 'Sidebar', defaultPriceCents: 310_00 });
    const contract = await create({
      startDate: `${Y}-03-01`,
      termMonths: 3,
      lineItems: [
        { productId: banner.id, quantity: 1, unitPrice: 310, flightStart: `${Y}-03-12`, flightEnd: `${Y}-04-20` },
      ],
    });
    await activateAndBill(contract.id, `${Y}-05-31`);
    // March: 20 of 31 days = 200.00; April: 20 of 30 days = 206.67; May: nothing to bill, so no invoice.
    expect(await billed(contract.id)).toEqual({
      [`${Y}-03-01`]: { subtotal: 200_00, lines: [['Sidebar', 200_00]] },
      [`${Y}-04-01`]: { subtotal: 206_67, lines: [['Sidebar', 206_67]] },
    });
    const [march] = await ctx.db
      .select({ id: invoices.id })
      .from(invoices)
      .where(eq(invoices.contractId, contract.id))
      .orderBy(asc(invoices.periodStart))
      .limit(1);
    const invoice: Invoice = (await ctx.injectAs('admin', { method: 'GET', url: `/api/invoices/${march.id}` })).json();
    expect(invoice.lines).toEqual([
      expect.objectContaining({
        description: 'Sidebar',
        priceMetric: 'monthly',
        coversStart: `${Y}-03-12`,
        coversEnd: `${Y}-03-31`,
        proratedDays: 20,
        periodDays: 31,
        amount: 200,
      }),
    ]);
  });
});

describe('bad lines are refused with the field and change nothing', () => {
  const cases: [string, Record<string, unknown>, Record<string, unknown>, string, string][] = [
    [
      'a flight end before its start',
      { termMonths: 6 },
      { flightStart: `${Y}-03-10`, flightEnd: `${Y}-03-09` },
      'lineItems.0.flightEnd',
      'Flight end cannot be before its start',
    ],
    [
      'a flight starting before the contract',
      { termMonths: 6 },
      { flightStart: `${Y}-02-28` },
      'lineItems.0.flightStart',
      "Flight cannot start before the contract's start date",
    ],
    [
      'a flight ending after the term',
      { termMonths: 2 },
      { flightEnd: `${Y}-05-01` },
      'lineItems.0.flightEnd',
      "Flight must be within the contract's term",
    ],
    [
      'a flight starting after the term',
      { termMonths: 1 },
      { flightStart: `${Y}-04-01` },
      'lineItems.0.flightStart',
      "Flight must be within the contract's term",
    ],
    [
      'a flight date that is not a date',
      {},
      { flightStart: 'next week' },
      'lineItems.0.flightStart',
      'Enter a valid date (YYYY-MM-DD)',
    ],
    [
      'a negative in-season price',
      {},
      { seasonalPrice: -1 },
      'lineItems.0.seasonalPrice',
      'In-season price cannot be negative',
    ],
    [
      'an in-season price that is not an amount',
      {},
      { seasonalPrice: 'lots' },
      'lineItems.0.seasonalPrice',
      'In-season price must be an amount in dollars, like 1250.00',
    ],
  ];

  it.each(cases)('%s', async (_name, contractFields, lineFields, field, message) => {
    const product = await createTestProduct(ctx.db);
    const before = await ctx.db.select({ n: count() }).from(contracts);
    const response = await ctx.injectAs('admin', {
      method: 'POST',
      url: '/api/contracts',
      payload: {
        customerId,
        paymentMode: 'portal',
        startDate: `${Y}-03-01`,
        ...contractFields,
        lineItems: [{ productId: product.id, quantity: 1, unitPrice: 10, ...lineFields }],
      },
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().fieldErrors[field]).toEqual([message]);
    expect(await ctx.db.select({ n: count() }).from(contracts)).toEqual(before);
  });
});

describe('an edit keeps what each line was sold as', () => {
  it("keeps a line's metric when the product's metric has changed since", async () => {
    const product = await createTestProduct(ctx.db, { name: 'Overlay', priceMetric: 'monthly' });
    const contract = await create({
      startDate: `${Y}-06-01`,
      termMonths: 3,
      lineItems: [{ productId: product.id, quantity: 1, unitPrice: 80 }],
    });
    await ctx.injectAs('admin', {
      method: 'PATCH',
      url: `/api/products/${product.id}`,
      payload: { priceMetric: 'flat' },
    });
    const edited = await ctx.injectAs('admin', {
      method: 'PATCH',
      url: `/api/contracts/${contract.id}`,
      payload: {
        customerId,
        paymentMode: 'portal',
        startDate: `${Y}-06-01`,
        termMonths: 3,
        lineItems: [{ productId: product.id, quantity: 2, unitPrice: 80 }],
      },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ monthlyAmount: 160, oneTimeAmount: 0 });
    const [line] = await ctx.db.select().from(contractLineItems).where(eq(contractLineItems.contractId, contract.id));
    expect(line).toMatchObject({ priceMetric: 'monthly', quantity: 2 });
  });
});

describe('the figures shown are what is billed', () => {
  it('a CPM line and two flat lines in December: $8,300.00 on the first invoice, on the page, the list and the e-mail', async () => {
    const preRoll = await createTestProduct(ctx.db, {
      name: 'Pre-roll (CPM)',
      priceMetric: 'cpm',
      defaultPriceCents: 12_00,
    });
    const takeover = await createTestProduct(ctx.db, {
      name: 'Homepage Takeover',
      priceMetric: 'flat',
      defaultPriceCents: 2_500_00,
      seasonalPriceCents: 3_500_00,
      defaultDuration: 7,
    });
    const special = await createTestProduct(ctx.db, {
      name: 'Holiday Pre-roll',
      priceMetric: 'flat',
      defaultPriceCents: 1_800_00,
      defaultDuration: 14,
    });
    const contract = await create({
      startDate: `${Y}-12-01`,
      termMonths: 3,
      title: 'Holiday week',
      paymentMode: 'pay_link',
      lineItems: [
        { productId: preRoll.id, quantity: 250, unitPrice: 12 },
        { productId: takeover.id, quantity: 1, unitPrice: 2500 },
        { productId: special.id, quantity: 1, unitPrice: 1800 },
      ],
    });
    // Worked out by hand: 250 x $12.00 = $3,000.00 a month; the takeover's in-season price $3,500.00 and the
    // pre-roll special $1,800.00 once, in December.
    const expected = {
      monthlyAmount: 3000,
      seasonalMonthlyAmount: 3000,
      oneTimeAmount: 5300,
      firstInvoiceAmount: 8300,
      firstInvoiceDate: `${Y}-12-01`,
      firstInvoiceDueDate: `${Y}-12-08`,
      // December 8,300 + January 3,000 + February 3,000
      termValue: 14300,
    };
    expect(contract).toMatchObject(expected);
    expect(contract.oneTimeCharges).toEqual([
      { kind: 'flat', description: 'Homepage Takeover', amount: 3500, billedOn: `${Y}-12-01`, inSeason: true },
      { kind: 'flat', description: 'Holiday Pre-roll', amount: 1800, billedOn: `${Y}-12-01`, inSeason: false },
    ]);
    const listed = await ctx.injectAs('admin', { method: 'GET', url: `/api/contracts?q=${contract.id.slice(-8)}` });
    expect(listed.json()).toEqual([expect.objectContaining({ id: contract.id, ...expected })]);

    // The e-mail that sends it says the same.
    const sent = await ctx.injectAs('admin', { method: 'POST', url: `/api/contracts/${contract.id}/send` });
    expect(sent.statusCode, sent.body).toBe(200);
    const [email] = await ctx.db
      .select()
      .from(outboxEmails)
      .where(eq(outboxEmails.entityId, contract.id))
      .orderBy(asc(outboxEmails.createdAt));
    expect(email.text).toContain(`First invoice: $8,300.00 on Dec 1, ${Y} (due Dec 8, ${Y})`);
    expect(email.text).toContain('Monthly amount: $3,000.00 / month');
    expect(email.text).toContain(
      `Homepage Takeover: $3,500.00 once at the in-season price, on the invoice of Dec 1, ${Y}`,
    );
    expect(email.text).toContain(`Holiday Pre-roll: $1,800.00 once, on the invoice of Dec 1, ${Y}`);
    expect(email.text).toContain('Contract value: $14,300.00 over 3 months, before tax');

    // The billing run agrees: December's invoice is the first invoice shown, and the term bills the value shown.
    await activateAndBill(contract.id, `${Y + 1}-02-28`);
    const invoicesBilled = await billed(contract.id);
    expect(invoicesBilled[`${Y}-12-01`].subtotal).toBe(8_300_00);
    expect(Object.values(invoicesBilled).reduce((sum, invoice) => sum + invoice.subtotal, 0)).toBe(14_300_00);
    // Once issued, the first invoice shown is the invoice itself, with its number.
    const page = await ctx.injectAs('admin', { method: 'GET', url: `/api/contracts/${contract.id}` });
    expect(page.json().firstInvoice).toMatchObject({ total: 8300, number: expect.stringMatching(/^INV-/) });
  });

  it('a contract of flat lines only has no monthly amount, and its value is its one-time charges', async () => {
    const special = await createTestProduct(ctx.db, {
      name: 'Movie special',
      priceMetric: 'flat',
      defaultPriceCents: 700_00,
    });
    const contract = await create({
      startDate: `${Y}-05-01`,
      termMonths: null,
      lineItems: [{ productId: special.id, quantity: 1, unitPrice: 700 }],
    });
    expect(contract).toMatchObject({ monthlyAmount: 0, oneTimeAmount: 700, firstInvoiceAmount: 700, termValue: null });
  });
});
