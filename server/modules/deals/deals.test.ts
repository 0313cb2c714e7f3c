import type { Deal, PipelineSettings, PipelineSummary } from '@shared/contracts/deals';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, contractLineItems, contracts, customers, deals, insertionOrders } from '../../db/schema';
import { buildTestApp, type TestContext } from '../../test/app';
import { createBillableContract } from '../../test/billing-factories';
import { createTestCustomer, createTestProduct } from '../../test/catalog-factories';
import { createTestUser } from '../../test/factories';
import { nextAddress } from '../../test/payment-factories';
import { sendRenewalNotices } from '../contracts/contract-renewals.service';
import { runRenewalDeals } from './renewal-deals.service';

/**
 * The sales pipeline over the API (product.md section 19): the default stages, deals in a rep's scope, the
 * board's figures against a hand-worked table, the rules of a move, the version check, the settings, and a
 * deal following its contract through send, acceptance and cancelation.
 */
let ctx: TestContext;
let customerId: string;
let productId: string;
let settings: PipelineSettings;
const stage = (name: string) => settings.stages.find((s) => s.name === name)!.id;

beforeAll(async () => {
  ctx = await buildTestApp({ config: { PUBLIC_URL: 'https://crm.example.test' } });
  customerId = (await createTestCustomer(ctx.db, { name: 'Harbor Lights Marina', email: 'buyer@harbor.test' })).id;
  productId = (await createTestProduct(ctx.db, { name: 'Homepage Banner', defaultPriceCents: 50_000 })).id;
  const response = await ctx.injectAs('sales', { method: 'GET', url: '/api/settings/pipeline' });
  expect(response.statusCode, response.body).toBe(200);
  settings = response.json();
});
afterAll(() => ctx.close());

type Who = Parameters<TestContext['injectAs']>[0];
const post = (who: Who, url: string, payload: object = {}) => ctx.injectAs(who, { method: 'POST', url, payload });

async function newDeal(who: Who, fields: Record<string, unknown> = {}): Promise<Deal> {
  const response = await post(who, '/api/deals', { customerId, title: 'Spring banners', amount: 1000, ...fields });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

const dealCount = async () => (await ctx.db.select({ n: count() }).from(deals))[0].n;
const auditActions = async (dealId: string) =>
  (
    await ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entity, 'deal'), eq(auditEvents.entityId, dealId)))
  )
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
    .map((event) => event.action);

describe('the pipeline settings', () => {
  it('start with the six default stages, their probabilities and kinds, and rottenDays 14', () => {
    expect(settings.stages.map((s) => [s.name, s.probability, s.kind, s.milestone])).toEqual([
      ['Lead', 10, 'open', null],
      ['Qualified', 25, 'open', null],
      ['Proposal', 50, 'open', 'contract_drafted'],
      ['IO sent', 75, 'open', 'contract_sent'],
      ['Won', 100, 'won', null],
      ['Lost', 0, 'lost', null],
    ]);
    expect(settings.rottenDays).toBe(14);
    expect(settings.lostReasons).toContain('Budget');
  });

  it('are changed by admins only; a pipeline without one won stage, or a stage removed that holds deals, is refused', async () => {
    const body = {
      ...settings,
      stages: settings.stages.map(({ id, name, probability, kind, milestone }) => ({
        id,
        name,
        probability,
        kind,
        milestone,
      })),
    };
    expect(
      (await ctx.injectAs('sales_manager', { method: 'PUT', url: '/api/settings/pipeline', payload: body })).statusCode,
    ).toBe(403);

    const twoWon = { ...body, stages: body.stages.map((s) => (s.name === 'Qualified' ? { ...s, kind: 'won' } : s)) };
    const refused = await ctx.injectAs('admin', { method: 'PUT', url: '/api/settings/pipeline', payload: twoWon });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe('Keep exactly one won stage');

    const deal = await newDeal('sales', { stageId: stage('Qualified') });
    const withoutQualified = { ...body, stages: body.stages.filter((s) => s.name !== 'Qualified') };
    const inUse = await ctx.injectAs('admin', {
      method: 'PUT',
      url: '/api/settings/pipeline',
      payload: withoutQualified,
    });
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json().message).toMatch(/^Move the \d+ deals? out of “Qualified” before removing it$/);

    const renamed = {
      ...body,
      rottenDays: 21,
      stages: [
        ...body.stages.slice(0, 4),
        { name: 'Verbal yes', probability: 90, kind: 'open' },
        ...body.stages.slice(4),
      ].map((s) => (s.name === 'Lead' ? { ...s, name: 'New lead', probability: 5 } : s)),
    };
    const saved = await ctx.injectAs('admin', { method: 'PUT', url: '/api/settings/pipeline', payload: renamed });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((saved.json() as PipelineSettings).stages.map((s) => `${s.name} ${s.probability}`)).toEqual([
      'New lead 5',
      'Qualified 25',
      'Proposal 50',
      'IO sent 75',
      'Verbal yes 90',
      'Won 100',
      'Lost 0',
    ]);
    // Put the defaults back for the rest of the file.
    const restored = await ctx.injectAs('admin', { method: 'PUT', url: '/api/settings/pipeline', payload: body });
    expect(restored.statusCode, restored.body).toBe(200);
    expect((restored.json() as PipelineSettings).stages.map((s) => s.name)).toEqual([
      'Lead',
      'Qualified',
      'Proposal',
      'IO sent',
      'Won',
      'Lost',
    ]);
    expect((await ctx.injectAs('sales', { method: 'GET', url: `/api/deals/${deal.id}` })).json().stageName).toBe(
      'Qualified',
    );
  });
});

