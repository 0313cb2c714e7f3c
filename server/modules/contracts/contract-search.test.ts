import type { Contract } from '@shared/contracts/contract-responses';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contracts } from '../../db/schema';
import { buildTestApp, type TestContext } from '../../test/app';
import { createTestCustomer, createTestProduct } from '../../test/catalog-factories';
import { createTestUser } from '../../test/factories';

// The contract search (decision 045) matches contracts.search_text: the title, the description's first 200
// characters, the id (so the 8-character short id the screens show) and the customer's name, kept by triggers.
let ctx: TestContext;
let marlow: Awaited<ReturnType<typeof createTestCustomer>>;
let quill: Awaited<ReturnType<typeof createTestCustomer>>;
let rep: Awaited<ReturnType<TestContext['signIn']>>;
let otherRep: Awaited<ReturnType<typeof createTestUser>>;

/** Fixed ids, so that the short ids (their last 8 characters) are known here. */
const ID = {
  lantern: '0a5d1c2e-4b7f-4c1d-8e2a-3f9b6c7d8e01',
  harvest: '0a5d1c2e-4b7f-4c1d-8e2a-3f9b6c7d8e02',
  quill: '0a5d1c2e-4b7f-4c1d-8e2a-3f9b6c7d8e03',
  paused: '0a5d1c2e-4b7f-4c1d-8e2a-3f9b6c7d8e04',
  tieLow: '0a5d1c2e-4b7f-4c1d-8e2a-3f9b6c7d8e05',
  tieHigh: '0a5d1c2e-4b7f-4c1d-8e2a-3f9b6c7d8e06',
};

beforeAll(async () => {
  ctx = await buildTestApp();
  marlow = await createTestCustomer(ctx.db, { name: 'Marlowe Outfitters', company: 'Zephyrine Holdings' });
  quill = await createTestCustomer(ctx.db, { name: 'Quillon Bakery' });
  rep = await ctx.signIn(await createTestUser(ctx.db, { role: 'sales' }));
  otherRep = await createTestUser(ctx.db, { role: 'sales' });
  const row = (
    id: string,
    customerId: string,
    salesRepId: string,
    title: string | null,
    description: string,
    status: string,
    minute: number,
  ) => sql`(${id}::uuid, ${customerId}::uuid, ${salesRepId}::uuid, ${title}, ${description}, ${status},
            ${status === 'paused' ? 'non_payment' : null}, date '2026-01-01', 'portal',
            timestamptz '2026-03-01 00:00:00+00' + ${minute} * interval '1 minute')`;
  await ctx.db.execute(sql`
    insert into contracts (id, customer_id, sales_rep_id, title, description, status, pause_reason, start_date,
                           payment_mode, created_at)
    values ${sql.join(
      [
        row(ID.lantern, marlow.id, rep.id, 'Lantern Night', 'Autumn festival banners', 'active', 1),
        row(ID.harvest, marlow.id, otherRep.id, null, 'Harvest moon pre-roll, autumn slots', 'draft', 2),
        row(ID.quill, quill.id, rep.id, 'Bakery week', 'Autumn bread promotion', 'active', 3),
        row(ID.paused, quill.id, otherRep.id, null, 'Autumn overlay', 'paused', 4),
        row(ID.tieLow, quill.id, rep.id, null, 'Tiebreak duo', 'draft', 5),
        row(ID.tieHigh, quill.id, rep.id, null, 'Tiebreak duo', 'draft', 5),
      ],
      sql`, `,
    )}`);
}, 60_000);
afterAll(() => ctx.close());

const search = async (query: string, who: Parameters<TestContext['injectAs']>[0] = 'admin') => {
  const response = await ctx.injectAs(who, { method: 'GET', url: `/api/contracts?${query}` });
  expect(response.statusCode, response.body).toBe(200);
  return {
    ids: response.json().map((c: Contract) => c.id) as string[],
    total: response.headers['x-total-count'],
    lowerBound: response.headers['x-total-count-lower-bound'],
  };
};
const ids = async (query: string, who?: Parameters<TestContext['injectAs']>[0]) => (await search(query, who)).ids;

