import { utcToday } from '@shared/billing';
import { PERFORMANCE_MESSAGES, type PerformanceEntry } from '@shared/contracts/performance';
import type { Role } from '@shared/roles';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, contractPerformance, contracts } from '../../db/schema';
import { buildTestApp, type TestContext } from '../../test/app';
import { createTestCustomer } from '../../test/catalog-factories';
import { createTestUser, type TestUser } from '../../test/factories';

type Signed = TestUser & { token: string };

let ctx: TestContext;
let client: Signed;
let otherClient: Signed;
let rep: Signed;
let otherRep: Signed;
let active: string;
let draft: string;
let othersContract: string;

/** The current month and the one before it (UTC), computed here without the production code. */
const now = new Date();
const THIS_MONTH = `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
const NEXT_MONTH = `${next.getUTCFullYear()}-${String(next.getUTCMonth() + 1).padStart(2, '0')}`;

async function insertContract(customerId: string, status: string, salesRepId: string | null) {
  const [row] = await ctx.db
    .insert(contracts)
    .values({
      customerId,
      status,
      startDate: '2025-06-15',
      paymentMode: 'portal',
      salesRepId,
      title: 'Winter campaign',
    })
    .returning();
  return row.id;
}

beforeAll(async () => {
  ctx = await buildTestApp();
  const customer = await createTestCustomer(ctx.db);
  const other = await createTestCustomer(ctx.db);
  client = await ctx.signIn(await createTestUser(ctx.db, { role: 'client', customerId: customer.id }));
  otherClient = await ctx.signIn(await createTestUser(ctx.db, { role: 'client', customerId: other.id }));
  rep = await ctx.signIn(await createTestUser(ctx.db, { role: 'sales' }));
  otherRep = await ctx.signIn(await createTestUser(ctx.db, { role: 'sales' }));
  active = await insertContract(customer.id, 'active', rep.id);
  draft = await insertContract(customer.id, 'draft', rep.id);
  othersContract = await insertContract(other.id, 'active', null);
});
afterAll(() => ctx.close());

const put = (who: Role | Signed, contractId: string, month: string, payload: Record<string, unknown>) =>
  ctx.injectAs(who, { method: 'PUT', url: `/api/contracts/${contractId}/performance/${month}`, payload });

describe('performance figures', () => {
  it('staff enter a month; the client sees exactly those figures on its contract and its portal list', async () => {
    const saved = await put('admin', active, '2025-07', { impressions: 120_000, clicks: 3_100, views: 45_000 });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({
      contractId: active,
      contractTitle: 'Winter campaign',
      month: '2025-07',
      impressions: 120_000,
      clicks: 3_100,
      views: 45_000,
      updatedByName: expect.stringMatching(/^Test User/),
    });

    const mine = await ctx.injectAs(client, { method: 'GET', url: '/api/client/performance' });
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toEqual([saved.json()]);
    const onContract = await ctx.injectAs(client, { method: 'GET', url: `/api/contracts/${active}/performance` });
    expect(onContract.json()).toEqual([saved.json()]);
    expect(onContract.headers['x-total-count']).toBe('1');

    const theirs = await ctx.injectAs(otherClient, { method: 'GET', url: '/api/client/performance' });
    expect(theirs.json()).toEqual([]);
    const peek = await ctx.injectAs(otherClient, { method: 'GET', url: `/api/contracts/${active}/performance` });
    expect(peek.statusCode).toBe(404);
  });

  it('entering a month again replaces its figures (one row per contract and month), with the change audited', async () => {
    await put('sales_manager', active, '2025-08', { impressions: 10, clicks: 1, views: 5 });
    const corrected = await put(rep, active, '2025-08', { impressions: 20, clicks: 2, views: 7 });
    expect(corrected.statusCode).toBe(200);
    const rows = await ctx.db
      .select()
      .from(contractPerformance)
      .where(and(eq(contractPerformance.contractId, active), eq(contractPerformance.month, '2025-08')));
    expect(rows).toMatchObject([{ impressions: 20, clicks: 2, views: 7, updatedBy: rep.id }]);
    const audit = await ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, active), eq(auditEvents.action, 'performance.recorded')));
    const august = audit.filter((a) => (a.after as { month: string }).month === '2025-08');
    expect(august.map((a) => [a.before, a.after])).toEqual(
      expect.arrayContaining([
        [null, { month: '2025-08', impressions: 10, clicks: 1, views: 5 }],
        [
          { month: '2025-08', impressions: 10, clicks: 1, views: 5 },
          { month: '2025-08', impressions: 20, clicks: 2, views: 7 },
        ],
      ]),
    );
    const list = await ctx.injectAs('finance', { method: 'GET', url: `/api/contracts/${active}/performance` });
    expect(list.json().map((e: PerformanceEntry) => e.month)).toEqual(['2025-08', '2025-07']);
  });

  it.each([
    ['super_admin', 200],
    ['admin', 200],
    ['sales_manager', 200],
    ["the contract's sales rep", 200],
    ['another sales rep', 404],
    ['finance', 403],
    ['client', 403],
  ] as const)('who may enter figures: %s -> %i', async (who, status) => {
    const caller = who === "the contract's sales rep" ? rep : who === 'another sales rep' ? otherRep : who;
    const response = await put(caller, active, THIS_MONTH, { impressions: 1, clicks: 0, views: 0 });
    expect(response.statusCode, response.body).toBe(status);
    if (status === 200) {
      const deleted = await ctx.injectAs(caller, {
        method: 'DELETE',
        url: `/api/contracts/${active}/performance/${THIS_MONTH}`,
      });
      expect(deleted.statusCode).toBe(200);
    }
  });

  it.each([
    [{ impressions: -1, clicks: 0, views: 0 }, 'Impressions cannot be negative'],
    [{ impressions: 1.5, clicks: 0, views: 0 }, 'Impressions must be a whole number'],
    [{ impressions: 1, clicks: '2', views: 0 }, 'Clicks must be a number'],
    [{ impressions: 1, clicks: 2 }, 'Views must be a number'],
  ])('validates the figures: %j', async (payload, message) => {
    const response = await put('admin', active, '2025-09', payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(message);
  });

  it("refuses future months, months before the start, drafts, malformed months and other customers' contracts", async () => {
    const future = await put('admin', active, NEXT_MONTH, { impressions: 1, clicks: 1, views: 1 });
    expect(future.statusCode).toBe(400);
    expect(future.json().message).toBe(PERFORMANCE_MESSAGES.future);
    expect(utcToday().slice(0, 7)).toBe(THIS_MONTH);

    const early = await put('admin', active, '2025-05', { impressions: 1, clicks: 1, views: 1 });
    expect(early.statusCode).toBe(400);
    expect(early.json().message).toBe('The contract starts in 2025-06: figures can only be entered from that month on');
    const startMonth = await put('admin', active, '2025-06', { impressions: 1, clicks: 1, views: 1 });
    expect(startMonth.statusCode).toBe(200);

    const onDraft = await put('admin', draft, '2025-07', { impressions: 1, clicks: 1, views: 1 });
    expect(onDraft.statusCode).toBe(409);
    expect(onDraft.json().message).toBe(PERFORMANCE_MESSAGES.draft);

    for (const month of ['2025-13', '2025-7', 'july']) {
      expect((await put('admin', active, month, { impressions: 1, clicks: 1, views: 1 })).statusCode).toBe(404);
    }
    expect((await put(rep, othersContract, '2025-07', { impressions: 1, clicks: 1, views: 1 })).statusCode).toBe(404);
    const missing = await ctx.injectAs('admin', {
      method: 'DELETE',
      url: `/api/contracts/${active}/performance/2024-01`,
    });
    expect(missing.statusCode).toBe(404);
  });
});
