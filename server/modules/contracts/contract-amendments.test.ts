import type { Contract } from '@shared/contracts/contract-responses';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, contractAdjustments, contracts, notifications } from '../../db/schema';
import { buildTestApp, type TestContext } from '../../test/app';
import { invoicesByPeriod, setTaxSettings } from '../../test/billing-factories';
import { createTestCustomer, createTestProduct } from '../../test/catalog-factories';
import { runBilling } from '../billing/billing-run';

/**
 * Amendments of a running contract (product.md section 11): a line added or ended from a day on; invoices
 * already issued never change, and the part of an invoiced period the amendment adds or removes is a
 * prorated charge or credit on the next invoice. Contracts run in a year ahead, so that "today" is before
 * every day the tests amend from; the periods are billed up to a day with the billing run.
 */
let ctx: TestContext;
let customerId: string;
let banner: { id: string };
let sidebar: { id: string };
let preRoll: { id: string };
let takeover: { id: string };

const Y = new Date().getUTCFullYear() + 2;

beforeAll(async () => {
  ctx = await buildTestApp();
  customerId = (await createTestCustomer(ctx.db)).id;
  banner = await createTestProduct(ctx.db, { name: 'Banner', defaultPriceCents: 310_00 });
  sidebar = await createTestProduct(ctx.db, { name: 'Sidebar', defaultPriceCents: 300_00 });
  preRoll = await createTestProduct(ctx.db, { name: 'Pre-roll', priceMetric: 'cpm', defaultPriceCents: 5_00 });
  // $100.00, $50.00 from October to December.
  takeover = await createTestProduct(ctx.db, {
    name: 'Takeover',
    defaultPriceCents: 100_00,
    seasonalPriceCents: 50_00,
  });
  await setTaxSettings(ctx.db, { defaultTaxRate: 0, taxIncluded: false, taxLabel: 'Tax' });
  // The finance user exists before anything is amended (it is told of amendments).
  await ctx.as('finance');
});
afterAll(() => ctx.close());

/** A contract sold by the sales rep from March 1 for six months, activated and billed for March and April. */
async function running(lineItems: Record<string, unknown>[]): Promise<Contract> {
  const created = await ctx.injectAs('sales', {
    method: 'POST',
    url: '/api/contracts',
    payload: { customerId, paymentMode: 'portal', startDate: `${Y}-03-01`, termMonths: 6, lineItems },
  });
  expect(created.statusCode, created.body).toBe(201);
  const { id } = created.json();
  expect((await ctx.injectAs('sales', { method: 'POST', url: `/api/contracts/${id}/activate` })).statusCode).toBe(200);
  await runBilling(ctx.db, { contractId: id, asOf: `${Y}-04-10` });
  return (await ctx.injectAs('sales', { method: 'GET', url: `/api/contracts/${id}` })).json();
}

const addLine = (who: 'sales' | 'admin' | 'finance', id: string, payload: object) =>
  ctx.injectAs(who, { method: 'POST', url: `/api/contracts/${id}/lines`, payload });
const endLine = (who: 'sales' | 'admin' | 'finance', id: string, lineId: string, payload?: object) =>
  ctx.injectAs(who, {
    method: 'POST',
    url: `/api/contracts/${id}/lines/${lineId}/end`,
    ...(payload && { payload }),
  });

/** Each invoice of the contract: its period start, subtotal and lines as [kind, description, cents]. */
const invoicesOf = (contractId: string) => invoicesByPeriod(ctx.db, contractId);

