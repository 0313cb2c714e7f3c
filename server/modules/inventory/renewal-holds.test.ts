import type { Contract } from '@shared/contracts/contract-responses';
import type { InventoryDay, ProductAvailability } from '@shared/contracts/inventory';
import type { Product } from '@shared/contracts/products';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, contracts, notifications, outboxEmails, renewalHolds } from '../../db/schema';
import { buildTestApp, type TestContext } from '../../test/app';
import { setTaxSettings } from '../../test/billing-factories';
import { createTestCustomer } from '../../test/catalog-factories';
import { leapYearFrom } from '../../test/dates';
import { createTestUser, type TestUser } from '../../test/factories';
import { runRenewalHolds } from './inventory.service';

/**
 * Right of first refusal (product.md section 15) through the API: the renewal-holds job keeps the same days a
 * year later for a contract due for renewal, others cannot book them (409 naming the renewal, redacted for
 * other reps), the renewal books them, the job releases them 30 days before the flight (or at once when the
 * holder is canceled) and tells the rep once, and a race for the last slot beside a hold. The job runs with
 * the day it is given; the dates and figures are written out by hand.
 */

let ctx: TestContext;
let holderCustomer: string;
let otherCustomer: string;
let rep: TestUser & { token: string };
let otherRep: TestUser & { token: string };

/**
 * A leap year far enough ahead that activating bills nothing by itself (2028 when written): the next year's
 * February has no 29th, which the holds must turn into the 28th.
 */
const Y = leapYearFrom(new Date().getUTCFullYear() + 2);
const N = Y + 1;
const baseUrl = 'https://crm.example.test';

beforeAll(async () => {
  ctx = await buildTestApp();
  holderCustomer = (await createTestCustomer(ctx.db, { name: 'Tinsel Co', company: 'Tinsel Co' })).id;
  otherCustomer = (await createTestCustomer(ctx.db, { name: 'Bauble Ltd', company: 'Bauble Ltd' })).id;
  rep = await ctx.signIn(await createTestUser(ctx.db, { role: 'sales', firstName: 'Rita', lastName: 'Rep' }));
  otherRep = await ctx.signIn(await createTestUser(ctx.db, { role: 'sales' }));
  await setTaxSettings(ctx.db, { defaultTaxRate: 0, taxIncluded: false, taxLabel: 'Tax' });
});
afterAll(() => ctx.close());

