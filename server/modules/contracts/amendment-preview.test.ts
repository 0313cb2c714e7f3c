import type { AmendmentPreview, Contract } from '@shared/contracts/contract-responses';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditEvents,
  contractAdjustments,
  contractLineItems,
  contracts,
  notifications,
  outboxEmails,
} from '../../db/schema';
import { buildTestApp, type TestContext } from '../../test/app';
import { invoicesByPeriod, setTaxSettings } from '../../test/billing-factories';
import { createTestCustomer, createTestProduct } from '../../test/catalog-factories';
import { runBilling } from '../billing/billing-run';

/**
 * The preview of an amendment (POST /api/contracts/:id/lines/preview and .../lines/:lineId/end/preview): what
 * adding or ending a line will bill, before it is confirmed. The figures below are worked out by hand; the
 * previews are then held to what the amendment and the billing run really do. Contracts run two years ahead
 * (from March 1, six months, billed for March and April), so that "today" is before every day amended from.
 */
let ctx: TestContext;
let customerId: string;
let banner: { id: string };
let sidebar: { id: string };
let takeover: { id: string };

const Y = new Date().getUTCFullYear() + 2;

beforeAll(async () => {
  ctx = await buildTestApp();
  customerId = (await createTestCustomer(ctx.db)).id;
  banner = await createTestProduct(ctx.db, { name: 'Banner', defaultPriceCents: 310_00 });
  sidebar = await createTestProduct(ctx.db, { name: 'Sidebar', defaultPriceCents: 300_00 });
  // $100.00, $50.00 from October to December.
  takeover = await createTestProduct(ctx.db, {
    name: 'Takeover',
    defaultPriceCents: 100_00,
    seasonalPriceCents: 50_00,
  });
  await setTaxSettings(ctx.db, { defaultTaxRate: 0, taxIncluded: false, taxLabel: 'Tax' });
  await ctx.as('finance');
});
afterAll(() => ctx.close());

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

type Who = 'sales' | 'admin' | 'finance' | 'client';
const previewAdd = (who: Who, id: string, payload: object) =>
  ctx.injectAs(who, { method: 'POST', url: `/api/contracts/${id}/lines/preview`, payload });
const previewEnd = (who: Who, id: string, lineId: string, payload: object) =>
  ctx.injectAs(who, { method: 'POST', url: `/api/contracts/${id}/lines/${lineId}/end/preview`, payload });

/** How many rows the tables an amendment writes to hold, and the contract's stored figures. */
async function footprint(contractId: string) {
  const count = async (table: typeof auditEvents | typeof notifications | typeof outboxEmails) =>
    (await ctx.db.select({ n: sql<number>`count(*)::int` }).from(table))[0].n;
  const [row] = await ctx.db.select().from(contracts).where(eq(contracts.id, contractId));
  return {
    lines: (
      await ctx.db
        .select({ id: contractLineItems.id, flightEnd: contractLineItems.flightEnd })
        .from(contractLineItems)
        .where(eq(contractLineItems.contractId, contractId))
    ).sort((a, b) => a.id.localeCompare(b.id)),
    adjustments: await ctx.db.select().from(contractAdjustments).where(eq(contractAdjustments.contractId, contractId)),
    audit: await count(auditEvents),
    notifications: await count(notifications),
    outbox: await count(outboxEmails),
    figures: [row.monthlyAmountCents, row.seasonalMonthlyAmountCents, row.totalCents, row.updatedAt.toISOString()],
  };
}

