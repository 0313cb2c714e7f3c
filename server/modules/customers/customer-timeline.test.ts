import type { CustomerTimeline, TimelineEntry } from '@shared/contracts/customer-timeline';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activities, insertionOrders, invoices } from '../../db/schema';
import { buildTestApp, type TestContext } from '../../test/app';
import { createBillableContract, setTaxSettings } from '../../test/billing-factories';
import { createTestCustomer, createTestProduct } from '../../test/catalog-factories';
import { nextAddress } from '../../test/payment-factories';
import { runBilling } from '../billing/billing-run';

/**
 * The customer's story over the API (product.md section 19): contract and deal events from the audit trail, the
 * invoices issued, paid and overdue, payments, credit notes and activities, newest first, each once; paged by
 * time without losing or repeating an event, even where many share one moment.
 */
const ORIGIN = 'https://crm.example.test';
let ctx: TestContext;

beforeAll(async () => {
  ctx = await buildTestApp({ config: { PUBLIC_URL: ORIGIN } });
  await setTaxSettings(ctx.db, { defaultTaxRate: 0, taxIncluded: false, taxLabel: 'Tax' });
});
afterAll(() => ctx.close());

type Who = Parameters<TestContext['injectAs']>[0];
const timelineUrl = (customerId: string, query = '') => `/api/customers/${customerId}/timeline${query}`;