describe('the contract search finds what people type', () => {
  it("finds a contract by its customer's name, whole, a prefix or a part, in any case", async () => {
    expect(await ids('q=Marlowe%20Outfitters')).toEqual([ID.harvest, ID.lantern]);
    expect(await ids('q=marlo')).toEqual([ID.harvest, ID.lantern]);
    expect(await ids('q=UTFITTER')).toEqual([ID.harvest, ID.lantern]);
    expect(await ids('q=quillon%20bak')).toEqual([ID.tieHigh, ID.tieLow, ID.paused, ID.quill]);
  });

  it('finds a contract by its short id (the last 8 characters) and by its whole id', async () => {
    expect(await ids('q=6c7d8e03')).toEqual([ID.quill]);
    expect(await ids('q=6C7D8E03')).toEqual([ID.quill]);
    expect(await ids(`q=${ID.lantern}`)).toEqual([ID.lantern]);
  });

  it('finds a contract by a word or a phrase of its description or its title', async () => {
    expect(await ids('q=harvest')).toEqual([ID.harvest]);
    expect(await ids('q=moon%20pre-roll')).toEqual([ID.harvest]);
    expect(await ids('q=lantern')).toEqual([ID.lantern]);
    expect(await ids('q=bakery%20week')).toEqual([ID.quill]);
  });

  it('finds nothing for what no contract holds, nor for what the search does not cover', async () => {
    expect(await search('q=zanzibar')).toEqual({ ids: [], total: '0', lowerBound: undefined });
    // The customer's company and e-mail are the customers list's search, not the contracts'.
    expect(await ids('q=zephyrine')).toEqual([]);
    expect(await ids('q=%25')).toEqual([]);
    expect(await ids('q=_')).toEqual([]);
  });

  it('keeps every other filter: status, customer, pause reason, and a sales rep sees only their own', async () => {
    expect(await ids('q=autumn')).toEqual([ID.paused, ID.quill, ID.harvest, ID.lantern]);
    expect(await ids('q=autumn&status=active')).toEqual([ID.quill, ID.lantern]);
    expect(await ids(`q=autumn&customerId=${marlow.id}`)).toEqual([ID.harvest, ID.lantern]);
    expect(await ids('q=autumn&status=paused&reason=non_payment')).toEqual([ID.paused]);
    expect(await ids('q=autumn&status=paused&reason=manual')).toEqual([]);
    expect(await ids('q=autumn', rep)).toEqual([ID.quill, ID.lantern]);
    expect(await ids(`q=autumn&customerId=${quill.id}&status=active`, rep)).toEqual([ID.quill]);
  });

  it('pages newest first with the id as tie-break, and counts the matches', async () => {
    expect(await search('q=tiebreak')).toEqual({ ids: [ID.tieHigh, ID.tieLow], total: '2', lowerBound: undefined });
    expect(await search('q=quillon&limit=2&offset=1')).toEqual({
      ids: [ID.tieLow, ID.paused],
      total: '4',
      lowerBound: undefined,
    });
  });
});