describe('previewing a line added mid-period', () => {
  // April (30 days) is invoiced; the line runs from its flight start to April 30, then bills in full from May.
  // charge = amount a month x days / 30, rounded half away from zero to the cent.
  const table: [
    name: string,
    line: { product: 'Sidebar' | 'Banner' | 'Takeover' } & Record<string, unknown>,
    flightStart: string,
    days: string,
    chargeCents: number,
  ][] = [
    [
      '$300.00 from Apr 11: 20 days',
      { product: 'Sidebar', quantity: 1, unitPrice: 300 },
      '04-11',
      'Apr 11–Apr 30',
      200_00,
    ],
    [
      '$310.00 from Apr 18: 13 days = 134.333...',
      { product: 'Banner', quantity: 1, unitPrice: 310 },
      '04-18',
      'Apr 18–Apr 30',
      134_33,
    ],
    [
      '$310.00 on Apr 30 only: 10.333...',
      { product: 'Banner', quantity: 1, unitPrice: 310 },
      '04-30',
      'Apr 30–Apr 30',
      10_33,
    ],
    [
      '2 x $100.00 - $0.50 from Apr 16: 199.50 x 15/30 = 99.75',
      { product: 'Takeover', quantity: 2, unitPrice: 100, discount: 0.5 },
      '04-16',
      'Apr 16–Apr 30',
      99_75,
    ],
    [
      '$0.05 from Apr 21: 0.05 x 10/30 = 0.01666...',
      { product: 'Sidebar', quantity: 1, unitPrice: 0.05 },
      '04-21',
      'Apr 21–Apr 30',
      2,
    ],
  ];
  it.each(table)('%s', async (_name, line, flightStart, days, chargeCents) => {
    const contract = await running([{ productId: banner.id, quantity: 1, unitPrice: 310 }]);
    const { product: name, ...amounts } = line;
    const productId = { Sidebar: sidebar, Banner: banner, Takeover: takeover }[name].id;
    const response = await previewAdd('sales', contract.id, {
      ...amounts,
      productId,
      flightStart: `${Y}-${flightStart}`,
    });
    expect(response.statusCode, response.body).toBe(200);
    const preview: AmendmentPreview = response.json();
    expect(preview.adjustments).toEqual([
      {
        description: `${name}: added, ${days}, ${Y}`,
        coversStart: `${Y}-${flightStart}`,
        coversEnd: `${Y}-04-30`,
        amount: chargeCents / 100,
      },
    ]);
    expect(preview.adjustmentsTotal).toBe(chargeCents / 100);
  });

  it('shows the next invoice and the monthly amounts, and the amendment then bills exactly that', async () => {
    const contract = await running([{ productId: banner.id, quantity: 1, unitPrice: 310 }]);
    const line = { productId: takeover.id, quantity: 2, unitPrice: 100, flightStart: `${Y}-04-16` };
    const preview: AmendmentPreview = (await previewAdd('sales', contract.id, line)).json();
    // May: 310.00 + 2 x 100.00 + 200.00 x 15/30 = 610.00. Monthly 310 + 200; in season 310 + 2 x 50.
    expect(preview).toEqual({
      adjustments: [
        {
          description: `Takeover: added, Apr 16–Apr 30, ${Y}`,
          coversStart: `${Y}-04-16`,
          coversEnd: `${Y}-04-30`,
          amount: 100,
        },
      ],
      adjustmentsTotal: 100,
      nextInvoice: { periodStart: `${Y}-05-01`, dueDate: `${Y}-05-08`, total: 610 },
      currentNextInvoice: { periodStart: `${Y}-05-01`, dueDate: `${Y}-05-08`, total: 310 },
      monthlyAmount: 510,
      seasonalMonthlyAmount: 410,
      currentMonthlyAmount: 310,
      currentSeasonalMonthlyAmount: 310,
    } satisfies AmendmentPreview);

    const added = await ctx.injectAs('sales', {
      method: 'POST',
      url: `/api/contracts/${contract.id}/lines`,
      payload: line,
    });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json()).toMatchObject({ monthlyAmount: 510, seasonalMonthlyAmount: 410 });
    await runBilling(ctx.db, { contractId: contract.id, asOf: `${Y}-05-10` });
    expect((await invoicesByPeriod(ctx.db, contract.id))[`${Y}-05-01`]).toEqual({
      subtotal: 610_00,
      lines: [
        ['product', 'Banner', 310_00],
        ['product', 'Takeover', 200_00],
        ['adjustment', `Takeover: added, Apr 16–Apr 30, ${Y}`, 100_00],
      ],
    });
  });

  it('writes nothing: no line, adjustment, audit event, notice or e-mail, the figures unchanged', async () => {
    const contract = await running([{ productId: banner.id, quantity: 1, unitPrice: 310 }]);
    const before = await footprint(contract.id);
    for (let i = 0; i < 3; i++) {
      const response = await previewAdd('admin', contract.id, {
        productId: sidebar.id,
        quantity: 1,
        unitPrice: 300,
        flightStart: `${Y}-04-11`,
      });
      expect(response.statusCode).toBe(200);
    }
    expect(await footprint(contract.id)).toEqual(before);
    expect(before.lines).toHaveLength(1);
    expect(before.adjustments).toEqual([]);
  });
});