async function timeline(customerId: string, query = '', who: Who = 'sales'): Promise<CustomerTimeline> {
  const response = await ctx.injectAs(who, { method: 'GET', url: timelineUrl(customerId, query) });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/** Every entry, page by page of `limit`, following nextBefore. */
async function walk(customerId: string, limit: number): Promise<TimelineEntry[]> {
  const entries: TimelineEntry[] = [];
  let before: string | null = null;
  for (let pages = 0; pages < 200; pages++) {
    const page = await timeline(customerId, `?limit=${limit}${before ? `&before=${encodeURIComponent(before)}` : ''}`);
    entries.push(...page.entries);
    if (!page.nextBefore) return entries;
    expect(page.entries.length, 'a page that is not the last has entries').toBeGreaterThan(0);
    before = page.nextBefore;
  }
  throw new Error('the timeline did not end');
}

describe("a customer's timeline", () => {
  let customerId: string;
  let all: TimelineEntry[];

  beforeAll(async () => {
    customerId = (await createTestCustomer(ctx.db, { name: 'Lantern Books', email: 'hello@lantern.test' })).id;
    const product = await createTestProduct(ctx.db, { name: 'Lobby Screen Loop', defaultPriceCents: 200_00 });
    const sales = await ctx.as('sales');

    // A deal, opened and moved.
    const stages = (await ctx.injectAs('sales', { method: 'GET', url: '/api/settings/pipeline' })).json().stages as {
      id: string;
      name: string;
    }[];
    const deal = await ctx.injectAs('sales', {
      method: 'POST',
      url: '/api/deals',
      payload: { customerId, title: 'Spring shelf talkers', amount: 1200 },
    });
    expect(deal.statusCode, deal.body).toBe(201);
    const moved = await ctx.injectAs('sales', {
      method: 'POST',
      url: `/api/deals/${deal.json().id}/move`,
      payload: { stageId: stages.find((s) => s.name === 'Qualified')!.id, version: deal.json().version },
    });
    expect(moved.statusCode, moved.body).toBe(200);

    // A contract created and sent, its insertion order signed by the customer.
    const created = await ctx.injectAs('sales', {
      method: 'POST',
      url: '/api/contracts',
      payload: {
        customerId,
        startDate: '2026-03-01',
        termMonths: 3,
        title: 'Spring Window',
        setupFee: 0,
        paymentMode: 'pay_link',
        packageId: null,
        sendToCustomer: true,
        makeActive: false,
        lineItems: [{ productId: product.id, quantity: 1, unitPrice: 200, discount: 0 }],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const [io] = await ctx.db.select().from(insertionOrders).where(eq(insertionOrders.contractId, created.json().id));
    const accepted = await ctx.app.inject({
      method: 'POST',
      url: `/api/io/${io.token}/accept`,
      payload: { signerName: 'Ann Buyer', agree: true },
      remoteAddress: nextAddress(),
    });
    expect(accepted.statusCode, accepted.body).toBe(200);

    // An active contract billed long ago: one invoice paid by check, one left open (overdue), one credited.
    const { contract } = await createBillableContract(ctx.db, {
      customerId,
      startDate: '2025-01-01',
      termMonths: 3,
      title: 'Winter Catalog',
      lines: [{ unitPriceCents: 250_00 }],
    });
    await runBilling(ctx.db, { contractId: contract.id, asOf: '2025-03-01', baseUrl: ORIGIN });
    const billed = await ctx.db.select().from(invoices).where(eq(invoices.contractId, contract.id));
    const [first, second, third] = billed.sort((a, b) => a.periodStart.localeCompare(b.periodStart));
    const paid = await ctx.injectAs('finance', {
      method: 'POST',
      url: `/api/invoices/${first.id}/payments`,
      payload: { amount: 250, method: 'check', reference: 'CHK 12' },
    });
    expect(paid.statusCode, paid.body).toBe(201);
    const credited = await ctx.injectAs('finance', {
      method: 'POST',
      url: `/api/invoices/${third.id}/credit-notes`,
      payload: { amount: 50, reason: 'Screen offline for a week' },
    });
    expect(credited.statusCode, credited.body).toBe(201);
    expect(second.status).toBe('pending');

    // Activities, as the activities module writes them.
    await ctx.db.insert(activities).values([
      { type: 'call', subject: 'Intro call', customerId, ownerId: sales.id, body: 'Wants spring placements.' },
      {
        type: 'task',
        subject: 'Send the rate card',
        customerId,
        ownerId: sales.id,
        dueAt: new Date('2026-02-10T15:00:00Z'),
        done: true,
      },
    ]);
    all = (await timeline(customerId, '?limit=200')).entries;
  }, 60_000);

  it('tells what happened to its deals, contracts, invoices, payments, credit notes and activities, newest first', () => {
    const times = all.map((entry) => entry.at);
    expect([...times].sort().reverse()).toEqual(times);
    expect(new Set(all.map((entry) => entry.id)).size).toBe(all.length);
    const titles = all.map((entry) => [entry.kind, entry.title]);
    expect(titles).toEqual(
      expect.arrayContaining([
        ['deal', 'Deal "Spring shelf talkers" created in Lead for $1,200.00'],
        ['deal', 'Deal "Spring shelf talkers" moved from Lead to Qualified'],
        ['contract', 'Contract "Spring Window" created: $200.00 (draft)'],
        ['contract', 'Contract "Spring Window" sent to the customer'],
        ['contract', 'Insertion order version 1 of contract "Spring Window" signed by Ann Buyer'],
        ['payment', expect.stringMatching(/^Payment of \$250\.00 by check recorded on invoice INV-\d{4}-\d{6}$/)],
        ['invoice', expect.stringMatching(/^Invoice INV-\d{4}-\d{6} paid in full: \$250\.00$/)],
        ['invoice', expect.stringMatching(/^Invoice INV-\d{4}-\d{6} overdue: \$250\.00 was due /)],
        [
          'credit_note',
          expect.stringMatching(/^Credit note CN-\d{4}-\d{6} issued on invoice INV-.*: \$50\.00 \(Screen offline/),
        ],
        ['contract', 'Contract "Winter Catalog" paused for non-payment: an invoice unpaid 21 days after its due date'],
        ['activity', 'Call: Intro call'],
        ['activity', 'Task: Send the rate card'],
      ]),
    );
    expect(all.filter((entry) => /^Invoice INV-\d+-\d+ issued: \$250\.00$/.test(entry.title))).toHaveLength(3);
    // The invoices still open and past due: the second, and the third (credited $50.00, not paid).
    expect(all.filter((entry) => entry.title.includes('overdue'))).toHaveLength(2);
  });

  it('says who did it, where to look, and the details', () => {
    const byTitle = (pattern: RegExp) => all.find((entry) => pattern.test(entry.title))!;
    const sent = byTitle(/sent to the customer/);
    expect(sent).toMatchObject({
      kind: 'contract',
      actorName: expect.any(String),
      link: expect.stringMatching(/^\/contracts\//),
    });
    expect(byTitle(/^Deal .* moved/)).toMatchObject({ link: '/pipeline', detail: null });
    expect(byTitle(/^Payment of/)).toMatchObject({
      detail: 'Reference CHK 12 · Winter Catalog',
      actorName: expect.any(String),
    });
    expect(byTitle(/issued: \$250/)).toMatchObject({
      actorName: null,
      detail: expect.stringMatching(/^Winter Catalog · due /),
    });
    expect(byTitle(/^Task:/)).toMatchObject({ detail: 'Due Feb 10, 2026 · Done', actorName: expect.any(String) });
    expect(byTitle(/^Call:/).detail).toBe('Wants spring placements.');
  });

  it('pages by time: every page size walks the same events, none lost or repeated', async () => {
    for (const limit of [1, 2, 3, 7]) {
      expect((await walk(customerId, limit)).map((entry) => entry.id)).toEqual(all.map((entry) => entry.id));
    }
    const first = await timeline(customerId, '?limit=3');
    expect(first.entries).toHaveLength(3);
    expect(first.nextBefore).not.toBeNull();
    expect((await timeline(customerId)).entries.length).toBe(Math.min(all.length, 50));
  });

  it('refuses a malformed before or limit; 404 for an unknown customer; staff only', async () => {
    for (const query of ['?before=yesterday', '?before=2026-13-01T00:00:00Z', '?limit=0', '?limit=201']) {
      const response = await ctx.injectAs('sales', { method: 'GET', url: timelineUrl(customerId, query) });
      expect(response.statusCode, query).toBe(400);
    }
    const unknown = await ctx.injectAs('sales', {
      method: 'GET',
      url: timelineUrl('00000000-0000-4000-8000-000000000000'),
    });
    expect(unknown.statusCode).toBe(404);
    expect((await ctx.injectAs('client', { method: 'GET', url: timelineUrl(customerId) })).statusCode).toBe(403);
    expect((await timeline(customerId, '', 'finance')).entries.length).toBeGreaterThan(0);
  });
});

describe('events of one moment', () => {
  it('are never split between pages; a moment with more events than a page is answered whole', async () => {
    const customerId = (await createTestCustomer(ctx.db, { name: 'Same Moment Media' })).id;
    const owner = await ctx.as('sales');
    const at = (iso: string) => new Date(iso);
    const activity = (subject: string, createdAt: Date) => ({
      type: 'note',
      subject,
      customerId,
      ownerId: owner.id,
      createdAt,
    });
    await ctx.db
      .insert(activities)
      .values([
        activity('Newest', at('2026-05-03T10:00:00.000Z')),
        activity('Pair A', at('2026-05-02T10:00:00.000Z')),
        activity('Pair B', at('2026-05-02T10:00:00.000Z')),
        ...['1', '2', '3', '4', '5'].map((n) => activity(`Crowd ${n}`, at('2026-05-01T10:00:00.000Z'))),
        activity('Oldest', at('2026-04-30T10:00:00.000Z')),
      ]);
    const subjects = (page: CustomerTimeline) => page.entries.map((entry) => entry.title.replace('Note: ', ''));

    // Two per page: the pair would be split, so the first page ends after "Newest".
    const first = await timeline(customerId, '?limit=2');
    expect(subjects(first)).toEqual(['Newest']);
    expect(first.nextBefore).toBe('2026-05-02T10:00:00.001Z');
    const second = await timeline(customerId, `?limit=2&before=${first.nextBefore}`);
    expect(subjects(second).sort()).toEqual(['Pair A', 'Pair B']);
    // The crowd of five is one moment: answered whole, though the page holds two.
    const third = await timeline(customerId, `?limit=2&before=${second.nextBefore}`);
    expect(subjects(third).sort()).toEqual(['Crowd 1', 'Crowd 2', 'Crowd 3', 'Crowd 4', 'Crowd 5']);
    expect(third.nextBefore).toBe('2026-05-01T10:00:00.000Z');
    const last = await timeline(customerId, `?limit=2&before=${third.nextBefore}`);
    expect(subjects(last)).toEqual(['Oldest']);
    expect(last.nextBefore).toBeNull();
  });
});