describe('adding a line to a running contract', () => {
  it('bills the days of an invoiced period on the next invoice, and the line in full after', async () => {
    const contract = await running([{ productId: banner.id, quantity: 1, unitPrice: 310 }]);
    expect(contract).toMatchObject({ canEdit: false, canAmend: true });
    const before = await invoicesOf(contract.id);

    const response = await addLine('sales', contract.id, {
      productId: sidebar.id,
      quantity: 1,
      unitPrice: 300,
      flightStart: `${Y}-04-11`,
    });
    expect(response.statusCode, response.body).toBe(200);
    const amended: Contract = response.json();
    expect(amended.lineItems.map((l) => [l.product.name, l.flightStart, l.flightEnd])).toEqual([
      ['Banner', `${Y}-03-01`, null],
      ['Sidebar', `${Y}-04-11`, null],
    ]);
    expect(amended).toMatchObject({ monthlyAmount: 610 });

    // Issued invoices stay as they were.
    expect(await invoicesOf(contract.id)).toEqual(before);

    // The schedule shows the May invoice with the charge; the billing run then issues exactly that.
    const schedule = (
      await ctx.injectAs('sales', { method: 'GET', url: `/api/contracts/${contract.id}/schedule` })
    ).json();
    await runBilling(ctx.db, { contractId: contract.id, asOf: `${Y}-05-10` });
    // April has 30 days; the sidebar runs 20 of them: 300.00 x 20/30 = 200.00.
    expect((await invoicesOf(contract.id))[`${Y}-05-01`]).toEqual({
      subtotal: 810_00,
      lines: [
        ['product', 'Banner', 310_00],
        ['product', 'Sidebar', 300_00],
        ['adjustment', `Sidebar: added, Apr 11–Apr 30, ${Y}`, 200_00],
      ],
    });
    const may = schedule.items.find((item: { periodStart: string }) => item.periodStart === `${Y}-05-01`);
    expect(may.subtotal).toBe(810);
    const april = schedule.items.find((item: { periodStart: string }) => item.periodStart === `${Y}-04-01`);
    expect(april).toMatchObject({ subtotal: 310, invoice: { status: 'pending' } });

    // Audited, and the rep and finance are told.
    const [audit] = await ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, contract.id), eq(auditEvents.action, 'contract.line_added')));
    expect(audit.after).toMatchObject({ adjustments: [{ amountCents: 200_00 }] });
    const notices = await ctx.db
      .select({ userId: notifications.userId, body: notifications.body })
      .from(notifications)
      .where(and(eq(notifications.entityId, contract.id), eq(notifications.type, 'contract_amended')));
    const sales = await ctx.as('sales');
    const finance = await ctx.as('finance');
    expect(notices.map((n) => n.userId).sort()).toEqual(expect.arrayContaining([sales.id, finance.id]));
    expect(notices[0].body).toContain('The next invoice carries a charge of $200.00.');
  });
});

describe('ending a line of a running contract', () => {
  it('credits the days of an invoiced period it no longer runs on the next invoice, and bills it no more', async () => {
    const contract = await running([
      { productId: banner.id, quantity: 1, unitPrice: 310 },
      { productId: preRoll.id, quantity: 100, unitPrice: 5 },
    ]);
    const bannerLine = contract.lineItems.find((l) => l.product.name === 'Banner')!;
    // 310.00 + 100 x 5.00 a month before; the pre-roll's 500.00 from May on.
    expect(contract).toMatchObject({ monthlyAmount: 810, seasonalMonthlyAmount: 810 });
    const response = await endLine('admin', contract.id, bannerLine.id, { endDate: `${Y}-04-20` });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().lineItems.find((l: { id: string }) => l.id === bannerLine.id).flightEnd).toBe(`${Y}-04-20`);
    // The page's monthly amount (and the stored one reports read) leaves the ended line out at once.
    expect(response.json()).toMatchObject({ monthlyAmount: 500, seasonalMonthlyAmount: 500 });
    const [stored] = await ctx.db.select().from(contracts).where(eq(contracts.id, contract.id));
    expect(stored).toMatchObject({ monthlyAmountCents: 500_00, seasonalMonthlyAmountCents: 500_00 });

    await runBilling(ctx.db, { contractId: contract.id, asOf: `${Y}-06-10` });
    const billed = await invoicesOf(contract.id);
    // 310.00 x 10/30 = 103.333... -> 103.33 credited; May and June bill the CPM line only.
    expect(billed[`${Y}-05-01`]).toEqual({
      subtotal: 396_67,
      lines: [
        ['product', 'Pre-roll', 500_00],
        ['adjustment', `Banner: ended, Apr 21–Apr 30, ${Y}`, -103_33],
      ],
    });
    expect(billed[`${Y}-06-01`]).toEqual({ subtotal: 500_00, lines: [['product', 'Pre-roll', 500_00]] });

    // A second end of the same line, or one with an earlier day, is refused and changes nothing.
    const again = await endLine('admin', contract.id, bannerLine.id, { endDate: `${Y}-08-01` });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(`This line already ends on ${Y}-04-20`);
  });

  it('keeps a credit larger than the next invoice for a later one: an invoice never goes below zero', async () => {
    const contract = await running([{ productId: banner.id, quantity: 1, unitPrice: 310 }]);
    const [line] = contract.lineItems;
    expect((await endLine('admin', contract.id, line.id, { endDate: `${Y}-04-05` })).statusCode).toBe(200);
    await runBilling(ctx.db, { contractId: contract.id, asOf: `${Y}-05-10` });
    // May bills nothing (the line ended in April): no invoice, and the credit waits for one that bills.
    expect((await invoicesOf(contract.id))[`${Y}-05-01`]).toBeUndefined();
    const pending = await ctx.db
      .select({ amount: contractAdjustments.amountCents, invoiceId: contractAdjustments.invoiceId })
      .from(contractAdjustments)
      .where(eq(contractAdjustments.contractId, contract.id));
    // 310.00 x 25/30 = 258.333... -> 258.33
    expect(pending).toEqual([{ amount: -258_33, invoiceId: null }]);
  });
});