describe('the search text follows its sources', () => {
  it("finds a customer's contracts under its new name after a rename, not under the old one", async () => {
    const customer = await createTestCustomer(ctx.db, { name: 'Ostrander Cycles' });
    const [contract] = await ctx.db
      .insert(contracts)
      .values({ customerId: customer.id, description: 'Spoke sale', startDate: '2026-01-01', paymentMode: 'portal' })
      .returning({ id: contracts.id });
    expect(await ids('q=ostrander')).toEqual([contract.id]);

    const renamed = await ctx.injectAs('admin', {
      method: 'PATCH',
      url: `/api/customers/${customer.id}`,
      payload: { name: 'Vantablack Wheels' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(await ids('q=vantablack')).toEqual([contract.id]);
    expect(await ids('q=ostrander')).toEqual([]);
  });

  it('follows an edit of the title and description, and a move to another customer', async () => {
    const contract = await ctx.db
      .insert(contracts)
      .values({ customerId: marlow.id, description: 'Glacier promo', startDate: '2026-01-01', paymentMode: 'portal' })
      .returning({ id: contracts.id })
      .then(([row]) => row.id);
    expect(await ids('q=glacier')).toEqual([contract]);
    await ctx.db
      .update(contracts)
      .set({ description: 'Volcano promo', title: 'Obsidian', customerId: quill.id })
      .where(eq(contracts.id, contract));
    expect(await ids('q=glacier')).toEqual([]);
    expect(await ids('q=volcano')).toEqual([contract]);
    expect(await ids('q=obsidian')).toEqual([contract]);
    expect((await ids('q=quillon')).includes(contract)).toBe(true);
    expect((await ids('q=marlowe')).includes(contract)).toBe(false);
  });

  it('saves a description of 5,000 characters and finds it by a word of its first 200, not by one further on', async () => {
    const description = `Kestrel ${'x'.repeat(300)} Pemberton ${'y'.repeat(5000 - 319)}`;
    expect(description.length).toBe(5000);
    const product = await createTestProduct(ctx.db, {
      name: 'Kiosk Banner',
      adType: 'banner',
      defaultPriceCents: 100_00,
    });
    const response = await ctx.injectAs('admin', {
      method: 'POST',
      url: '/api/contracts',
      payload: {
        customerId: marlow.id,
        startDate: `${new Date().getUTCFullYear() + 1}-01-31`,
        termMonths: 1,
        description,
        setupFee: 0,
        paymentMode: 'portal',
        packageId: null,
        sendToCustomer: false,
        makeActive: false,
        lineItems: [{ productId: product.id, quantity: 1, unitPrice: 100, discount: 0 }],
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    const { id } = response.json() as Contract;
    expect(await ids('q=kestrel')).toEqual([id]);
    // The search covers the description's first 200 characters only (decision 045).
    expect(await ids('q=pemberton')).toEqual([]);
  });

  it('stores a description far longer than any index entry (20,000 characters written directly)', async () => {
    const description = `Wanderlust ${'z'.repeat(20_000)}`;
    const [row] = await ctx.db
      .insert(contracts)
      .values({ customerId: quill.id, description, startDate: '2026-01-01', paymentMode: 'portal' })
      .returning({ id: contracts.id });
    expect(await ids('q=wanderlust')).toEqual([row.id]);
  });
});

describe('the bounded total of a broad search', () => {
  it('stops counting at 1,000 and pages on in order', async () => {
    const customer = await createTestCustomer(ctx.db, { name: 'Bulk Buyer' });
    await ctx.db.execute(sql`
      insert into contracts (customer_id, description, start_date, payment_mode, created_at)
      select ${customer.id}::uuid, 'Meridian spot ' || g, date '2026-01-01', 'portal',
             timestamptz '2026-02-01 00:00:00+00' + g * interval '1 second'
      from generate_series(1, 1005) g`);
    expect(await search('q=meridian&limit=3')).toMatchObject({ total: '1000', lowerBound: 'true' });
    const first = await ctx.injectAs('admin', { method: 'GET', url: '/api/contracts?q=meridian&limit=3' });
    expect(first.json().map((c: Contract) => c.description)).toEqual([
      'Meridian spot 1005',
      'Meridian spot 1004',
      'Meridian spot 1003',
    ]);
    const last = await ctx.injectAs('admin', { method: 'GET', url: '/api/contracts?q=meridian&limit=10&offset=1000' });
    expect(last.headers['x-total-count']).toBe('1005');
    expect(last.headers['x-total-count-lower-bound']).toBeUndefined();
    expect(last.json().map((c: Contract) => c.description)).toEqual([
      'Meridian spot 5',
      'Meridian spot 4',
      'Meridian spot 3',
      'Meridian spot 2',
      'Meridian spot 1',
    ]);
  });
});