let productCount = 0;
async function inventoryProduct(capacity: number): Promise<Product> {
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
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

type Line = { productId: string; quantity?: number; flightStart: string; flightEnd: string };

async function createContract(
  lines: Line[],
  options: {
    as?: TestUser & { token: string };
    status?: 'draft' | 'sent' | 'active';
    startDate?: string;
    termMonths?: number;
    customerId?: string;
  } = {},
) {
  return ctx.injectAs(options.as ?? 'admin', {
    method: 'POST',
    url: '/api/contracts',
    payload: {
      customerId: options.customerId ?? otherCustomer,
      paymentMode: 'portal',
      setupFee: 0,
      startDate: options.startDate ?? `${N}-10-01`,
      termMonths: options.termMonths ?? 3,
      sendToCustomer: options.status === 'sent',
      makeActive: options.status === 'active',
      lineItems: lines.map((line) => ({ unitPrice: 500, quantity: 1, ...line })),
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
    ...(action === 'cancel' ? { payload: { reason: 'The customer stopped advertising' } } : {}),
  });

async function availability(productId: string, from: string, to: string, contractId?: string) {
  const response = await ctx.injectAs('admin', {
    method: 'GET',
    url: `/api/products/${productId}/availability?from=${from}&to=${to}${contractId ? `&contractId=${contractId}` : ''}`,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as ProductAvailability;
}

/** [date, booked, held, heldForRenewal, available] of each day. */
const figures = (a: ProductAvailability) =>
  a.days.map((d) => [d.date, d.booked, d.held, d.heldForRenewal, d.available]);

/**
 * The holding contract: Tinsel Co's, Rita's, from October 1 for 3 months (auto-stop January 1 of the next
 * year, so due for renewal from November 2), with the product's line on December 20-24.
 */
async function holder(product: Product, extra: Partial<Line> = {}) {
  return created([{ productId: product.id, flightStart: `${Y}-12-20`, flightEnd: `${Y}-12-24`, ...extra }], {
    as: rep,
    status: 'active',
    customerId: holderCustomer,
    startDate: `${Y}-10-01`,
  });
}

const holdsOf = (contractId: string) =>
  ctx.db.select().from(renewalHolds).where(eq(renewalHolds.contractId, contractId));

/** Makes `renewal` the renewal of `original` (what POST /api/contracts/{id}/renew records). */
const linkRenewal = (renewal: string, original: string) =>
  ctx.db.update(contracts).set({ renewalOfId: original }).where(eq(contracts.id, renewal));

describe('a renewal hold', () => {
  it('starts 60 days before the auto-stop date and keeps the same days a year later', async () => {
    const product = await inventoryProduct(1);
    const original = await holder(product);
    // November 1 is 61 days before January 1: not yet.
    await runRenewalHolds(ctx.db, { baseUrl, today: `${Y}-11-01` });
    expect(await holdsOf(original.id)).toEqual([]);
    await runRenewalHolds(ctx.db, { baseUrl, today: `${Y}-11-02` });
    const [hold] = await holdsOf(original.id);
    expect(hold).toMatchObject({
      customerId: holderCustomer,
      productId: product.id,
      quantity: 1,
      heldFrom: `${N}-12-20`,
      heldTo: `${N}-12-24`,
      releaseOn: `${N}-11-20`,
      releasedAt: null,
    });
    // A second run starts nothing more.
    await runRenewalHolds(ctx.db, { baseUrl, today: `${Y}-11-03` });
    expect(await holdsOf(original.id)).toHaveLength(1);
    const audit = await ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, original.id), eq(auditEvents.action, 'contract.renewal_hold_started')));
    expect(audit).toHaveLength(1);
    expect(audit[0].actorId).toBeNull();

    expect(figures(await availability(product.id, `${N}-12-19`, `${N}-12-25`))).toEqual([
      [`${N}-12-19`, 0, 0, 0, 1],
      [`${N}-12-20`, 0, 0, 1, 0],
      [`${N}-12-21`, 0, 0, 1, 0],
      [`${N}-12-22`, 0, 0, 1, 0],
      [`${N}-12-23`, 0, 0, 1, 0],
      [`${N}-12-24`, 0, 0, 1, 0],
      [`${N}-12-25`, 0, 0, 0, 1],
    ]);
  });

  it('refuses others with 409 naming the renewal: the customer for who may see it, the short id for other reps', async () => {
    const product = await inventoryProduct(1);
    const original = await holder(product);
    await runRenewalHolds(ctx.db, { baseUrl, today: `${Y}-11-02` });
    const day = { productId: product.id, flightStart: `${N}-12-22`, flightEnd: `${N}-12-22` };
    const shortId = original.id.slice(-8);

    const draft = await created([day]);
    const byAdmin = await act(draft.id, 'activate');
    expect(byAdmin.statusCode).toBe(409);
    expect(byAdmin.json().message).toBe(
      `Only 0 of 1 slots left on ${N}-12-22 for ${product.name} (held for the renewal of Tinsel Co)`,
    );
    const sent = await createContract([day], { as: otherRep, status: 'sent' });
    expect(sent.statusCode).toBe(409);
    expect(sent.json().message).toBe(
      `Only 0 of 1 slots left on ${N}-12-22 for ${product.name} (held for the renewal of contract ${shortId})`,
    );
    expect(sent.body).not.toContain('Tinsel');
    // The holder's own rep sees whose renewal it is.
    const byRep = await createContract([day], { as: rep, status: 'active' });
    expect(byRep.statusCode).toBe(409);
    expect(byRep.json().message).toBe(
      `Only 0 of 1 slots left on ${N}-12-22 for ${product.name} (held for the renewal of Tinsel Co)`,
    );
    // Days outside the hold sell as before.
    const outside = await created([{ ...day, flightStart: `${N}-12-25`, flightEnd: `${N}-12-25` }]);
    expect((await act(outside.id, 'activate')).statusCode).toBe(200);

    // The day's holders list the hold: whole for managers, redacted for another rep.
    const url = `/api/inventory/${product.id}/${N}-12-22`;
    const full = (await ctx.injectAs('sales_manager', { method: 'GET', url })).json() as InventoryDay;
    expect(full.holders).toEqual([
      {
        kind: 'held_for_renewal',
        quantity: 1,
        endDate: `${N}-12-24`,
        contract: {
          id: original.id,
          shortId,
          title: null,
          customerName: 'Tinsel Co',
          status: 'active',
          holdUntil: null,
          salesRepName: 'Rita Rep',
          canOpen: true,
        },
      },
    ]);
    expect(full).toMatchObject({ booked: 0, held: 0, heldForRenewal: 1, available: 0 });
    const redacted = await ctx.injectAs(otherRep, { method: 'GET', url });
    expect(redacted.json().holders).toEqual([
      { kind: 'held_for_renewal', quantity: 1, endDate: `${N}-12-24`, contract: null },
    ]);
    for (const secret of [original.id, 'Tinsel', 'Rita']) expect(redacted.body).not.toContain(secret);
  });

  it('does not count against its renewal: the renewal books the days even when the rest is full', async () => {
    const product = await inventoryProduct(2);
    const original = await holder(product);
    await runRenewalHolds(ctx.db, { baseUrl, today: `${Y}-11-02` });
    const day = { productId: product.id, flightStart: `${N}-12-21`, flightEnd: `${N}-12-21` };
    // Another customer takes the one slot the hold leaves; a third finds the day full.
    await created([day], { status: 'active' });
    const third = await createContract([day], { status: 'active' });
    expect(third.statusCode).toBe(409);
    expect(third.json().message).toBe(
      `Only 0 of 2 slots left on ${N}-12-21 for ${product.name} (held for the renewal of Tinsel Co)`,
    );

    const renewal = await created([{ productId: product.id, flightStart: `${N}-12-20`, flightEnd: `${N}-12-24` }], {
      as: rep,
      customerId: holderCustomer,
      startDate: `${Y + 1}-01-01`,
      termMonths: 12,
    });
    await linkRenewal(renewal.id, original.id);
    // Its edit form sees the held days as free for it.
    expect(figures(await availability(product.id, `${N}-12-21`, `${N}-12-22`, renewal.id))).toEqual([
      [`${N}-12-21`, 1, 0, 0, 1],
      [`${N}-12-22`, 0, 0, 0, 2],
    ]);
    const sent = await act(renewal.id, 'send', rep);
    expect(sent.statusCode, sent.body).toBe(200);
    // Sent within its hold, the renewal holds the days itself: the renewal hold no longer counts (no double count).
    expect(figures(await availability(product.id, `${N}-12-21`, `${N}-12-22`))).toEqual([
      [`${N}-12-21`, 1, 1, 0, 0],
      [`${N}-12-22`, 0, 1, 0, 1],
    ]);
    const activated = await act(renewal.id, 'activate', rep);
    expect(activated.statusCode, activated.body).toBe(200);
    expect(figures(await availability(product.id, `${N}-12-21`, `${N}-12-22`))).toEqual([
      [`${N}-12-21`, 2, 0, 0, 0],
      [`${N}-12-22`, 1, 0, 0, 1],
    ]);
    // Now full, the day's 409 names no renewal: none takes part of it.
    const late = await createContract([day], { status: 'active' });
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe(`Only 0 of 2 slots left on ${N}-12-21 for ${product.name}`);

    // The job ends the hold of a booked renewal without telling anyone.
    await runRenewalHolds(ctx.db, { baseUrl, today: `${Y}-11-04` });
    const [hold] = await holdsOf(original.id);
    expect(hold.releaseReason).toBe('renewed');
    expect(hold.releasedAt).not.toBeNull();
    const notices = await ctx.db.select().from(notifications).where(eq(notifications.entityId, original.id));
    expect(notices.filter((n) => n.title === 'Renewal hold released')).toEqual([]);
  });

  it('is released 30 days before the flight, and the rep is told once', async () => {
    const product = await inventoryProduct(1);
    const original = await holder(product);
    await runRenewalHolds(ctx.db, { baseUrl, today: `${Y}-11-02` });
    // The day before the release day it still holds.
    await runRenewalHolds(ctx.db, { baseUrl, today: `${N}-11-19` });
    expect((await holdsOf(original.id))[0].releasedAt).toBeNull();
    await runRenewalHolds(ctx.db, { baseUrl, today: `${N}-11-20` });
    await runRenewalHolds(ctx.db, { baseUrl, today: `${N}-11-21` });
    const [hold] = await holdsOf(original.id);
    expect(hold.releaseReason).toBe('expired');
    expect(hold.releasedAt).not.toBeNull();

    const notices = await ctx.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, rep.id), eq(notifications.entityId, original.id)));
    const released = notices.filter((n) => n.title === 'Renewal hold released');
    expect(released).toHaveLength(1);
    expect(released[0].body).toBe(
      `The slots held for the renewal of Contract ${original.id.slice(-8)} for Tinsel Co were released (its renewal did not take them 30 days before the flight): ${product.name}: ${N}-12-20 to ${N}-12-24, 1 slot. They are available to others again.`,
    );
    const mail = await ctx.db.select().from(outboxEmails).where(eq(outboxEmails.to, rep.email));
    expect(mail.filter((m) => m.subject === `Renewal hold released: Contract ${original.id.slice(-8)}`)).toHaveLength(
      1,
    );

    expect(figures(await availability(product.id, `${N}-12-20`, `${N}-12-20`))).toEqual([[`${N}-12-20`, 0, 0, 0, 1]]);
    const other = await created([{ productId: product.id, flightStart: `${N}-12-20`, flightEnd: `${N}-12-20` }]);
    expect((await act(other.id, 'activate')).statusCode).toBe(200);
  });

  it('turns February 29 into February 28', async () => {
    const product = await inventoryProduct(2);
    // From January 1 for 3 months: auto-stop April 1, due from February 1 (a leap year's February has 29 days).
    const original = await created(
      [
        { productId: product.id, flightStart: `${Y}-02-20`, flightEnd: `${Y}-02-29` },
        { productId: product.id, flightStart: `${Y}-02-29`, flightEnd: `${Y}-03-02` },
      ],
      { as: rep, status: 'active', customerId: holderCustomer, startDate: `${Y}-01-01` },
    );
    await runRenewalHolds(ctx.db, { baseUrl, today: `${Y}-01-31` });
    expect(await holdsOf(original.id)).toEqual([]);
    await runRenewalHolds(ctx.db, { baseUrl, today: `${Y}-02-01` });
    const holds = (await holdsOf(original.id)).map((h) => [h.heldFrom, h.heldTo, h.releaseOn]);
    expect(holds.sort()).toEqual([
      [`${N}-02-20`, `${N}-02-28`, `${N}-01-21`],
      [`${N}-02-28`, `${N}-03-02`, `${N}-01-29`],
    ]);
    expect(figures(await availability(product.id, `${N}-02-27`, `${N}-03-03`))).toEqual([
      [`${N}-02-27`, 0, 0, 1, 1],
      [`${N}-02-28`, 0, 0, 2, 0],
      [`${N}-03-01`, 0, 0, 1, 1],
      [`${N}-03-02`, 0, 0, 1, 1],
      [`${N}-03-03`, 0, 0, 0, 2],
    ]);
  });

  it('of a canceled contract is released at once, and the rep is told once', async () => {
    const product = await inventoryProduct(1);
    const original = await holder(product);
    await runRenewalHolds(ctx.db, { baseUrl, today: `${Y}-11-02` });
    expect((await act(original.id, 'cancel')).statusCode).toBe(200);
    // Counted as free at once, before the job records the release.
    expect(figures(await availability(product.id, `${N}-12-20`, `${N}-12-20`))).toEqual([[`${N}-12-20`, 0, 0, 0, 1]]);
    const other = await created([{ productId: product.id, flightStart: `${N}-12-20`, flightEnd: `${N}-12-20` }]);
    expect((await act(other.id, 'activate')).statusCode).toBe(200);

    await runRenewalHolds(ctx.db, { baseUrl, today: `${Y}-11-03` });
    await runRenewalHolds(ctx.db, { baseUrl, today: `${Y}-11-03` });
    const [hold] = await holdsOf(original.id);
    expect(hold.releaseReason).toBe('canceled');
    const released = (
      await ctx.db
        .select()
        .from(notifications)
        .where(and(eq(notifications.userId, rep.id), eq(notifications.entityId, original.id)))
    ).filter((n) => n.title === 'Renewal hold released');
    expect(released).toHaveLength(1);
    expect(released[0].body).toContain('(the contract was canceled)');
    const audit = await ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, original.id), eq(auditEvents.action, 'contract.renewal_hold_released')));
    expect(audit).toHaveLength(1);
  });
});

describe('two contracts racing for the last slot beside a renewal hold', () => {
  it('exactly one succeeds: the capacity holds', async () => {
    const product = await inventoryProduct(3);
    await holder(product);
    await runRenewalHolds(ctx.db, { baseUrl, today: `${Y}-11-02` });
    const day = { productId: product.id, flightStart: `${N}-12-23`, flightEnd: `${N}-12-23` };
    await created([day], { status: 'active' });
    for (let round = 0; round < 3; round++) {
      const drafts = await Promise.all([created([day]), created([day])]);
      const responses = await Promise.all(drafts.map((d) => act(d.id, 'activate')));
      const codes = responses.map((r) => r.statusCode).sort();
      if (round === 0) expect(codes).toEqual([200, 409]);
      else expect(codes).toEqual([409, 409]);
      for (const r of responses.filter((x) => x.statusCode === 409)) {
        expect(r.json().message).toBe(
          `Only 0 of 3 slots left on ${N}-12-23 for ${product.name} (held for the renewal of Tinsel Co)`,
        );
      }
    }
    expect(figures(await availability(product.id, `${N}-12-23`, `${N}-12-23`))).toEqual([[`${N}-12-23`, 2, 0, 1, 0]]);
  });
});