describe('previewing a line ended mid-period', () => {
  it('credits the days no longer run, and the amendment then credits exactly that', async () => {
    const contract = await running([
      { productId: banner.id, quantity: 1, unitPrice: 310 },
      { productId: sidebar.id, quantity: 1, unitPrice: 300 },
    ]);
    const line = contract.lineItems.find((l) => l.product.name === 'Sidebar')!;
    const before = await footprint(contract.id);
    const response = await previewEnd('admin', contract.id, line.id, { endDate: `${Y}-04-20` });
    expect(response.statusCode, response.body).toBe(200);
    // Apr 21 to 30: 300.00 x 10/30 = 100.00 credited; May bills the banner only: 310.00 - 100.00.
    expect(response.json()).toEqual({
      adjustments: [
        {
          description: `Sidebar: ended, Apr 21–Apr 30, ${Y}`,
          coversStart: `${Y}-04-21`,
          coversEnd: `${Y}-04-30`,
          amount: -100,
        },
      ],
      adjustmentsTotal: -100,
      nextInvoice: { periodStart: `${Y}-05-01`, dueDate: `${Y}-05-08`, total: 210 },
      currentNextInvoice: { periodStart: `${Y}-05-01`, dueDate: `${Y}-05-08`, total: 610 },
      monthlyAmount: 310,
      seasonalMonthlyAmount: 310,
      currentMonthlyAmount: 610,
      currentSeasonalMonthlyAmount: 610,
    } satisfies AmendmentPreview);
    expect(await footprint(contract.id)).toEqual(before);

    // Banner 310.00 from Apr 23: 8 days of 30 = 82.666... -> 82.67 credited.
    const banners = contract.lineItems.find((l) => l.product.name === 'Banner')!;
    const other: AmendmentPreview = (
      await previewEnd('admin', contract.id, banners.id, { endDate: `${Y}-04-22` })
    ).json();
    expect(other.adjustments.map((a) => [a.description, a.amount])).toEqual([
      [`Banner: ended, Apr 23–Apr 30, ${Y}`, -82.67],
    ]);

    const ended = await ctx.injectAs('admin', {
      method: 'POST',
      url: `/api/contracts/${contract.id}/lines/${line.id}/end`,
      payload: { endDate: `${Y}-04-20` },
    });
    expect(ended.statusCode, ended.body).toBe(200);
    expect(ended.json()).toMatchObject({ monthlyAmount: 310, seasonalMonthlyAmount: 310 });
    await runBilling(ctx.db, { contractId: contract.id, asOf: `${Y}-05-10` });
    expect((await invoicesByPeriod(ctx.db, contract.id))[`${Y}-05-01`]).toEqual({
      subtotal: 210_00,
      lines: [
        ['product', 'Banner', 310_00],
        ['adjustment', `Sidebar: ended, Apr 21–Apr 30, ${Y}`, -100_00],
      ],
    });
  });
});