describe('a contract paid ahead of its start', () => {
  it("adds a line from the contract's start when Flight Start is left blank (today is before it)", async () => {
    // The contracts here start two years ahead: today is before their start, and March and April are invoiced.
    const contract = await running([{ productId: banner.id, quantity: 1, unitPrice: 310 }]);
    const response = await addLine('sales', contract.id, { productId: sidebar.id, quantity: 1, unitPrice: 300 });
    expect(response.statusCode, response.body).toBe(200);
    const amended: Contract = response.json();
    expect(amended.lineItems.map((l) => [l.product.name, l.flightStart])).toEqual([
      ['Banner', `${Y}-03-01`],
      ['Sidebar', `${Y}-03-01`],
    ]);
    // March and April were invoiced without it: each is charged in full on the next invoice.
    const pending = await ctx.db
      .select({ amount: contractAdjustments.amountCents, coversStart: contractAdjustments.coversStart })
      .from(contractAdjustments)
      .where(eq(contractAdjustments.contractId, contract.id));
    expect(pending.map((a) => [a.coversStart, a.amount]).sort()).toEqual([
      [`${Y}-03-01`, 300_00],
      [`${Y}-04-01`, 300_00],
    ]);
  });
});

describe('what an amendment refuses', () => {
  it('answers 409 for a contract that can still be edited, or has ended', async () => {
    const draft = await ctx.injectAs('sales', {
      method: 'POST',
      url: '/api/contracts',
      payload: {
        customerId,
        paymentMode: 'portal',
        startDate: `${Y}-03-01`,
        lineItems: [{ productId: banner.id, quantity: 1, unitPrice: 10 }],
      },
    });
    const id = draft.json().id;
    expect(draft.json().canAmend).toBe(false);
    const onDraft = await addLine('sales', id, { productId: sidebar.id, quantity: 1, unitPrice: 1 });
    expect(onDraft.statusCode).toBe(409);
    expect(onDraft.json().message).toBe('This contract can still be edited: change its lines with Edit Contract.');

    const contract = await running([{ productId: banner.id, quantity: 1, unitPrice: 310 }]);
    await ctx.injectAs('admin', {
      method: 'POST',
      url: `/api/contracts/${contract.id}/cancel`,
      payload: { reason: 'Budget cut' },
    });
    const onCanceled = await addLine('admin', contract.id, { productId: sidebar.id, quantity: 1, unitPrice: 1 });
    expect(onCanceled.statusCode).toBe(409);
    expect(onCanceled.json().message).toBe('This contract is canceled and can no longer be amended.');
  });

  it('answers 400 with the field for a day in the past or outside the term, and 404 for an unknown line', async () => {
    const contract = await running([{ productId: banner.id, quantity: 1, unitPrice: 310 }]);
    const past = await addLine('admin', contract.id, {
      productId: sidebar.id,
      quantity: 1,
      unitPrice: 1,
      flightStart: '2020-01-01',
    });
    expect(past.statusCode).toBe(400);
    expect(past.json().fieldErrors).toEqual({ flightStart: ['An amendment cannot start in the past'] });

    const afterTerm = await addLine('admin', contract.id, {
      productId: sidebar.id,
      quantity: 1,
      unitPrice: 1,
      flightStart: `${Y}-10-01`,
    });
    expect(afterTerm.statusCode).toBe(400);
    expect(afterTerm.json().fieldErrors).toEqual({ flightStart: ["Flight must be within the contract's term"] });

    const endPast = await endLine('admin', contract.id, contract.lineItems[0].id, { endDate: '2020-01-01' });
    expect(endPast.statusCode).toBe(400);
    expect(endPast.json().fieldErrors).toEqual({ endDate: ['A line cannot end in the past'] });

    const unknown = await endLine('admin', contract.id, '00000000-0000-4000-8000-000000000000', {
      endDate: `${Y}-05-01`,
    });
    expect(unknown.statusCode).toBe(404);

    const unchanged = (await ctx.injectAs('admin', { method: 'GET', url: `/api/contracts/${contract.id}` })).json();
    expect(unchanged.lineItems).toHaveLength(1);
    expect(unchanged.lineItems[0].flightEnd).toBeNull();
    const adjustments = await ctx.db
      .select()
      .from(contractAdjustments)
      .where(eq(contractAdjustments.contractId, contract.id));
    expect(adjustments).toEqual([]);
  });

  it('answers 400 on the discount for a discount above the in-season amount, and adds nothing', async () => {
    const contract = await running([{ productId: banner.id, quantity: 1, unitPrice: 310 }]);
    const message = 'Discount cannot exceed the line amount';
    const refused: [string, object][] = [
      [
        '$100 line, $90 off, $50 in season',
        { productId: sidebar.id, quantity: 1, unitPrice: 100, discount: 90, seasonalPrice: 50 },
      ],
      ["the product's $50 in season, left out", { productId: takeover.id, quantity: 1, unitPrice: 100, discount: 90 }],
      [
        "two units at the product's $50 in season",
        { productId: takeover.id, quantity: 2, unitPrice: 100, discount: 100.01 },
      ],
    ];
    for (const [name, line] of refused) {
      const response = await addLine('sales', contract.id, { ...line, flightStart: `${Y}-05-01` });
      expect(response.statusCode, name).toBe(400);
      expect(response.json(), name).toMatchObject({ message, fieldErrors: { discount: [message] } });
    }
    const unchanged = (await ctx.injectAs('admin', { method: 'GET', url: `/api/contracts/${contract.id}` })).json();
    expect(unchanged.lineItems).toHaveLength(1);
    const adjustments = await ctx.db
      .select()
      .from(contractAdjustments)
      .where(eq(contractAdjustments.contractId, contract.id));
    expect(adjustments).toEqual([]);

    // Up to the in-season amount, or with no in-season price, the line is added.
    const fits = await addLine('sales', contract.id, {
      productId: takeover.id,
      quantity: 1,
      unitPrice: 100,
      discount: 50,
      flightStart: `${Y}-05-01`,
    });
    expect(fits.statusCode, fits.body).toBe(200);
    const none = await addLine('sales', contract.id, {
      productId: takeover.id,
      quantity: 1,
      unitPrice: 100,
      discount: 90,
      seasonalPrice: null,
      flightStart: `${Y}-05-01`,
    });
    expect(none.statusCode, none.body).toBe(200);
    expect(
      (none.json() as Contract).lineItems.map((l) => [
        l.product.name,
        l.discount,
        l.seasonalPrice,
        l.seasonalLineTotal,
      ]),
    ).toEqual([
      ['Banner', 0, null, 310],
      ['Takeover', 50, 50, 0],
      ['Takeover', 90, null, 10],
    ]);
  });
});

describe('amendments sent at once', () => {
  it('end a line once: one 200, the others 409, one credit', async () => {
    const contract = await running([
      { productId: banner.id, quantity: 1, unitPrice: 310 },
      { productId: preRoll.id, quantity: 100, unitPrice: 5 },
    ]);
    const line = contract.lineItems[0];
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => endLine('admin', contract.id, line.id, { endDate: `${Y}-04-20` })),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    const credits = await ctx.db
      .select({ amount: contractAdjustments.amountCents })
      .from(contractAdjustments)
      .where(eq(contractAdjustments.contractId, contract.id));
    expect(credits).toEqual([{ amount: -103_33 }]);
  });
});
