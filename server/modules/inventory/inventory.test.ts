import type { Contract } from '@shared/contracts/contract-responses';
import type { InventoryCalendar, InventoryDay, ProductAvailability } from '@shared/contracts/inventory';
import type { Product } from '@shared/contracts/products';
import type { Report } from '@shared/contracts/reports';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contracts, insertionOrders, inventoryHolds, notifications, outboxEmails } from '../../db/schema';
import { buildTestApp, type TestContext } from '../../test/app';
import { setTaxSettings } from '../../test/billing-factories';
import { createTestCustomer } from '../../test/catalog-factories';
import { plusDays } from '../../test/dates';
import { createTestUser, type TestUser } from '../../test/factories';
import { reportExpiredHolds } from './inventory.service';

/**
 * Inventory of holiday placements (product.md section 13) through the API: capacities, holds and bookings,
 * the 409 of a sale that would oversell a day, availability, the holders of a day, the hold-expiry job,
 * sell-through in reports, and 20 activations racing for the last slot (a real race on PostgreSQL). The
 * expected figures are written out by hand.
 */

let ctx: TestContext;
let customerId: string;
let rep: TestUser & { token: string };
let otherRep: TestUser & { token: string };

/** A season far enough ahead that activating bills nothing by itself, and every day is still for sale. */
const Y = new Date().getUTCFullYear() + 2;

beforeAll(async () => {
  ctx = await buildTestApp();
  customerId = (await createTestCustomer(ctx.db, { name: 'Tinsel Co', company: 'Tinsel Co' })).id;
  rep = await ctx.signIn(await createTestUser(ctx.db, { role: 'sales', firstName: 'Rita', lastName: 'Rep' }));
  otherRep = await ctx.signIn(await createTestUser(ctx.db, { role: 'sales' }));
  await setTaxSettings(ctx.db, { defaultTaxRate: 0, taxIncluded: false, taxLabel: 'Tax' });
});
afterAll(() => ctx.close());