describe('POST /api/deals', () => {
  it('makes a deal in Lead owned by its rep, with the stage default probability, and audits it', async () => {
    const rep = await ctx.as('sales');
    const deal = await newDeal(rep, {
      amount: '12500.50',
      expectedCloseDate: '2027-01-15',
      flightStart: '2027-02-01',
      flightEnd: '2027-04-30',
      source: 'referral',
      nextStep: 'Call back Tuesday',
      lines: [{ productId, quantity: 2, unitPrice: 250 }],
    });
    expect(deal).toMatchObject({
      ownerId: rep.id,
      stageName: 'Lead',
      stageKind: 'open',
      amount: 12500.5,
      probability: 10,
      probabilityOverridden: false,
      weightedAmount: 1250.05,
      source: 'referral',
      customerName: 'Harbor Lights Marina',
      lines: [{ productId, productName: 'Homepage Banner', quantity: 2, unitPrice: 250 }],
      stale: false,
      version: 1,
    });
    expect(await auditActions(deal.id)).toEqual(['deal.created']);
  });

  it('creates a prospect as a customer when there is none', async () => {
    const deal = await newDeal('sales', {
      customerId: undefined,
      prospect: { name: 'Pinecrest Dental', email: 'Office@Pinecrest.test' },
    });
    const [customer] = await ctx.db.select().from(customers).where(eq(customers.id, deal.customerId));
    expect(customer).toMatchObject({ name: 'Pinecrest Dental', email: 'Office@Pinecrest.test' });
  });

  it('refuses bad input with its message and saves nothing', async () => {
    const before = await dealCount();
    const cases: [Record<string, unknown>, string][] = [
      [{ probability: 101 }, 'Probability must be a whole number from 0 to 100'],
      [{ expectedCloseDate: 'next week' }, 'Expected close date: enter a valid date (YYYY-MM-DD)'],
      [{ customerId: undefined }, "Choose a customer or enter the prospect's name and e-mail"],
      [{ flightStart: '2027-03-01', flightEnd: '2027-02-01' }, 'Flight end cannot be before flight start'],
      [{ stageId: '00000000-0000-4000-8000-000000000000' }, 'Choose a stage of the pipeline'],
      [{ stageId: 'won' }, 'Choose a stage of the pipeline'],
      [{ amount: -5 }, 'Amount cannot be negative'],
      [
        { lines: [{ productId: '00000000-0000-4000-8000-000000000000', quantity: 1, unitPrice: 1 }] },
        'Product not found',
      ],
    ];
    for (const [fields, message] of cases) {
      const response = await post('sales', '/api/deals', { customerId, title: 'Bad', amount: 10, ...fields });
      expect(response.statusCode, JSON.stringify(fields)).toBe(400);
      expect(response.json().message, JSON.stringify(fields)).toBe(message);
    }
    const won = await post('sales', '/api/deals', { customerId, title: 'Bad', amount: 10, stageId: stage('Won') });
    expect(won.json().message).toBe('A new deal starts in an open stage');
    expect(await dealCount()).toBe(before);
  });
});