describe('what a preview refuses, as the amendment does', () => {
  it('answers 400, 403, 404 and 409 with a message, and writes nothing', async () => {
    const contract = await running([{ productId: banner.id, quantity: 1, unitPrice: 310 }]);
    const [line] = contract.lineItems;
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
    await ctx.as('client');
    const before = await footprint(contract.id);

    const invalid = await previewAdd('sales', contract.id, { productId: sidebar.id, quantity: 0, unitPrice: 1 });
    expect(invalid.statusCode).toBe(400);
    const past = await previewAdd('sales', contract.id, {
      productId: sidebar.id,
      quantity: 1,
      unitPrice: 1,
      flightStart: '2020-01-01',
    });
    expect(past.statusCode).toBe(400);
    expect(past.json().fieldErrors).toEqual({ flightStart: ['An amendment cannot start in the past'] });
    const endPast = await previewEnd('admin', contract.id, line.id, { endDate: '2020-01-01' });
    expect(endPast.statusCode).toBe(400);
    expect(endPast.json().fieldErrors).toEqual({ endDate: ['A line cannot end in the past'] });

    for (const who of ['finance', 'client'] as const) {
      const refused = await previewAdd(who, contract.id, { productId: sidebar.id, quantity: 1, unitPrice: 1 });
      expect(refused.statusCode, who).toBe(403);
      expect(refused.json().message).toBe("You don't have permission to do this");
    }

    const unknownContract = await previewAdd('admin', '00000000-0000-4000-8000-000000000000', {
      productId: sidebar.id,
      quantity: 1,
      unitPrice: 1,
    });
    expect(unknownContract.statusCode).toBe(404);
    expect(unknownContract.json().message).toEqual(expect.any(String));
    const unknownLine = await previewEnd('admin', contract.id, '00000000-0000-4000-8000-000000000000', {
      endDate: `${Y}-05-01`,
    });
    expect(unknownLine.statusCode).toBe(404);

    const onDraft = await previewAdd('sales', draft.json().id, { productId: sidebar.id, quantity: 1, unitPrice: 1 });
    expect(onDraft.statusCode).toBe(409);
    expect(onDraft.json().message).toBe('This contract can still be edited: change its lines with Edit Contract.');

    expect(await footprint(contract.id)).toEqual(before);
    // A line that already ends is refused with 409, as ending it again is.
    await ctx.injectAs('admin', {
      method: 'POST',
      url: `/api/contracts/${contract.id}/lines/${line.id}/end`,
      payload: { endDate: `${Y}-05-20` },
    });
    const again = await previewEnd('admin', contract.id, line.id, { endDate: `${Y}-06-01` });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(`This line already ends on ${Y}-05-20`);
  });
});

describe('the schedule itemises the adjustments under the invoice that carries them', () => {
  it('lists each charge and credit with its description and amount, pending and once invoiced', async () => {
    const contract = await running([
      { productId: banner.id, quantity: 1, unitPrice: 310 },
      { productId: sidebar.id, quantity: 1, unitPrice: 300 },
    ]);
    const sidebarLine = contract.lineItems.find((l) => l.product.name === 'Sidebar')!;
    await ctx.injectAs('sales', {
      method: 'POST',
      url: `/api/contracts/${contract.id}/lines`,
      payload: { productId: takeover.id, quantity: 1, unitPrice: 100, flightStart: `${Y}-04-16` },
    });
    await ctx.injectAs('admin', {
      method: 'POST',
      url: `/api/contracts/${contract.id}/lines/${sidebarLine.id}/end`,
      payload: { endDate: `${Y}-04-20` },
    });
    type Item = { periodStart: string; subtotal: number; adjustments: object[] };
    const schedule = async () =>
      (await ctx.injectAs('sales', { method: 'GET', url: `/api/contracts/${contract.id}/schedule` })).json()
        .items as Item[];
    // May: 310.00 + 100.00 + 100.00 x 15/30 - 300.00 x 10/30 = 360.00.
    const expected = [
      {
        description: `Takeover: added, Apr 16–Apr 30, ${Y}`,
        coversStart: `${Y}-04-16`,
        coversEnd: `${Y}-04-30`,
        amount: 50,
      },
      {
        description: `Sidebar: ended, Apr 21–Apr 30, ${Y}`,
        coversStart: `${Y}-04-21`,
        coversEnd: `${Y}-04-30`,
        amount: -100,
      },
    ];
    const pending = await schedule();
    expect(pending.map((i) => [i.periodStart, i.subtotal, i.adjustments])).toEqual([
      [`${Y}-03-01`, 610, []],
      [`${Y}-04-01`, 610, []],
      [`${Y}-05-01`, 360, expected],
      [`${Y}-06-01`, 410, []],
      [`${Y}-07-01`, 410, []],
      [`${Y}-08-01`, 410, []],
    ]);
    await runBilling(ctx.db, { contractId: contract.id, asOf: `${Y}-05-10` });
    const issued = (await schedule()).find((i) => i.periodStart === `${Y}-05-01`)!;
    expect(issued).toMatchObject({ subtotal: 360, adjustments: expected, invoice: { status: 'pending' } });
  });
});