let productCount = 0;
async function inventoryProduct(capacity: number, extra: Record<string, unknown> = {}): Promise<Product> {
  productCount += 1;
  const response = await ctx.injectAs('admin', {
    method: 'POST',
    url: '/api/products',
    payload: {
      name: `Holiday Pre-roll ${productCount}`,
      adType: 'pre_roll',
      defaultPrice: 500,
      priceMetric: 'monthly',
      inventoryRequired: true,
      capacity,
      ...extra,
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

type Line = {
  productId: string;
  quantity?: number;
  flightStart?: string;
  flightEnd?: string | null;
  unitPrice?: number;
};

async function createContract(
  lines: Line[],
  options: {
    as?: TestUser & { token: string };
    status?: 'draft' | 'sent' | 'active';
    startDate?: string;
    termMonths?: number | null;
    customerId?: string;
    title?: string;
  } = {},
) {
  return ctx.injectAs(options.as ?? 'admin', {
    method: 'POST',
    url: '/api/contracts',
    payload: {
      customerId: options.customerId ?? customerId,
      ...(options.title === undefined ? {} : { title: options.title }),
      paymentMode: 'portal',
      setupFee: 0,
      startDate: options.startDate ?? `${Y}-10-01`,
      termMonths: options.termMonths === undefined ? 3 : options.termMonths,
      sendToCustomer: options.status === 'sent',
      makeActive: options.status === 'active',
      lineItems: lines.map((line) => ({
        unitPrice: 500,
        quantity: 1,
        flightEnd: null,
        ...line,
      })),
    },
  });
}

async function created(lines: Line[], options: Parameters<typeof createContract>[1] = {}): Promise<Contract> {
  const response = await createContract(lines, options);
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

const act = (id: string, action: string, who: Parameters<TestContext['injectAs']>[0] = 'admin') =>
  ctx.injectAs(who, {
    method: 'POST',
    url: `/api/contracts/${id}/${action}`,
    ...(action === 'cancel' ? { payload: { reason: 'The customer chose other dates' } } : {}),
  });

async function availability(productId: string, from: string, to: string): Promise<ProductAvailability> {
  const response = await ctx.injectAs('admin', {
    method: 'GET',
    url: `/api/products/${productId}/availability?from=${from}&to=${to}`,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/** [date, booked, held, available] of each day. */
const figures = (a: ProductAvailability) => a.days.map((d) => [d.date, d.booked, d.held, d.available]);

describe('capacity on the product', () => {
  it('is required for an inventory product, 1 to 1,000 whole slots, and none for other products', async () => {
    const base = { name: 'Takeover', adType: 'banner', defaultPrice: 100, inventoryRequired: true };
    const cases: [unknown, string][] = [
      [undefined, 'Capacity is required for an inventory product'],
      [null, 'Capacity is required for an inventory product'],
      [0, 'Capacity must be between 1 and 1,000'],
      [1001, 'Capacity must be between 1 and 1,000'],
      [2.5, 'Capacity must be a whole number of slots'],
      ['three', 'Capacity must be a whole number of slots'],
    ];
    for (const [capacity, message] of cases) {
      const response = await ctx.injectAs('admin', {
        method: 'POST',
        url: '/api/products',
        payload: { ...base, capacity },
      });
      expect(response.statusCode, String(capacity)).toBe(400);
      expect(response.json().fieldErrors.capacity).toEqual([message]);
    }
    const plain = await ctx.injectAs('admin', {
      method: 'POST',
      url: '/api/products',
      payload: { ...base, inventoryRequired: false, capacity: 4 },
    });
    expect(plain.statusCode).toBe(201);
    expect(plain.json().capacity).toBeNull();
    const max = await inventoryProduct(1000);
    expect(max.capacity).toBe(1000);
  });

  it('an edit keeps the capacity, needs one to turn inventory on, and cannot go below what is taken', async () => {
    const plain = await ctx.injectAs('admin', {
      method: 'POST',
      url: '/api/products',
      payload: { name: 'Plain banner', adType: 'banner', defaultPrice: 100 },
    });
    const id = plain.json().id;
    const on = await ctx.injectAs('admin', {
      method: 'PATCH',
      url: `/api/products/${id}`,
      payload: { inventoryRequired: true },
    });
    expect(on.statusCode).toBe(400);
    expect(on.json().message).toBe('Capacity is required for an inventory product');

    const product = await inventoryProduct(3);
    await created([{ productId: product.id, quantity: 2, flightStart: `${Y}-12-20`, flightEnd: `${Y}-12-21` }], {
      status: 'active',
    });
    const patch = (payload: object) =>
      ctx.injectAs('admin', { method: 'PATCH', url: `/api/products/${product.id}`, payload });
    const rename = await patch({ name: `${product.name} (renamed)` });
    expect(rename.json().capacity).toBe(3);
    const cut = await patch({ capacity: 1 });
    expect(cut.statusCode).toBe(409);
    expect(cut.json().message).toBe(`Capacity cannot go below 2: ${Y}-12-20 already has 2 slots booked or held`);
    expect((await patch({ capacity: 2 })).json().capacity).toBe(2);
    const off = await patch({ inventoryRequired: false });
    expect(off.json()).toMatchObject({ inventoryRequired: false, capacity: null });
  });
});

describe('flights of inventory lines', () => {
  it('end after the default duration, else the day before the auto-stop date; an indefinite one is refused', async () => {
    const withDuration = await inventoryProduct(2, { defaultDuration: 7 });
    const without = await inventoryProduct(2);
    const contract = await created([
      { productId: withDuration.id, flightStart: `${Y}-12-20` },
      { productId: without.id, flightStart: `${Y}-11-01` },
    ]);
    expect(contract.lineItems.map((l) => [l.flightStart, l.flightEnd])).toEqual([
      [`${Y}-12-20`, `${Y}-12-26`],
      [`${Y}-11-01`, `${Y}-12-31`],
    ]);

    const indefinite = await createContract([{ productId: without.id }], { termMonths: null });
    expect(indefinite.statusCode).toBe(400);
    const message = `${without.name} is sold by the day: give its line a flight end date`;
    expect(indefinite.json()).toMatchObject({ message, fieldErrors: { 'lineItems.0.flightEnd': [message] } });
  });
});

describe('holds, bookings and the 409 of an oversold day', () => {
  it('a draft takes nothing, a send holds, an activation books, and the last slot cannot be sold twice', async () => {
    const product = await inventoryProduct(3);
    const christmas = { productId: product.id, flightStart: `${Y}-12-20`, flightEnd: `${Y}-12-22` };
    const booked = await created([{ ...christmas, quantity: 1 }], { status: 'active' });
    const held = await created([{ ...christmas, flightStart: `${Y}-12-21`, quantity: 1 }], { status: 'sent' });
    // Drafts take nothing, and save even when they do not fit.
    const draft = await created([{ ...christmas, quantity: 2 }]);
    expect(draft.status).toBe('draft');
    expect(figures(await availability(product.id, `${Y}-12-19`, `${Y}-12-23`))).toEqual([
      [`${Y}-12-19`, 0, 0, 3],
      [`${Y}-12-20`, 1, 0, 2],
      [`${Y}-12-21`, 1, 1, 1],
      [`${Y}-12-22`, 1, 1, 1],
      [`${Y}-12-23`, 0, 0, 3],
    ]);

    // 2 wanted on the 21st, 1 left: refused, and nothing changes.
    for (const action of ['send', 'activate']) {
      const refused = await act(draft.id, action);
      expect(refused.statusCode, action).toBe(409);
      expect(refused.json().message).toBe(`Only 1 of 3 slots left on ${Y}-12-21 for ${product.name}`);
    }
    const [row] = await ctx.db.select().from(contracts).where(eq(contracts.id, draft.id));
    expect(row.status).toBe('draft');
    expect((await ctx.db.select().from(inventoryHolds).where(eq(inventoryHolds.contractId, draft.id))).length).toBe(0);

    // Created as sent or active at once: the same rule.
    const direct = await createContract([{ ...christmas, quantity: 2 }], { status: 'active' });
    expect(direct.statusCode).toBe(409);
    expect(direct.json().message).toBe(`Only 1 of 3 slots left on ${Y}-12-21 for ${product.name}`);

    // Canceling the held contract releases its days; then the draft fits.
    expect((await act(held.id, 'cancel')).statusCode).toBe(200);
    expect((await act(draft.id, 'activate')).statusCode).toBe(200);
    expect(figures(await availability(product.id, `${Y}-12-20`, `${Y}-12-22`))).toEqual([
      [`${Y}-12-20`, 3, 0, 0],
      [`${Y}-12-21`, 3, 0, 0],
      [`${Y}-12-22`, 3, 0, 0],
    ]);
    // Paused still books; completed releases.
    expect((await act(booked.id, 'pause')).statusCode).toBe(200);
    expect((await availability(product.id, `${Y}-12-20`, `${Y}-12-20`)).days[0].booked).toBe(3);
  });

  it('edits and amendments book by their dates', async () => {
    const product = await inventoryProduct(2);
    const other = await created([{ productId: product.id, flightStart: `${Y}-12-24`, flightEnd: `${Y}-12-24` }], {
      status: 'active',
    });
    expect(other.status).toBe('active');
    const mine = await created([{ productId: product.id, flightStart: `${Y}-12-01`, flightEnd: `${Y}-12-10` }], {
      status: 'sent',
    });
    // An edit of the sent contract that reaches a full day is refused; one that fits is saved.
    const edit = (flightEnd: string, quantity: number) =>
      ctx.injectAs('admin', {
        method: 'PATCH',
        url: `/api/contracts/${mine.id}`,
        payload: {
          customerId,
          paymentMode: 'portal',
          setupFee: 0,
          startDate: `${Y}-10-01`,
          termMonths: 3,
          lineItems: [{ productId: product.id, quantity, unitPrice: 500, flightStart: `${Y}-12-01`, flightEnd }],
        },
      });
    const tooMany = await edit(`${Y}-12-31`, 2);
    expect(tooMany.statusCode).toBe(409);
    expect(tooMany.json().message).toBe(`Only 1 of 2 slots left on ${Y}-12-24 for ${product.name}`);
    expect((await edit(`${Y}-12-31`, 1)).statusCode).toBe(200);

    // An amendment of the active contract: adding a line over the 24th is refused.
    expect((await act(mine.id, 'activate')).statusCode).toBe(200);
    await ctx.db.execute(sql`update contracts set stripe_subscription_id = 'sub_locked' where id = ${other.id}`);
    const addLine = (lastDay: string) =>
      ctx.injectAs('admin', {
        method: 'POST',
        url: `/api/contracts/${other.id}/lines`,
        payload: {
          productId: product.id,
          quantity: 1,
          unitPrice: 500,
          flightStart: `${Y}-12-20`,
          flightEnd: `${Y}-12-${lastDay}`,
        },
      });
    const add = await addLine('25');
    expect(add.statusCode, add.body).toBe(409);
    expect(add.json().message).toBe(`Only 0 of 2 slots left on ${Y}-12-24 for ${product.name}`);

    // A line that fits is added; ending it early gives its later days back.
    const fits = await addLine('23');
    expect(fits.statusCode, fits.body).toBe(200);
    const added = (fits.json() as Contract).lineItems.find((l) => l.flightStart === `${Y}-12-20`)!;
    expect(figures(await availability(product.id, `${Y}-12-20`, `${Y}-12-24`)).map(([, , , left]) => left)).toEqual([
      0, 0, 0, 0, 0,
    ]);
    const ended = await ctx.injectAs('admin', {
      method: 'POST',
      url: `/api/contracts/${other.id}/lines/${added.id}/end`,
      payload: { endDate: `${Y}-12-21` },
    });
    expect(ended.statusCode, ended.body).toBe(200);
    expect(figures(await availability(product.id, `${Y}-12-20`, `${Y}-12-24`)).map(([, , , left]) => left)).toEqual([
      0, 0, 1, 1, 0,
    ]);
  });
});

describe('availability and the holders of a day', () => {
  it('answers per day, refuses bad ranges with a message, and is for staff who sell', async () => {
    const product = await inventoryProduct(1);
    const url = (query: string) => `/api/products/${product.id}/availability?${query}`;
    const bad: [string, string][] = [
      [`from=${Y}-12-10&to=${Y}-12-01`, 'to cannot be before from'],
      [`from=${Y}-01-01&to=${plusDays(`${Y}-01-01`, 400)}`, 'A range can cover at most 400 days'],
      [`from=yesterday&to=${Y}-12-01`, 'from must be a date (YYYY-MM-DD)'],
      [`from=${Y}-02-30&to=${Y}-03-01`, 'from must be a date (YYYY-MM-DD)'],
      [`from=${Y}-12-01`, 'to is required (YYYY-MM-DD)'],
    ];
    for (const [query, message] of bad) {
      const response = await ctx.injectAs('admin', { method: 'GET', url: url(query) });
      expect(response.statusCode, query).toBe(400);
      expect(response.json().message).toBe(message);
    }
    // 400 days exactly is allowed (the 1st of January and the 399 days after it; Y may be a leap year or not).
    const year = await ctx.injectAs('admin', {
      method: 'GET',
      url: url(`from=${Y}-01-01&to=${plusDays(`${Y}-01-01`, 399)}`),
    });
    expect(year.statusCode).toBe(200);
    expect(year.json().days).toHaveLength(400);

    const missing = await ctx.injectAs('admin', {
      method: 'GET',
      url: `/api/products/00000000-0000-4000-8000-000000000000/availability?from=${Y}-12-01&to=${Y}-12-02`,
    });
    expect(missing.statusCode).toBe(404);
    const plain = await ctx.injectAs('admin', {
      method: 'POST',
      url: '/api/products',
      payload: { name: 'Sidebar', adType: 'banner', defaultPrice: 10 },
    });
    const untracked = await ctx.injectAs('admin', {
      method: 'GET',
      url: `/api/products/${plain.json().id}/availability?from=${Y}-12-01&to=${Y}-12-02`,
    });
    expect(untracked.statusCode).toBe(409);
    expect(untracked.json().message).toBe('Sidebar does not track inventory');

    for (const role of ['finance', 'client'] as const) {
      const response = await ctx.injectAs(role, { method: 'GET', url: url(`from=${Y}-12-01&to=${Y}-12-02`) });
      expect(response.statusCode, role).toBe(403);
    }
    expect((await ctx.injectAs(rep, { method: 'GET', url: url(`from=${Y}-12-01&to=${Y}-12-02`) })).statusCode).toBe(
      200,
    );
  });

  it('lists the contracts holding or booking a day; a rep sees only their own, others as units and end date', async () => {
    const product = await inventoryProduct(3);
    const day = { productId: product.id, flightStart: `${Y}-12-24`, flightEnd: `${Y}-12-24` };
    const mine = await created([{ ...day, quantity: 2 }], { as: rep, status: 'sent' });
    const theirs = await created([day], { as: otherRep, status: 'active' });
    await created([day]); // a draft: not listed

    const response = await ctx.injectAs(rep, { method: 'GET', url: `/api/inventory/${product.id}/${Y}-12-24` });
    expect(response.statusCode, response.body).toBe(200);
    const body: InventoryDay = response.json();
    expect(body).toMatchObject({ date: `${Y}-12-24`, capacity: 3, booked: 1, held: 2, available: 0 });
    // Their own first, with the contract; another rep's as what it takes and until when.
    expect(
      body.holders.map((h) => [h.contract?.id ?? null, h.kind, h.contract?.status, h.quantity, h.endDate]),
    ).toEqual([
      [mine.id, 'held', 'sent', 2, `${Y}-12-24`],
      [null, 'booked', undefined, 1, `${Y}-12-24`],
    ]);
    expect(body.holders[0].contract).toMatchObject({
      customerName: 'Tinsel Co',
      salesRepName: 'Rita Rep',
      canOpen: true,
    });
    expect(body.holders[0].contract?.holdUntil).not.toBeNull();
    expect(body.holders[1]).toEqual({ kind: 'booked', quantity: 1, endDate: `${Y}-12-24`, contract: null });
    expect(response.body).not.toContain(theirs.id);

    // A manager sees both contracts, booked first.
    const managers = await ctx.injectAs('sales_manager', {
      method: 'GET',
      url: `/api/inventory/${product.id}/${Y}-12-24`,
    });
    const all: InventoryDay = managers.json();
    expect(
      all.holders.map((h) => [h.contract?.id, h.kind, h.contract?.status, h.quantity, h.contract?.canOpen]),
    ).toEqual([
      [theirs.id, 'booked', 'active', 1, true],
      [mine.id, 'held', 'sent', 2, true],
    ]);

    const calendar = await ctx.injectAs('admin', {
      method: 'GET',
      url: `/api/inventory?from=${Y}-12-23&to=${Y}-12-24`,
    });
    expect(calendar.statusCode).toBe(200);
    const row = calendar.json().products.find((p: { productId: string }) => p.productId === product.id);
    expect(row.days.map((d: { available: number }) => d.available)).toEqual([3, 0]);
    expect(row.lowest).toEqual({ date: `${Y}-12-24`, available: 0 });

    // With no range: the current month (the business's: UTC here) and the two after it, whole.
    const current = await ctx.injectAs('admin', { method: 'GET', url: '/api/inventory' });
    const now = new Date();
    const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString().slice(0, 10);
    const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 3, 0)).toISOString().slice(0, 10);
    expect(current.json()).toMatchObject({ from: first, to: last, today: now.toISOString().slice(0, 10) });
    const badDay = await ctx.injectAs('admin', { method: 'GET', url: `/api/inventory/${product.id}/${Y}-13-01` });
    expect(badDay.statusCode).toBe(400);
  });
});

describe("what a sales rep learns of another rep's holding", () => {
  it('nothing that names the deal, the customer or the rep; a manager and an admin see all of it', async () => {
    const product = await inventoryProduct(5);
    const secretRep = await ctx.signIn(
      await createTestUser(ctx.db, { role: 'sales', firstName: 'Quentin', lastName: 'Quiet' }),
    );
    const secretCustomer = await createTestCustomer(ctx.db, { name: 'Hidden Sleigh', company: 'Hidden Sleigh Inc' });
    const options = { as: secretRep, customerId: secretCustomer.id };
    // Another rep's booking through the 31st and hold through the 27th, both taking the 24th.
    const booking = await created([{ productId: product.id, flightStart: `${Y}-12-20`, flightEnd: `${Y}-12-31` }], {
      ...options,
      status: 'active',
      title: 'Operation Mistletoe',
    });
    const hold = await created(
      [{ productId: product.id, quantity: 2, flightStart: `${Y}-12-22`, flightEnd: `${Y}-12-27` }],
      { ...options, status: 'sent', title: 'Project Evergreen' },
    );
    // The rep's own contract on the same day.
    const own = await created([{ productId: product.id, flightStart: `${Y}-12-24`, flightEnd: `${Y}-12-25` }], {
      as: rep,
      status: 'active',
      title: 'Rita Campaign',
    });
    const url = `/api/inventory/${product.id}/${Y}-12-24`;

    const seen = await ctx.injectAs(rep, { method: 'GET', url });
    expect(seen.statusCode, seen.body).toBe(200);
    const secrets = [
      booking.id,
      hold.id,
      booking.id.slice(-8),
      hold.id.slice(-8),
      'Operation Mistletoe',
      'Project Evergreen',
      'Hidden Sleigh',
      'Quentin',
      'Quiet',
      secretRep.id,
      secretCustomer.id,
    ];
    for (const secret of secrets) expect(seen.body, secret).not.toContain(secret);
    // Nor the hold's end (a timestamp of the send) or the contract's status.
    expect(seen.body).not.toContain('holdUntil":"');
    expect(seen.body).not.toContain('"sent"');
    // What it does say, written out: the rep's own contract, then the others as units and end dates.
    expect(JSON.parse(seen.body).holders).toEqual([
      {
        kind: 'booked',
        quantity: 1,
        endDate: `${Y}-12-25`,
        contract: {
          id: own.id,
          shortId: own.id.slice(-8),
          title: 'Rita Campaign',
          customerName: 'Tinsel Co',
          status: 'active',
          holdUntil: null,
          salesRepName: 'Rita Rep',
          canOpen: true,
        },
      },
      { kind: 'booked', quantity: 1, endDate: `${Y}-12-31`, contract: null },
      { kind: 'held', quantity: 2, endDate: `${Y}-12-27`, contract: null },
    ]);

    for (const role of ['sales_manager', 'admin', 'super_admin'] as const) {
      const full = await ctx.injectAs(role, { method: 'GET', url });
      expect(full.statusCode, role).toBe(200);
      for (const secret of [
        booking.id,
        hold.id,
        'Operation Mistletoe',
        'Project Evergreen',
        'Hidden Sleigh',
        'Quentin Quiet',
      ]) {
        expect(full.body, `${role} sees ${secret}`).toContain(secret);
      }
      const held = (JSON.parse(full.body) as InventoryDay).holders.find((h) => h.contract?.id === hold.id);
      expect(held?.contract?.holdUntil, role).not.toBeNull();
    }
  });
});

describe('holds that expire', () => {
  it('release their units at once and tell the rep once', async () => {
    const product = await inventoryProduct(1);
    const day = { productId: product.id, flightStart: `${Y}-12-31`, flightEnd: `${Y}-12-31` };
    const held = await created([day], { as: rep, status: 'sent' });
    const [hold] = await ctx.db.select().from(inventoryHolds).where(eq(inventoryHolds.contractId, held.id));
    // The contract shows its hold; a draft or an active contract has none.
    expect(held.inventoryHoldUntil).toBe(hold.holdUntil.toISOString());
    // The default hold is 7 days from the send.
    const days = (hold.holdUntil.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);
    const second = await created([day]);
    expect(second.inventoryHoldUntil).toBeNull();
    expect((await act(second.id, 'activate')).statusCode).toBe(409);

    await ctx.db
      .update(inventoryHolds)
      .set({ holdUntil: new Date(Date.now() - 1000) })
      .where(eq(inventoryHolds.contractId, held.id));
    expect((await availability(product.id, `${Y}-12-31`, `${Y}-12-31`)).days[0].available).toBe(1);
    const baseUrl = 'https://crm.example.test';
    expect(await reportExpiredHolds(ctx.db, { baseUrl })).toBeGreaterThanOrEqual(1);
    expect(await reportExpiredHolds(ctx.db, { baseUrl })).toBe(0);
    const notices = await ctx.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, rep.id), eq(notifications.type, 'inventory_hold_expired')));
    expect(notices.filter((n) => n.entityId === held.id)).toHaveLength(1);
    const mail = await ctx.db.select().from(outboxEmails).where(eq(outboxEmails.to, rep.email));
    expect(mail.some((m) => m.subject.startsWith('Inventory hold expired'))).toBe(true);

    // The slot went back on sale: another contract takes it; the expired one can no longer be activated.
    const activated = await act(second.id, 'activate');
    expect(activated.statusCode).toBe(200);
    expect(activated.json().inventoryHoldUntil).toBeNull();
    const late = await act(held.id, 'activate');
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe(`Only 0 of 1 slots left on ${Y}-12-31 for ${product.name}`);
  });
});

describe('a pay link whose hold ran out', () => {
  it('takes the slots again when its checkout opens, and is refused once they are sold', async () => {
    const product = await inventoryProduct(1);
    const day = { productId: product.id, flightStart: `${Y}-12-30`, flightEnd: `${Y}-12-30` };
    const payLinkContract = async () => {
      const response = await ctx.injectAs('admin', {
        method: 'POST',
        url: '/api/contracts',
        payload: {
          customerId,
          paymentMode: 'pay_link',
          // The setup fee is due now (the line runs two Decembers ahead).
          setupFee: 100,
          startDate: new Date().toISOString().slice(0, 10),
          termMonths: 36,
          sendToCustomer: true,
          lineItems: [{ ...day, quantity: 1, unitPrice: 500, flightEnd: day.flightEnd }],
        },
      });
      expect(response.statusCode, response.body).toBe(201);
      // The customer signs its insertion order first: payment waits for it (product.md section 15).
      const [io] = await ctx.db
        .select()
        .from(insertionOrders)
        .where(eq(insertionOrders.contractId, response.json().id));
      const signed = await ctx.app.inject({
        method: 'POST',
        url: `/api/io/${io.token}/accept`,
        payload: { signerName: 'Pat Buyer', agree: true },
      });
      expect(signed.statusCode, signed.body).toBe(200);
      const [row] = await ctx.db.select().from(contracts).where(eq(contracts.id, response.json().id));
      return row;
    };
    const expire = (id: string) =>
      ctx.db
        .update(inventoryHolds)
        .set({ holdUntil: new Date(Date.now() - 1000) })
        .where(eq(inventoryHolds.contractId, id));
    const checkout = (token: string) => ctx.app.inject({ method: 'POST', url: `/api/pay/${token}/checkout` });

    const first = await payLinkContract();
    await expire(first.id);
    const renewed = await checkout(first.payLinkToken!);
    expect(renewed.statusCode, renewed.body).toBe(200);
    expect((await availability(product.id, `${Y}-12-30`, `${Y}-12-30`)).days[0].held).toBe(1);

    // Its hold runs out again and another contract takes the slot: the checkout is refused.
    await expire(first.id);
    const other = await created([day]);
    expect((await act(other.id, 'activate')).statusCode).toBe(200);
    const refused = await checkout(first.payLinkToken!);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(`Only 0 of 1 slots left on ${Y}-12-30 for ${product.name}`);
  });
});

describe('the Inventory screen at a glance: days, months and the next free dates', () => {
  it("counts booked, held and free units per day, and a month's sell-through and booked value", async () => {
    const product = await inventoryProduct(3);
    // Booked 2 on Dec 1-10 ($3,100 a month each), held 1 on Dec 8-12, booked 3 on Dec 13-14 ($1,000 a month
    // each), a draft of 3 on Dec 20 that takes nothing.
    await created(
      [{ productId: product.id, quantity: 2, flightStart: `${Y}-12-01`, flightEnd: `${Y}-12-10`, unitPrice: 3100 }],
      {
        status: 'active',
        startDate: `${Y}-12-01`,
        termMonths: 1,
      },
    );
    await created([{ productId: product.id, quantity: 1, flightStart: `${Y}-12-08`, flightEnd: `${Y}-12-12` }], {
      status: 'sent',
      startDate: `${Y}-12-01`,
      termMonths: 1,
    });
    await created(
      [{ productId: product.id, quantity: 3, flightStart: `${Y}-12-13`, flightEnd: `${Y}-12-14`, unitPrice: 1000 }],
      {
        status: 'active',
        startDate: `${Y}-12-13`,
        termMonths: 1,
      },
    );
    await created([{ productId: product.id, quantity: 3, flightStart: `${Y}-12-20`, flightEnd: `${Y}-12-20` }], {
      status: 'draft',
      startDate: `${Y}-12-01`,
      termMonths: 1,
    });

    const calendar = async (from: string, to: string) => {
      const response = await ctx.injectAs('admin', { method: 'GET', url: `/api/inventory?from=${from}&to=${to}` });
      expect(response.statusCode, response.body).toBe(200);
      const body: InventoryCalendar = response.json();
      return body.products.find((p) => p.productId === product.id)!;
    };
    const december = await calendar(`${Y}-12-01`, `${Y + 1}-01-31`);
    // [day, booked, held, free]
    expect(december.days.slice(0, 16).map((d) => [d.date.slice(5), d.booked, d.held, d.available])).toEqual([
      ['12-01', 2, 0, 1],
      ['12-02', 2, 0, 1],
      ['12-03', 2, 0, 1],
      ['12-04', 2, 0, 1],
      ['12-05', 2, 0, 1],
      ['12-06', 2, 0, 1],
      ['12-07', 2, 0, 1],
      ['12-08', 2, 1, 0],
      ['12-09', 2, 1, 0],
      ['12-10', 2, 1, 0],
      ['12-11', 0, 1, 2],
      ['12-12', 0, 1, 2],
      ['12-13', 3, 0, 0],
      ['12-14', 3, 0, 0],
      ['12-15', 0, 0, 3],
      ['12-16', 0, 0, 3],
    ]);
    expect(december.days.find((d) => d.date === `${Y}-12-20`)).toMatchObject({ booked: 0, held: 0, available: 3 });
    // December: 2 x 10 + 3 x 2 = 26 booked slot-days of 3 x 31 = 93: 27.96 -> 28.0 %; 5 held.
    // Value: $6,200 a month for Dec 1-10 of the period Dec 1-31: 620,000 x 10 / 31 = 200,000; $3,000 a month for
    // Dec 13-14 of the period Dec 13-Jan 12: 300,000 x 2 / 31 = 19,354.8 -> 19,355. January: nothing booked.
    expect(december.months).toEqual([
      {
        month: `${Y}-12`,
        from: `${Y}-12-01`,
        to: `${Y}-12-31`,
        days: 31,
        capacityUnits: 93,
        bookedUnits: 26,
        heldUnits: 5,
        sellThrough: 28,
        bookedValue: 2193.55,
      },
      {
        month: `${Y + 1}-01`,
        from: `${Y + 1}-01-01`,
        to: `${Y + 1}-01-31`,
        days: 31,
        capacityUnits: 93,
        bookedUnits: 0,
        heldUnits: 0,
        sellThrough: 0,
        bookedValue: 0,
      },
    ]);

    // Part of a month: Dec 5-9 counts its own days: 2 x 5 = 10 of 15 (66.7 %), 2 held, and 5 of the 10 days
    // the first booking's 200,000 covers: 100,000.
    const part = await calendar(`${Y}-12-05`, `${Y}-12-09`);
    expect(part.months).toEqual([
      {
        month: `${Y}-12`,
        from: `${Y}-12-05`,
        to: `${Y}-12-09`,
        days: 5,
        capacityUnits: 15,
        bookedUnits: 10,
        heldUnits: 2,
        sellThrough: 66.7,
        bookedValue: 1000,
      },
    ]);

    // A sold-out day offers the nearest days after it with a slot free (1 unless a quantity is asked for).
    const day = async (date: string, query = '') => {
      const response = await ctx.injectAs(rep, { method: 'GET', url: `/api/inventory/${product.id}/${date}${query}` });
      expect(response.statusCode, response.body).toBe(200);
      return (response.json() as InventoryDay).nextFree;
    };
    expect(await day(`${Y}-12-09`)).toEqual({ quantity: 1, dates: [`${Y}-12-11`, `${Y}-12-12`, `${Y}-12-15`] });
    expect(await day(`${Y}-12-09`, '?quantity=2')).toEqual({
      quantity: 2,
      dates: [`${Y}-12-11`, `${Y}-12-12`, `${Y}-12-15`],
    });
    expect(await day(`${Y}-12-09`, '?quantity=3')).toEqual({
      quantity: 3,
      dates: [`${Y}-12-15`, `${Y}-12-16`, `${Y}-12-17`],
    });
    expect(await day(`${Y}-12-13`)).toEqual({ quantity: 1, dates: [`${Y}-12-15`, `${Y}-12-16`, `${Y}-12-17`] });
    for (const quantity of ['0', '1001', 'two', '1.5']) {
      const response = await ctx.injectAs('admin', {
        method: 'GET',
        url: `/api/inventory/${product.id}/${Y}-12-09?quantity=${quantity}`,
      });
      expect(response.statusCode, quantity).toBe(400);
      expect(response.json().message).toBe('quantity must be a whole number of slots from 1 to 1,000');
    }
  });

  it('asks the database the same few statements whatever the number of products, lines and days', async () => {
    const pglite = (ctx.database as unknown as { pglite?: { query: (...args: never[]) => unknown } }).pglite;
    if (!pglite) return; // PostgreSQL: the pool has no single client to count on.
    const statements = async (url: string) => {
      const original = pglite.query;
      let count = 0;
      pglite.query = function (this: unknown, ...args: never[]) {
        count += 1;
        return original.apply(this, args);
      };
      try {
        const response = await ctx.injectAs('admin', { method: 'GET', url });
        expect(response.statusCode, response.body).toBe(200);
      } finally {
        pglite.query = original;
      }
      return count;
    };
    const before = await statements(`/api/inventory?from=${Y + 1}-03-01&to=${Y + 1}-03-02`);
    for (let i = 0; i < 3; i++) {
      const product = await inventoryProduct(5);
      for (const status of ['active', 'sent'] as const) {
        await created([{ productId: product.id, flightStart: `${Y + 1}-03-01`, flightEnd: `${Y + 1}-05-31` }], {
          status,
          startDate: `${Y + 1}-03-01`,
          termMonths: 3,
        });
      }
    }
    const after = await statements(`/api/inventory?from=${Y + 1}-03-01&to=${Y + 1}-05-31`);
    // The session's, then the products, their day figures and their booking lines.
    expect(before).toBeGreaterThanOrEqual(3);
    expect(after).toBe(before);
  });
});

describe('sell-through in reports', () => {
  it('counts booked and held slot-days of the range against capacity x days', async () => {
    const product = await inventoryProduct(4);
    const month = new Date().toISOString().slice(0, 8);
    const day = (n: number) => `${month}${String(n).padStart(2, '0')}`;
    // Booked: 1 slot x 5 days; held: 2 slots x 3 days; a draft: nothing.
    for (const [quantity, last, status] of [
      [1, 5, 'active'],
      [2, 3, 'sent'],
      [3, 4, 'draft'],
    ] as const) {
      const line = { productId: product.id, quantity, flightStart: day(1), flightEnd: day(last) };
      await created([line], { status, startDate: day(1), termMonths: 1 });
    }
    const response = await ctx.injectAs('admin', { method: 'GET', url: '/api/reports?range=current_month' });
    expect(response.statusCode).toBe(200);
    const report: Report = response.json();
    const row = report.inventory.find((r) => r.productId === product.id)!;
    const days = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)).getUTCDate();
    // 5 booked slot-days of 4 x days, in percent with one decimal, by the month's length.
    const percent: Record<number, number> = { 28: 4.5, 29: 4.3, 30: 4.2, 31: 4.0 };
    expect(row).toEqual({
      productId: product.id,
      productName: product.name,
      capacity: 4,
      days,
      capacityUnits: 4 * days,
      bookedUnits: 5,
      heldUnits: 6,
      sellThrough: percent[days],
    });
    const csv = await ctx.injectAs('admin', { method: 'GET', url: '/api/reports/export?range=current_month' });
    const rows = csv.body.split('\r\n').filter((line) => line.startsWith(`Inventory sell-through,${product.name}:`));
    expect(rows).toEqual([
      `Inventory sell-through,${product.name}: sell-through (%),${percent[days].toFixed(1)}`,
      `Inventory sell-through,${product.name}: booked slot-days,5`,
      `Inventory sell-through,${product.name}: held slot-days,6`,
      `Inventory sell-through,${product.name}: capacity slot-days,${4 * days}`,
    ]);
  });
});

describe('20 activations racing for the last slot', () => {
  it('exactly one succeeds', async () => {
    const product = await inventoryProduct(2);
    const day = { productId: product.id, flightStart: `${Y}-12-25`, flightEnd: `${Y}-12-25` };
    await created([day], { status: 'active' });
    const drafts = await Promise.all(Array.from({ length: 20 }, () => created([day])));
    const responses = await Promise.all(drafts.map((d) => act(d.id, 'activate')));
    const codes = responses.map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, ...Array(19).fill(409)]);
    for (const r of responses.filter((x) => x.statusCode === 409)) {
      expect(r.json().message).toBe(`Only 0 of 2 slots left on ${Y}-12-25 for ${product.name}`);
    }
    expect((await availability(product.id, `${Y}-12-25`, `${Y}-12-25`)).days[0]).toMatchObject({
      booked: 2,
      available: 0,
    });
  });
});