describe('who sees a deal', () => {
  it('a rep sees and changes only their own (404 for another rep’s), managers all, finance and clients none', async () => {
    const other = await ctx.signIn(await createTestUser(ctx.db, { role: 'sales' }));
    const mine = await newDeal('sales', { title: 'Mine only' });
    expect((await ctx.injectAs(other, { method: 'GET', url: `/api/deals/${mine.id}` })).statusCode).toBe(404);
    expect((await post(other, `/api/deals/${mine.id}/move`, { stageId: stage('Qualified') })).statusCode).toBe(404);
    const listed = await ctx.injectAs(other, { method: 'GET', url: '/api/deals?limit=500' });
    expect((listed.json() as Deal[]).some((deal) => deal.id === mine.id)).toBe(false);
    expect((await ctx.injectAs('sales_manager', { method: 'GET', url: `/api/deals/${mine.id}` })).statusCode).toBe(200);
    expect((await ctx.injectAs('finance', { method: 'GET', url: '/api/deals' })).statusCode).toBe(403);
    expect((await ctx.injectAs('client', { method: 'GET', url: '/api/deals' })).statusCode).toBe(403);

    const forOther = await post('sales', '/api/deals', {
      customerId,
      title: 'Given away',
      amount: 1,
      ownerId: other.id,
    });
    expect(forOther.statusCode).toBe(403);
    expect(forOther.json().message).toBe('Only managers can give a deal to another rep');
    const assigned = await newDeal('sales_manager', { title: 'Assigned', ownerId: other.id });
    expect(assigned.ownerId).toBe(other.id);
    const finance = await ctx.as('finance');
    const notRep = await post('sales_manager', '/api/deals', {
      customerId,
      title: 'x',
      amount: 1,
      ownerId: finance.id,
    });
    expect(notRep.json().message).toBe('Choose a sales rep or sales manager as the owner');
  });
});

describe('GET /api/pipeline/summary', () => {
  it('gives each stage its count, total and weighted total (hand-worked), within the filters', async () => {
    const rep = await ctx.signIn(await createTestUser(ctx.db, { role: 'sales' }));
    // Lead 10%: 1,000.00 -> 100.00; 0.05 -> 0.005 -> 0.01 (half up). Qualified 25%: 333.33 -> 83.3325 -> 83.33.
    // Proposal with its own 33%: 100.00 -> 33.00. A deal closing in another month is filtered out.
    await newDeal(rep, { amount: 1000, expectedCloseDate: '2027-03-10' });
    await newDeal(rep, { amount: 0.05, expectedCloseDate: '2027-03-31' });
    await newDeal(rep, { amount: 333.33, stageId: stage('Qualified'), expectedCloseDate: '2027-03-01' });
    await newDeal(rep, { amount: 100, stageId: stage('Proposal'), probability: 33, expectedCloseDate: '2027-03-15' });
    await newDeal(rep, { amount: 9999, expectedCloseDate: '2027-04-01' });
    const response = await ctx.injectAs(rep, {
      method: 'GET',
      url: '/api/pipeline/summary?closeFrom=2027-03-01&closeTo=2027-03-31',
    });
    expect(response.statusCode, response.body).toBe(200);
    const summary: PipelineSummary = response.json();
    expect(summary.stages.map((s) => [s.name, s.count, s.total, s.weighted])).toEqual([
      ['Lead', 2, 1000.05, 100.01],
      ['Qualified', 1, 333.33, 83.33],
      ['Proposal', 1, 100, 33],
      ['IO sent', 0, 0, 0],
      ['Won', 0, 0, 0],
      ['Lost', 0, 0, 0],
    ]);
    expect(summary.totals).toEqual({ count: 4, total: 1433.38, weighted: 216.34 });

    const list = await ctx.injectAs(rep, { method: 'GET', url: '/api/deals?sort=amount&limit=2&offset=1' });
    expect(list.headers['x-total-count']).toBe('5');
    expect((list.json() as Deal[]).map((deal) => deal.amount)).toEqual([100, 333.33]);
  });
});

describe('moving a deal', () => {
  it('moves freely among open stages, needs a reason from the list for Lost and a signed contract for Won', async () => {
    const deal = await newDeal('sales');
    const moved = await post('sales', `/api/deals/${deal.id}/move`, { stageId: stage('Qualified'), version: 1 });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ stageName: 'Qualified', probability: 25, version: 2 });

    const won = await post('sales', `/api/deals/${deal.id}/move`, { stageId: stage('Won') });
    expect(won.statusCode).toBe(409);
    expect(won.json().message).toBe('A deal is won once its contract is signed or active');
    const noReason = await post('sales', `/api/deals/${deal.id}/move`, { stageId: stage('Lost') });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().message).toBe('Choose the reason the deal was lost');
    const unknown = await post('sales', `/api/deals/${deal.id}/lose`, { reason: 'The moon' });
    expect(unknown.json().message).toBe('Choose one of the lost reasons of the pipeline settings');

    const lost = await post('sales', `/api/deals/${deal.id}/lose`, { reason: 'budget' });
    expect(lost.statusCode, lost.body).toBe(200);
    expect(lost.json()).toMatchObject({ stageName: 'Lost', stageKind: 'lost', lostReason: 'Budget', probability: 0 });
    expect(lost.json().closedAt).not.toBeNull();
    expect(await auditActions(deal.id)).toEqual(['deal.created', 'deal.moved', 'deal.lost']);

    const reopened = await post('sales', `/api/deals/${deal.id}/move`, { stageId: stage('Lead') });
    expect(reopened.json()).toMatchObject({ stageName: 'Lead', lostReason: null, closedAt: null });
  });

  it('refuses a change made from an older version (409), and of two managers moving one deal at once one wins', async () => {
    const deal = await newDeal('sales');
    const first = await ctx.injectAs('sales_manager', {
      method: 'PATCH',
      url: `/api/deals/${deal.id}`,
      payload: { amount: 2000, version: 1 },
    });
    expect(first.statusCode, first.body).toBe(200);
    const stale = await post('sales', `/api/deals/${deal.id}/move`, { stageId: stage('Qualified'), version: 1 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toBe('This deal was changed by someone else meanwhile. Reload it and try again.');

    const manager2 = await ctx.signIn(await createTestUser(ctx.db, { role: 'sales_manager' }));
    const answers = await Promise.all([
      post('sales_manager', `/api/deals/${deal.id}/move`, { stageId: stage('Qualified'), version: 2 }),
      post(manager2, `/api/deals/${deal.id}/move`, { stageId: stage('Proposal'), version: 2 }),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    const [row] = await ctx.db.select().from(deals).where(eq(deals.id, deal.id));
    const winner = answers.find((a) => a.statusCode === 200)!.json() as Deal;
    expect(row.stageId).toBe(winner.stageId);
    expect(row.version).toBe(3);
  });

  it('deletes only an open deal without a contract', async () => {
    const deal = await newDeal('sales');
    const gone = await ctx.injectAs('sales', { method: 'DELETE', url: `/api/deals/${deal.id}` });
    expect(gone.statusCode, gone.body).toBe(200);
    expect((await ctx.injectAs('sales', { method: 'GET', url: `/api/deals/${deal.id}` })).statusCode).toBe(404);
  });
});

describe('a deal follows its contract', () => {
  async function dealWithContract(fields: Record<string, unknown> = {}) {
    const deal = await newDeal('sales', {
      amount: 3000,
      flightStart: '2099-02-01',
      flightEnd: '2099-04-30',
      lines: [{ productId, quantity: 2, unitPrice: 500 }],
      ...fields,
    });
    const response = await post('sales', `/api/deals/${deal.id}/contract`);
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as Deal;
  }

  it('"Create contract" drafts it from the deal (customer, rep, flight, lines) and moves the deal to Proposal', async () => {
    const rep = await ctx.as('sales');
    const deal = await dealWithContract();
    expect(deal).toMatchObject({ stageName: 'Proposal', contractStatus: 'draft', contractTitle: 'Spring banners' });
    const [contract] = await ctx.db.select().from(contracts).where(eq(contracts.id, deal.contractId!));
    expect(contract).toMatchObject({
      customerId,
      salesRepId: rep.id,
      status: 'draft',
      startDate: '2099-02-01',
      termMonths: 3,
    });
    const lines = await ctx.db.select().from(contractLineItems).where(eq(contractLineItems.contractId, contract.id));
    expect(lines.map((line) => [line.productId, line.quantity, line.unitPriceCents])).toEqual([[productId, 2, 50_000]]);
    const again = await post('sales', `/api/deals/${deal.id}/contract`);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('This deal already has a contract');
  });

  it('sent: IO sent; its insertion order accepted: Won, once, audited with deal.won', async () => {
    const deal = await dealWithContract();
    const sent = await post('sales', `/api/contracts/${deal.contractId}/send`);
    expect(sent.statusCode, sent.body).toBe(200);
    const afterSend = (await ctx.injectAs('sales', { method: 'GET', url: `/api/deals/${deal.id}` })).json() as Deal;
    expect(afterSend).toMatchObject({ stageName: 'IO sent', contractStatus: 'sent' });

    const [io] = await ctx.db.select().from(insertionOrders).where(eq(insertionOrders.contractId, deal.contractId!));
    const accepted = await ctx.app.inject({
      method: 'POST',
      url: `/api/io/${io.token}/accept`,
      payload: { signerName: 'Ann Buyer', agree: true },
      remoteAddress: nextAddress(),
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const afterSign = (await ctx.injectAs('sales', { method: 'GET', url: `/api/deals/${deal.id}` })).json() as Deal;
    expect(afterSign).toMatchObject({ stageName: 'Won', stageKind: 'won', probability: 100 });
    expect(await auditActions(deal.id)).toEqual(['deal.created', 'deal.contract_created', 'deal.moved', 'deal.won']);

    const back = await post('sales', `/api/deals/${deal.id}/move`, { stageId: stage('Lead') });
    expect(back.statusCode).toBe(409);
    expect(back.json().message).toBe('A won deal stays won; its contract decides what happens next');
  });

  it('canceled: Lost with "Contract canceled"', async () => {
    const deal = await dealWithContract();
    expect((await post('sales', `/api/contracts/${deal.contractId}/send`)).statusCode).toBe(200);
    const canceled = await post('sales', `/api/contracts/${deal.contractId}/cancel`, { reason: 'Budget cut' });
    expect(canceled.statusCode, canceled.body).toBe(200);
    const after = (await ctx.injectAs('sales', { method: 'GET', url: `/api/deals/${deal.id}` })).json() as Deal;
    expect(after).toMatchObject({ stageName: 'Lost', lostReason: 'Contract canceled' });
  });
});

describe('renewals are deals', () => {
  it('opens one renewal deal at the first notice, links Renew’s draft, and closes an unrenewed one Lost', async () => {
    const rep = await ctx.as('sales');
    const today = '2027-03-01';
    // Both end on Apr 1, 2027 (31 days after today): inside the 60- and 30-day notices. $500.00 a month x 10.
    const renewed = await createBillableContract(ctx.db, {
      startDate: '2026-06-01',
      termMonths: 10,
      salesRepId: rep.id,
      customerId,
      title: 'Marina banners',
      lines: [{ productId, unitPriceCents: 500_00 }],
    });
    const ended = await createBillableContract(ctx.db, {
      startDate: '2026-06-01',
      termMonths: 10,
      salesRepId: rep.id,
      customerId,
      title: 'Dock radio',
      lines: [{ productId, unitPriceCents: 200_00 }],
    });
    await sendRenewalNotices(ctx.db, { baseUrl: 'https://crm.example.test', today });
    await runRenewalDeals(ctx.db, { today });
    await runRenewalDeals(ctx.db, { today });
    const renewalDeals = await ctx.db.select().from(deals).where(eq(deals.source, 'renewal'));
    const of = (contractId: string) => renewalDeals.filter((deal) => deal.renewalOfContractId === contractId);
    expect(of(renewed.contract.id).map((d) => [d.title, d.amountCents, d.expectedCloseDate, d.ownerId])).toEqual([
      ['Renewal: Marina banners', 5_000_00, '2027-04-01', rep.id],
    ]);
    expect(of(ended.contract.id)).toHaveLength(1);

    const renew = await post('sales', `/api/contracts/${renewed.contract.id}/renew`);
    expect(renew.statusCode, renew.body).toBe(201);
    const linked = (
      await ctx.injectAs('sales', { method: 'GET', url: `/api/deals/${of(renewed.contract.id)[0].id}` })
    ).json();
    expect(linked).toMatchObject({ contractId: renew.json().id, stageName: 'Proposal', source: 'renewal' });

    await runRenewalDeals(ctx.db, { today: '2027-04-02' });
    const closed = (
      await ctx.injectAs('sales', { method: 'GET', url: `/api/deals/${of(ended.contract.id)[0].id}` })
    ).json();
    expect(closed).toMatchObject({ stageName: 'Lost', lostReason: 'Not renewed' });
    const stillOpen = (await ctx.injectAs('sales', { method: 'GET', url: `/api/deals/${linked.id}` })).json();
    expect(stillOpen.stageName).toBe('Proposal');
  });
});

describe('Create contract without lines', () => {
  it('is refused with a message (400) and drafts nothing', async () => {
    const deal = await newDeal('sales', { title: 'No lines yet' });
    const before = (await ctx.db.select({ n: count() }).from(contracts))[0].n;
    const response = await post('sales', `/api/deals/${deal.id}/contract`);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('Add the products the deal sells before creating its contract');
    expect((await ctx.db.select({ n: count() }).from(contracts))[0].n).toBe(before);
  });
});
