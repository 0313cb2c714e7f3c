import type { Report, ReportRange } from '@shared/contracts/reports';
import { and, count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditEvents,
  contractLineItems,
  contracts,
  creditNotes,
  customerCreditEntries,
  dunningSteps,
  invoiceLines,
  invoices,
  lineDeliveries,
  payments,
  payouts,
  products,
  reportMonthTotals,
} from '../../db/schema';
import { buildTestApp, type TestContext } from '../../test/app';
import { createTestCustomer, createTestProduct } from '../../test/catalog-factories';
import { createTestUser, type TestUser } from '../../test/factories';
import { compactReportTotals } from './reports.repo';

/**
 * Every figure of GET /api/reports is checked against the rows it is computed from: the test reads the
 * tables back and recomputes each figure in plain TypeScript (no SQL aggregate, no production code), for
 * every range and for each kind of caller. A small scenario is also checked against literal numbers.
 */

const RANGES: ReportRange[] = ['current_month', 'last_month', 'last_3_months', 'last_6_months', 'current_year'];

let ctx: TestContext;
let repA: TestUser & { token: string };
let repB: TestUser & { token: string };
/** Rep C's contracts are only sent (never billed by the product), so every invoice of theirs is the test's own. */
let repC: TestUser & { token: string };
let productIds: string[];
const now = new Date();
const Y = now.getUTCFullYear();
const M = now.getUTCMonth();
/** An instant in the month `offset` months from this one (0 = this month), at day 1 + `hours` hours. */
const at = (offset: number, hours = 1) => new Date(Date.UTC(Y, M + offset, 1) + hours * 3_600_000);
const day = (d: Date) => d.toISOString().slice(0, 10);
const today = day(now);
const addDays = (days: number) => day(new Date(Date.UTC(Y, M, now.getUTCDate() + days)));

let periodCounter = 0;

async function createContract(
  who: TestUser & { token: string },
  customerId: string,
  lines: { productId: string; unitPrice: number; quantity?: number }[],
  extra: Record<string, unknown> = {},
) {
  const response = await ctx.injectAs(who, {
    method: 'POST',
    url: '/api/contracts',
    payload: {
      customerId,
      startDate: today,
      termMonths: 12,
      description: 'Report campaign',
      setupFee: 0,
      paymentMode: 'portal',
      packageId: null,
      sendToCustomer: false,
      makeActive: false,
      lineItems: lines.map((l) => ({
        productId: l.productId,
        quantity: l.quantity ?? 1,
        unitPrice: l.unitPrice,
        discount: 0,
      })),
      ...extra,
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: string; customerId: string };
}

/** An issued invoice with its lines (product lines and, optionally, a setup fee line without product). */
async function insertInvoice(
  contract: { id: string; customerId: string },
  options: {
    issuedAt: Date;
    dueDate?: string;
    status?: 'pending' | 'paid' | 'failed' | 'void';
    lines: { productId: string | null; cents: number }[];
    paidCents?: number;
  },
) {
  const subtotal = options.lines.reduce((sum, l) => sum + l.cents, 0);
  const tax = Math.floor(subtotal / 10);
  periodCounter++;
  const periodStart = day(new Date(Date.UTC(2000, 0, periodCounter)));
  const [invoice] = await ctx.db
    .insert(invoices)
    .values({
      number: `INV-T-${periodCounter}-${Math.random().toString(36).slice(2, 8)}`,
      contractId: contract.id,
      customerId: contract.customerId,
      periodIndex: periodCounter,
      periodStart,
      periodEnd: periodStart,
      dueDate: options.dueDate ?? day(options.issuedAt),
      status: options.status ?? 'pending',
      subtotalCents: subtotal,
      taxCents: tax,
      taxLabel: 'Tax',
      taxRateBp: 1000,
      taxIncluded: false,
      totalCents: subtotal + tax,
      amountPaidCents: options.paidCents ?? 0,
      issuedAt: options.issuedAt,
    })
    .returning();
  await ctx.db.insert(invoiceLines).values(
    options.lines.map((l, position) => ({
      invoiceId: invoice.id,
      position,
      kind: l.productId ? 'product' : 'setup_fee',
      description: 'Line',
      productId: l.productId,
      unitPriceCents: l.cents,
      amountCents: l.cents,
    })),
  );
  return invoice;
}

async function insertPayment(
  invoice: { id: string; contractId: string; customerId: string },
  options: { cents: number; paidAt: Date; kind?: 'payment' | 'refund'; status?: 'succeeded' | 'failed' },
) {
  await ctx.db.insert(payments).values({
    invoiceId: invoice.id,
    contractId: invoice.contractId,
    customerId: invoice.customerId,
    kind: options.kind ?? 'payment',
    status: options.status ?? 'succeeded',
    amountCents: options.cents,
    method: 'card',
    provider: 'test',
    paidAt: options.paidAt,
  });
}

async function getReport(who: Parameters<TestContext['injectAs']>[0], range: ReportRange): Promise<Report> {
  const response = await ctx.injectAs(who, { method: 'GET', url: `/api/reports?range=${range}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

// ---------------------------------------------------------------------------------------------------------
// The oracle: the tables read back, each figure recomputed in TypeScript.

async function snapshot() {
  const [c, i, l, p, po, pr, a, d, e] = await Promise.all([
    ctx.db.select().from(contracts),
    ctx.db.select().from(invoices),
    ctx.db.select().from(invoiceLines),
    ctx.db.select().from(payments),
    ctx.db.select().from(payouts),
    ctx.db.select().from(products),
    ctx.db.select().from(auditEvents),
    ctx.db.select().from(dunningSteps),
    ctx.db.select().from(customerCreditEntries),
  ]);
  return {
    contracts: c,
    invoices: i,
    lines: l,
    payments: p,
    payouts: po,
    products: pr,
    audit: a,
    dunning: d,
    credit: e,
  };
}
type Snapshot = Awaited<ReturnType<typeof snapshot>>;

/** The calendar months (YYYY-MM, UTC) of a range, listed by hand from the definition in the decision record. */
function monthsOf(range: ReportRange): string[] {
  const spans: Record<ReportRange, [number, number]> = {
    current_month: [0, 0],
    last_month: [-1, -1],
    last_3_months: [-2, 0],
    last_6_months: [-5, 0],
    current_year: [-M, 0],
  };
  const [first, last] = spans[range];
  const months: string[] = [];
  for (let k = first; k <= last; k++) months.push(new Date(Date.UTC(Y, M + k, 1)).toISOString().slice(0, 7));
  return months;
}

const dollars = (cents: number) => cents / 100;

function expectedReport(s: Snapshot, range: ReportRange, repId?: string) {
  const months = monthsOf(range);
  const inRange = (d: Date) => months.includes(d.toISOString().slice(0, 7));
  const mine = s.contracts.filter((c) => !repId || c.salesRepId === repId);
  const mineIds = new Set(mine.map((c) => c.id));
  const invoiceById = new Map(s.invoices.map((i) => [i.id, i]));

  // Cash (decision 048): succeeded payments less refunds, never a credit-balance payment; company-wide also
  // the credit balances paid back to customers.
  const byMonth = new Map(months.map((m) => [m, 0]));
  const addCash = (at: Date, cents: number) => {
    const key = at.toISOString().slice(0, 7);
    byMonth.set(key, (byMonth.get(key) ?? 0) + cents);
  };
  for (const p of s.payments) {
    if (!mineIds.has(p.contractId) || p.status !== 'succeeded' || p.method === 'credit' || !inRange(p.paidAt)) continue;
    addCash(p.paidAt, p.kind === 'refund' ? -p.amountCents : p.amountCents);
  }
  for (const e of s.credit) {
    if (!repId && e.kind === 'refunded' && inRange(e.createdAt)) addCash(e.createdAt, e.amountCents);
  }
  const revenueCents = [...byMonth.values()].reduce((a, b) => a + b, 0);

  const statusCounts = { draft: 0, sent: 0, active: 0, paused: 0, canceled: 0, completed: 0 };
  for (const c of mine) statusCounts[c.status as keyof typeof statusCounts]++;
  const active = mine.filter((c) => c.status === 'active');
  const created = mine.filter((c) => inRange(c.createdAt));
  const createdTotal = created.reduce((a, c) => a + c.totalCents, 0);

  const productCents = new Map<string, number>();
  for (const line of s.lines) {
    const invoice = invoiceById.get(line.invoiceId)!;
    if (!mineIds.has(invoice.contractId) || invoice.status === 'void' || !inRange(invoice.issuedAt)) continue;
    if (!line.productId) continue;
    productCents.set(line.productId, (productCents.get(line.productId) ?? 0) + line.amountCents);
  }
  const nameOf = new Map(s.products.map((p) => [p.id, p.name]));
  const topProducts = [...productCents.entries()]
    .filter(([, cents]) => cents > 0)
    .map(([productId, cents]) => ({ productId, name: nameOf.get(productId)!, revenue: dollars(cents) }))
    .sort((a, b) => b.revenue - a.revenue || a.name.localeCompare(b.name) || a.productId.localeCompare(b.productId))
    .slice(0, 5);

  const myInvoices = s.invoices.filter((i) => mineIds.has(i.contractId));
  const billedInvoices = myInvoices.filter((i) => i.status !== 'void' && inRange(i.issuedAt));
  const billedCents = billedInvoices.reduce((a, i) => a + i.totalCents, 0);
  const open = myInvoices.filter((i) => i.status === 'pending' || i.status === 'failed');
  // Collection (decision 049): non-void invoices due from the range's first day through today (or its last).
  const through = today < `${months.at(-1)}-31` ? today : `${months.at(-1)}-31`;
  const fellDue = myInvoices.filter(
    (i) =>
      i.status !== 'void' && i.dueDate >= `${months[0]}-01` && i.dueDate <= through && i.totalCents > i.creditedCents,
  );
  const dueCents = fellDue.reduce((a, i) => a + i.totalCents - i.creditedCents, 0);
  const collectedCents = fellDue.reduce(
    (a, i) => a + Math.min(Math.max(i.amountPaidCents - i.refundedCents, 0), i.totalCents - i.creditedCents),
    0,
  );

  const contractIdsAsText = new Set([...mineIds]);
  const activity = s.audit
    .filter((e) => !repId || e.actorId === repId || (e.entity === 'contract' && contractIdsAsText.has(e.entityId)))
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id)
    .slice(0, 8)
    .map((e) => e.id);

  // Dunning stages (product.md section 14): the contract's pause for non-payment first, else the latest reminder.
  const overdueInvoices = myInvoices.filter(
    (i) => (i.status === 'pending' || i.status === 'failed') && i.dueDate < today,
  );
  const contractById = new Map(s.contracts.map((c) => [c.id, c]));
  const stageOf = (invoiceId: string, contractId: string) => {
    const contract = contractById.get(contractId)!;
    if (contract.status === 'paused' && contract.pauseReason === 'non_payment') return 'contract_paused';
    const steps = new Set(s.dunning.filter((d) => d.invoiceId === invoiceId).map((d) => d.step));
    if (steps.has('second_reminder')) return 'second_reminder';
    if (steps.has('first_reminder')) return 'first_reminder';
    return 'overdue';
  };
  const stages = overdueInvoices.map((i) => stageOf(i.id, i.contractId));
  const stageCount = (stage: string) => stages.filter((x) => x === stage).length;

  return {
    revenue: {
      total: dollars(revenueCents),
      byMonth: months.map((m) => ({ month: m, amount: dollars(byMonth.get(m)!) })),
    },
    mrr: dollars(active.reduce((a, c) => a + c.monthlyAmountCents, 0)),
    statusCounts,
    topProducts,
    alerts: {
      overdueInvoices: overdueInvoices.length,
      overdueByStage: {
        overdue: stageCount('overdue'),
        first_reminder: stageCount('first_reminder'),
        second_reminder: stageCount('second_reminder'),
        contract_paused: stageCount('contract_paused'),
      },
      contractsPausedForNonPayment: mine.filter((c) => c.status === 'paused' && c.pauseReason === 'non_payment').length,
      expiringContracts: mine.filter(
        (c) =>
          (c.status === 'active' || c.status === 'paused') &&
          c.autoStopDate !== null &&
          c.autoStopDate >= today &&
          c.autoStopDate <= addDays(30),
      ).length,
      payoutsAwaitingReview: s.payouts.filter((p) => p.status === 'pending' && (!repId || p.repId === repId)).length,
    },
    quickStats: {
      newContracts: created.length,
      averageContractValue: created.length ? dollars(Math.round(createdTotal / created.length)) : 0,
      invoicesIssued: billedInvoices.length,
      billed: dollars(billedCents),
      collectionRate: dueCents > 0 ? Math.round((collectedCents * 1000) / dueCents) / 10 : null,
      dueInvoices: fellDue.length,
      dueTotal: dollars(dueCents),
      dueCollected: dollars(collectedCents),
      openBalance: dollars(
        open.reduce((a, i) => a + Math.max(0, i.totalCents - i.amountPaidCents - i.creditedCents), 0),
      ),
      activeCustomers: new Set(active.map((c) => c.customerId)).size,
    },
    activity,
  };
}

function expectMatches(report: Report, expected: ReturnType<typeof expectedReport>) {
  expect(report.revenue).toEqual(expected.revenue);
  expect(report.mrr).toBe(expected.mrr);
  expect(report.statusCounts).toEqual(expected.statusCounts);
  expect(report.topProducts).toEqual(expected.topProducts);
  expect(report.alerts).toEqual(expected.alerts);
  expect(report.quickStats).toEqual(expected.quickStats);
  expect(report.recentActivity.map((e) => e.id)).toEqual(expected.activity);
}

// ---------------------------------------------------------------------------------------------------------

beforeAll(async () => {
  ctx = await buildTestApp();
  repA = await ctx.as('sales');
  repB = await ctx.signIn(await createTestUser(ctx.db, { role: 'sales', firstName: 'Rita', lastName: 'Rep' }));
  repC = await ctx.signIn(await createTestUser(ctx.db, { role: 'sales', firstName: 'Carl', lastName: 'Rep' }));
  const made = await Promise.all([
    createTestProduct(ctx.db, { name: 'Alpha Banner' }),
    createTestProduct(ctx.db, { name: 'Bravo Pre-roll' }),
    createTestProduct(ctx.db, { name: 'Charlie Overlay' }),
  ]);
  productIds = made.map((p) => p.id);
  const [alpha, bravo, charlie] = productIds;
  const acme = await createTestCustomer(ctx.db, { name: 'Acme Outdoor' });
  const zenith = await createTestCustomer(ctx.db, { name: 'Zenith Foods' });

  // Rep A: an active contract, a draft, one that expires in 10 days (started 12 months ago), one paused.
  await createContract(repA, acme.id, [{ productId: alpha, unitPrice: 1000 }], { makeActive: true });
  await createContract(repA, acme.id, [{ productId: bravo, unitPrice: 250 }]);
  const expiringStart = day(new Date(Date.UTC(Y - 1, M, now.getUTCDate() + 10)));
  await createContract(repA, zenith.id, [{ productId: charlie, unitPrice: 400, quantity: 2 }], {
    makeActive: true,
    startDate: expiringStart,
  });
  const a4 = await createContract(repA, zenith.id, [{ productId: bravo, unitPrice: 300 }], { makeActive: true });
  expect((await ctx.injectAs(repA, { method: 'POST', url: `/api/contracts/${a4.id}/pause` })).statusCode).toBe(200);
  // Rep B: one active contract and one canceled.
  const b1 = await createContract(repB, zenith.id, [{ productId: bravo, unitPrice: 2000 }], { makeActive: true });
  const b2 = await createContract(repB, acme.id, [{ productId: alpha, unitPrice: 50 }], { makeActive: true });
  const canceled = await ctx.injectAs(repB, {
    method: 'POST',
    url: `/api/contracts/${b2.id}/cancel`,
    payload: { reason: 'Budget cut' },
  });
  expect(canceled.statusCode, canceled.body).toBe(200);

  // Rep C: two sent contracts.
  const c1 = await createContract(repC, acme.id, [{ productId: alpha, unitPrice: 1000 }], { sendToCustomer: true });
  const c3 = await createContract(repC, zenith.id, [{ productId: charlie, unitPrice: 400, quantity: 2 }], {
    sendToCustomer: true,
  });

  // Invoices and payments over the months: this month, last month, 2, 4 and 13 months ago.
  const inv1 = await insertInvoice(c1, {
    issuedAt: at(0),
    status: 'paid',
    paidCents: 110_000,
    lines: [{ productId: alpha, cents: 100_000 }],
  });
  await insertPayment(inv1, { cents: 110_000, paidAt: at(0, 5) });
  const inv2 = await insertInvoice(c1, {
    issuedAt: at(-1),
    dueDate: day(at(-1, 24 * 10)),
    lines: [
      { productId: alpha, cents: 100_000 },
      { productId: null, cents: 5_000 },
    ],
  });
  await insertPayment(inv2, { cents: 40_000, paidAt: at(-1, 30), status: 'failed' });
  const inv3 = await insertInvoice(c3, {
    issuedAt: at(-2),
    status: 'paid',
    paidCents: 88_000,
    lines: [{ productId: charlie, cents: 80_000 }],
  });
  await insertPayment(inv3, { cents: 88_000, paidAt: at(-1, 2) });
  await insertPayment(inv3, { cents: 8_000, paidAt: at(0, 2), kind: 'refund' });
  const inv4 = await insertInvoice(b1, {
    issuedAt: at(-1, 3),
    status: 'paid',
    paidCents: 220_000,
    lines: [{ productId: bravo, cents: 200_000 }],
  });
  await insertPayment(inv4, { cents: 220_000, paidAt: at(-1, 4) });
  await insertInvoice(b1, { issuedAt: at(-4), status: 'void', lines: [{ productId: charlie, cents: 999_900 }] });
  const inv6 = await insertInvoice(b1, {
    issuedAt: at(-13),
    status: 'paid',
    lines: [{ productId: alpha, cents: 70_000 }],
  });
  await insertPayment(inv6, { cents: 77_000, paidAt: at(-13, 1) });
  await insertInvoice(b1, {
    issuedAt: at(0, 2),
    status: 'failed',
    dueDate: addDays(5),
    lines: [{ productId: bravo, cents: 200_000 }],
  });

  await ctx.db.insert(payouts).values([
    { repId: repA.id, requestedCents: 10_000 },
    { repId: repA.id, requestedCents: 5_000, status: 'approved', approvedCents: 5_000 },
    { repId: repB.id, requestedCents: 7_500 },
  ]);
});
afterAll(() => ctx.close());

describe('GET /api/reports', () => {
  it('matches an independent computation from the rows, for every range, company-wide and per rep', async () => {
    const s = await snapshot();
    for (const range of RANGES) {
      for (const who of ['admin', 'sales_manager', 'finance'] as const) {
        const report = await getReport(who, range);
        expect(report.scope).toBe('all');
        expectMatches(report, expectedReport(s, range));
      }
      for (const rep of [repA, repB, repC]) {
        const report = await getReport(rep, range);
        expect(report.scope).toBe('own');
        expectMatches(report, expectedReport(s, range, rep.id));
      }
    }
  });

  it('shows the scenario figures a reader would expect (literal numbers)', async () => {
    const [alpha, bravo, charlie] = productIds;
    const a = await getReport(repA, 'last_3_months');
    expect(a.mrr).toBe(1000 + 800);
    expect(a.statusCounts).toEqual({ draft: 1, sent: 0, active: 2, paused: 1, canceled: 0, completed: 0 });
    expect(a.alerts.expiringContracts).toBe(1);
    expect(a.alerts.payoutsAwaitingReview).toBe(1);
    expect(a.quickStats).toMatchObject({ newContracts: 4, activeCustomers: 2 });

    const c = await getReport(repC, 'last_3_months');
    // 1,100.00 received this month less an 80.00 refund, 880.00 last month; the failed attempt does not count.
    expect(c.revenue.total).toBe(1100 + 880 - 80);
    expect(c.revenue.byMonth.map((m) => m.amount)).toEqual([0, 880, 1020]);
    expect(c.mrr).toBe(0);
    expect(c.statusCounts).toMatchObject({ sent: 2, active: 0 });
    // Product lines only: the setup fee line has no product.
    expect(c.topProducts).toEqual([
      { productId: alpha, name: 'Alpha Banner', revenue: 2000 },
      { productId: charlie, name: 'Charlie Overlay', revenue: 800 },
    ]);
    expect(c.alerts).toMatchObject({ overdueInvoices: 1, expiringContracts: 0, payoutsAwaitingReview: 0 });
    expect(c.quickStats).toEqual({
      newContracts: 2,
      averageContractValue: (1000 + 800) / 2,
      invoicesIssued: 3,
      billed: 1100 + 1155 + 880,
      // Fallen due by today: all three (due the 1st of this month, the 11th of last month, the 1st of the month
      // before); 1,100.00 + 880.00 of 3,135.00 collected (the refund row was not written through the invoice).
      collectionRate: 63.2,
      dueInvoices: 3,
      dueTotal: 3135,
      dueCollected: 1980,
      openBalance: 1155,
      activeCustomers: 0,
    });

    const b = await getReport(repB, 'current_year');
    expect(b.topProducts[0].productId).toBe(bravo);
    expect(b.alerts).toMatchObject({ expiringContracts: 0, payoutsAwaitingReview: 1 });
    expect(b.statusCounts).toMatchObject({ active: 1, canceled: 1 });
    // The 13-month-old payment is in no range; the void invoice is in no billed figure.
    const b6 = await getReport(repB, 'last_6_months');
    expect(b6.revenue.total).toBe(2200);
  });

  it('lists every month of the range, zero months included, adding up to the total', async () => {
    for (const range of RANGES) {
      const report = await getReport('admin', range);
      expect(report.revenue.byMonth.map((m) => m.month)).toEqual(monthsOf(range));
      const cents = report.revenue.byMonth.reduce((sum, m) => sum + Math.round(m.amount * 100), 0);
      expect(cents).toBe(Math.round(report.revenue.total * 100));
      expect(report.from).toBe(`${monthsOf(range)[0]}-01`);
      expect(report.to.slice(0, 7)).toBe(monthsOf(range).at(-1));
    }
  });

  it('stays exact through voids, refunds, deletes, a change of rep and compaction of the monthly totals', async () => {
    const [alpha] = productIds;
    const [contract] = await ctx.db.select().from(contracts).where(eq(contracts.salesRepId, repB.id)).limit(1);
    const invoice = await insertInvoice(contract, {
      issuedAt: at(0, 6),
      lines: [
        { productId: alpha, cents: 12_345 },
        { productId: alpha, cents: 1 },
      ],
    });
    await insertPayment(invoice, { cents: 5_000, paidAt: at(0, 7) });
    await ctx.db.update(invoices).set({ status: 'void' }).where(eq(invoices.id, invoice.id));
    await ctx.db.update(invoices).set({ status: 'pending' }).where(eq(invoices.id, invoice.id));
    await ctx.db.update(invoiceLines).set({ amountCents: 20_000 }).where(eq(invoiceLines.invoiceId, invoice.id));
    await insertPayment(invoice, { cents: 1_000, paidAt: at(0, 8), kind: 'refund' });
    await ctx.db
      .update(payments)
      .set({ paidAt: at(-1, 9) })
      .where(eq(payments.invoiceId, invoice.id));
    // The collection's figures follow what is paid, credited and refunded on an invoice, and its due date.
    await ctx.db
      .update(invoices)
      .set({ amountPaidCents: 9_000, creditedCents: 500, refundedCents: 1_000, dueDate: day(at(-1, 48)) })
      .where(eq(invoices.id, invoice.id));
    const throwaway = await insertInvoice(contract, {
      issuedAt: at(0, 1),
      lines: [{ productId: alpha, cents: 3_000 }],
    });
    await ctx.db.delete(invoices).where(eq(invoices.id, throwaway.id));

    // A contract changes rep (a manager reassigning it; any writer may): its whole history moves with it,
    // also while a payment of it is being written at the same moment (on PostgreSQL really in parallel).
    const [moving] = await ctx.db.select().from(contracts).where(eq(contracts.salesRepId, repC.id)).limit(1);
    const [movingInvoice] = await ctx.db.select().from(invoices).where(eq(invoices.contractId, moving.id)).limit(1);
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    await Promise.all([
      ctx.db.transaction(async (tx) => {
        await tx.update(contracts).set({ salesRepId: repB.id }).where(eq(contracts.id, moving.id));
        await pause(150);
      }),
      pause(30).then(() => insertPayment(movingInvoice, { cents: 3_333, paidAt: at(0, 9) })),
    ]);

    // A draft deleted through the API leaves the book.
    const [draft] = await ctx.db
      .select()
      .from(contracts)
      .where(and(eq(contracts.salesRepId, repA.id), eq(contracts.status, 'draft')))
      .limit(1);
    expect((await ctx.injectAs(repA, { method: 'DELETE', url: `/api/contracts/${draft.id}` })).statusCode).toBe(200);

    // One statement that changes many contracts in different ways, as a bulk update does: two active
    // contracts with invoices swap reps, a third loses its rep, a fourth is paused with a new monthly amount,
    // and every other contract of reps A and B is written back unchanged.
    const withInvoices = await ctx.db.execute(sql`
      select c.id, c.sales_rep_id as rep, c.status from contracts c
      where c.sales_rep_id in (${repA.id}, ${repB.id})
        and exists (select 1 from invoices i where i.contract_id = c.id and i.status <> 'void')
      order by c.id`);
    const rows = (withInvoices as unknown as { rows: { id: string; rep: string; status: string }[] }).rows;
    const fromA = rows.find((row) => row.rep === repA.id);
    const fromB = rows.find((row) => row.rep === repB.id);
    const unassigned = rows.find((row) => row !== fromA && row !== fromB);
    const [paused] = await ctx.db
      .select()
      .from(contracts)
      .where(and(eq(contracts.salesRepId, repA.id), eq(contracts.status, 'active')))
      .limit(1);
    expect([fromA, fromB, unassigned, paused].every(Boolean), 'contracts of reps A and B to change').toBe(true);
    const bulk = await ctx.db.execute(sql`
      update contracts set
        sales_rep_id = case id when ${fromA!.id} then ${repB.id}::uuid when ${fromB!.id} then ${repA.id}::uuid
                               when ${unassigned!.id} then null else sales_rep_id end,
        status = case when id = ${paused.id} then 'paused' else status end,
        pause_reason = case when id = ${paused.id} then 'manual' else pause_reason end,
        monthly_amount_cents = case when id = ${paused.id} then monthly_amount_cents + 1234
                                    else monthly_amount_cents end
      where sales_rep_id in (${repA.id}, ${repB.id})`);
    expect((bulk as unknown as { rowCount: number }).rowCount).toBeGreaterThan(4);

    const check = async () => {
      const s = await snapshot();
      for (const range of RANGES) {
        expectMatches(await getReport('admin', range), expectedReport(s, range));
        for (const rep of [repA, repB, repC])
          expectMatches(await getReport(rep, range), expectedReport(s, range, rep.id));
      }
    };
    await check();
    const before = (await ctx.db.select({ n: count() }).from(reportMonthTotals))[0].n;
    await compactReportTotals(ctx.db);
    const groups = await ctx.db.execute(
      sql`select count(*)::int as n from report_month_totals group by metric, month, product_id, rep_id having count(*) > 1`,
    );
    expect((groups as unknown as { rows: unknown[] }).rows).toEqual([]);
    const bookGroups = await ctx.db.execute(
      sql`select count(*)::int as n from report_book_totals group by rep_id, status having count(*) > 1`,
    );
    expect((bookGroups as unknown as { rows: unknown[] }).rows).toEqual([]);
    const dueGroups = await ctx.db.execute(
      sql`select count(*)::int as n from report_due_totals group by due_date, rep_id having count(*) > 1`,
    );
    expect((dueGroups as unknown as { rows: unknown[] }).rows).toEqual([]);
    expect((await ctx.db.select({ n: count() }).from(reportMonthTotals))[0].n).toBeLessThan(before);
    await check();
  });

  it('names the record of each recent event and links to it', async () => {
    const report = await getReport('admin', 'current_month');
    // The deleted draft (previous test) is still named, without a link.
    const deleted = report.recentActivity.find((e) => e.action === 'contract.deleted');
    expect(deleted).toMatchObject({ link: null, label: expect.stringMatching(/^Report campaign/) });
    const contractEvent = report.recentActivity.find((e) => e.entity === 'contract' && e.action !== 'contract.deleted');
    expect(contractEvent).toBeDefined();
    expect(contractEvent!.link).toBe(`/contracts/${contractEvent!.entityId}`);
    expect(contractEvent!.label).toMatch(/Report campaign · (Acme Outdoor|Zenith Foods)/);
    expect(contractEvent!.actorName).toMatch(/^(Test User|Rita Rep|Carl Rep)/);
  });

  it("orders a rep's events of the same instant by their number, newest first, whichever the database reads first", async () => {
    // Eleven events of one instant per rep, written in ascending order for one rep and descending for the other,
    // so that one table order or the other is the reverse of the events' order (an index read backwards, a
    // sort keeping the first rows it meets): the eight shown are still numbers 11 down to 4 for both.
    const instant = new Date();
    for (const [k, written] of [
      [1, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]],
      [2, [11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]],
    ] as const) {
      const rep = await ctx.signIn(
        await createTestUser(ctx.db, { role: 'sales', firstName: 'Tia', lastName: `Tie ${k}` }),
      );
      const base = 9_000_000_000 + k * 100;
      for (const n of written) {
        await ctx.db.insert(auditEvents).values({
          id: base + n,
          actorId: rep.id,
          action: 'customer.updated',
          entity: 'customer',
          entityId: `tie-${k}-${n}`,
          createdAt: instant,
        });
      }
      const report = await getReport(rep, 'current_month');
      expect(report.recentActivity.map((e) => e.id)).toEqual([11, 10, 9, 8, 7, 6, 5, 4].map((n) => base + n));
    }
  });

  it('refuses an unknown range (400) and clients (403)', async () => {
    const bad = await ctx.injectAs('admin', { method: 'GET', url: '/api/reports?range=last_week' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/range/);
    expect((await ctx.injectAs('admin', { method: 'GET', url: '/api/reports/export?range=all' })).statusCode).toBe(400);
    expect((await ctx.injectAs('client', { method: 'GET', url: '/api/reports' })).statusCode).toBe(403);
    expect((await ctx.injectAs('client', { method: 'GET', url: '/api/reports/export' })).statusCode).toBe(403);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/reports' })).statusCode).toBe(401);
  });
});

/** A tiny RFC 4180 reader for the test: quoted cells with doubled quotes, CRLF rows. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += ch;
  }
  return rows;
}

describe('GET /api/reports/export', () => {
  it('downloads what the screen shows as CSV', async () => {
    for (const who of ['admin', 'sales'] as const) {
      const report = await getReport(who, 'last_6_months');
      const response = await ctx.injectAs(who, { method: 'GET', url: '/api/reports/export?range=last_6_months' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(response.headers['content-disposition']).toBe(
        `attachment; filename="report-last_6_months-${report.from}.csv"`,
      );
      const rows = parseCsv(response.body);
      expect(rows[0]).toEqual(['Section', 'Item', 'Value']);
      const value = (section: string, item: string) => rows.find((r) => r[0] === section && r[1] === item)?.[2];
      expect(value('Report', 'Range')).toBe('Last 6 Months');
      expect(value('Report', 'Scope')).toBe(who === 'admin' ? 'All contracts' : 'My contracts');
      expect(value('Revenue', 'Total')).toBe(report.revenue.total.toFixed(2));
      for (const m of report.revenue.byMonth) expect(value('Revenue by month', m.month)).toBe(m.amount.toFixed(2));
      expect(value('Monthly recurring revenue', 'MRR')).toBe(report.mrr.toFixed(2));
      expect(value('Contract status', 'Active')).toBe(String(report.statusCounts.active));
      for (const p of report.topProducts) expect(value('Top products', p.name)).toBe(p.revenue.toFixed(2));
      expect(value('Alerts', 'Overdue invoices')).toBe(String(report.alerts.overdueInvoices));
      expect(value('Alerts', 'Payouts awaiting review')).toBe(String(report.alerts.payoutsAwaitingReview));
      expect(value('Quick stats', 'Open balance')).toBe(report.quickStats.openBalance.toFixed(2));
      expect(rows.filter((r) => r[0] === 'Recent activity')).toHaveLength(report.recentActivity.length);
      expect(rows.every((r) => r.length === 3)).toBe(true);
    }
  });

  it('keeps a product name that looks like a formula from running in a spreadsheet', async () => {
    const product = await createTestProduct(ctx.db, { name: '=HYPERLINK("http://evil.example")' });
    const [contract] = await ctx.db.select().from(contracts).where(eq(contracts.salesRepId, repB.id)).limit(1);
    await insertInvoice(contract, { issuedAt: at(0, 3), lines: [{ productId: product.id, cents: 9_999_999 }] });
    const response = await ctx.injectAs('admin', { method: 'GET', url: '/api/reports/export?range=current_month' });
    expect(response.body).toContain(`"'=HYPERLINK(""http://evil.example"")",99999.99`);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Delivery (product.md section 12): recorded periods by period start, delivery credit notes by issue date,
// makegoods by settlement date. Two reps of their own (D and E), so the company-wide figures are theirs alone.

describe('GET /api/reports delivery', () => {
  let repD: TestUser & { token: string };
  let repE: TestUser & { token: string };
  /** The first day of the month `offset` months from this one, YYYY-MM-DD. */
  const monthStart = (offset: number) => day(new Date(Date.UTC(Y, M + offset, 1)));
  /** The last day of the month `offset` months from this one. */
  const monthEnd = (offset: number) => day(new Date(Date.UTC(Y, M + offset + 1, 0)));
  /** The last millisecond of the month `offset` months from this one. */
  const lastInstant = (offset: number) => new Date(Date.UTC(Y, M + offset + 1, 1) - 1);
  let noteCounter = 0;

  beforeAll(async () => {
    repD = await ctx.signIn(await createTestUser(ctx.db, { role: 'sales', firstName: 'Dana', lastName: 'Rep' }));
    repE = await ctx.signIn(await createTestUser(ctx.db, { role: 'sales', firstName: 'Eli', lastName: 'Rep' }));
    const cpm = await createTestProduct(ctx.db, { name: 'Delta Display CPM', priceMetric: 'cpm' });
    const cpm2 = await createTestProduct(ctx.db, { name: 'Echo Video CPM', priceMetric: 'cpm' });
    const customer = await createTestCustomer(ctx.db, { name: 'Delivery Outdoor' });
    const d1 = await createContract(repD, customer.id, [
      { productId: cpm.id, unitPrice: 10, quantity: 100 },
      { productId: cpm2.id, unitPrice: 20, quantity: 50 },
    ]);
    const e1 = await createContract(repE, customer.id, [{ productId: cpm.id, unitPrice: 10, quantity: 30 }]);
    const linesOf = async (contractId: string) =>
      (
        await ctx.db
          .select()
          .from(contractLineItems)
          .where(eq(contractLineItems.contractId, contractId))
          .orderBy(contractLineItems.position)
      ).map((l) => l.id);
    const [l1, l2] = await linesOf(d1.id);
    const [l3] = await linesOf(e1.id);
    const invD = await insertInvoice(d1, {
      issuedAt: at(-6),
      status: 'paid',
      lines: [{ productId: cpm.id, cents: 100 }],
    });
    const invE = await insertInvoice(e1, {
      issuedAt: at(-6),
      status: 'paid',
      lines: [{ productId: cpm.id, cents: 100 }],
    });

    const note = async (
      contract: { id: string; customerId: string },
      invoiceId: string,
      kind: 'delivery' | 'partial',
      cents: number,
      issuedAt: Date,
    ) => {
      noteCounter++;
      const [row] = await ctx.db
        .insert(creditNotes)
        .values({
          number: `CN-T-${noteCounter}-${Math.random().toString(36).slice(2, 8)}`,
          invoiceId,
          contractId: contract.id,
          customerId: contract.customerId,
          kind,
          reason: 'Under-delivery',
          amountCents: cents,
          taxCents: 0,
          appliedCents: 0,
          toBalanceCents: cents,
          issuedAt,
        })
        .returning();
      return row;
    };
    // Rep D's credit notes: two delivery notes this month (one at its very last instant), one last month,
    // one at the first instant of next month (in no range), and a partial credit (not a delivery credit).
    const cnA = await note(d1, invD.id, 'delivery', 1_234, at(0, 5));
    await note(d1, invD.id, 'delivery', 777, lastInstant(0));
    await note(d1, invD.id, 'delivery', 2_000, at(-1, 1));
    await note(d1, invD.id, 'delivery', 888, at(1, 0));
    await note(d1, invD.id, 'partial', 9_999, at(0, 5));
    // Rep E's: one delivery note this month.
    const cnF = await note(e1, invE.id, 'delivery', 5_000, at(0, 6));

    const row = (
      contract: { id: string },
      lineId: string,
      invoiceId: string,
      periodStart: string,
      booked: number,
      delivered: number,
      settled?: { remedy: 'credit' | 'makegood' | 'none'; at: Date; creditNoteId?: string },
    ) => ({
      contractId: contract.id,
      lineId,
      invoiceId,
      periodStart,
      periodEnd: periodStart,
      bookedImpressions: booked,
      deliveredImpressions: delivered,
      shortfallImpressions: settled ? Math.max(0, booked - delivered) : 0,
      remedy: settled?.remedy ?? null,
      settledAt: settled?.at ?? null,
      creditNoteId: settled?.creditNoteId ?? null,
      // Recorded by staff: final (decision 041).
      finalAt: settled?.at ?? at(-6),
    });
    await ctx.db.insert(lineDeliveries).values([
      // Rep D.
      // r1 this month, over-delivered: counts 100,000 in the rate, 120,000 delivered.
      row(d1, l1, invD.id, monthStart(0), 100_000, 120_000),
      // r2 this month, under-delivered and credited.
      row(d1, l2, invD.id, monthStart(0), 50_000, 40_000, { remedy: 'credit', at: at(0, 5), creditNoteId: cnA.id }),
      // r3 last month, made good this month (50,000 impressions).
      row(d1, l1, invD.id, monthStart(-1), 200_000, 150_000, { remedy: 'makegood', at: at(0, 3) }),
      // r4 two months ago, delivered in full.
      row(d1, l1, invD.id, monthStart(-2), 80_000, 80_000),
      // r5 the last day of 3 months ago (outside last_3_months, inside last_6_months), made good at the last
      // instant of that month (999,999 impressions).
      row(d1, l1, invD.id, monthEnd(-3), 1_000_000, 1, { remedy: 'makegood', at: lastInstant(-3) }),
      // r6 next month: in no range.
      row(d1, l1, invD.id, monthStart(1), 7, 7),
      // Last month, reported so far by the ad server (not final): in no figure until it is.
      { ...row(d1, l2, invD.id, monthStart(-1), 60_000, 10_000), finalAt: null },
      // Rep E.
      // r7 this month, nothing delivered, credited.
      row(e1, l3, invE.id, monthStart(0), 30_000, 0, { remedy: 'credit', at: at(0, 6), creditNoteId: cnF.id }),
      // r8 last month, nothing booked (all of it delivered over).
      row(e1, l3, invE.id, monthStart(-1), 0, 500),
      // r9 two months ago, made good last month (6,000 impressions).
      row(e1, l3, invE.id, monthStart(-2), 10_000, 4_000, { remedy: 'makegood', at: at(-1, 10) }),
    ]);
  });

  type Delivery = Report['delivery'];
  const figures = (
    periodsRecorded: number,
    bookedImpressions: number,
    deliveredImpressions: number,
    deliveryRate: number | null,
    creditsIssued: number,
    creditsAmount: number,
    makegoodImpressions: number,
  ): Delivery => ({
    periodsRecorded,
    bookedImpressions,
    deliveredImpressions,
    deliveryRate,
    creditsIssued,
    creditsAmount,
    makegoodImpressions,
  });
  const NOTHING = figures(0, 0, 0, null, 0, 0, 0);

  it('shows the delivery figures of each range and scope (literal numbers)', async () => {
    // Computed by hand from the rows above. Rate: sum(min(delivered, booked)) * 100 / sum(booked), one decimal.
    const expected: [string, ReportRange, Delivery][] = [
      // D this month: r1 (100,000 of 100,000 counted), r2 (40,000 of 50,000): 140,000 / 150,000 = 93.33%.
      // Credits 12.34 + 7.77; makegood r3 (settled this month).
      ['D', 'current_month', figures(2, 150_000, 160_000, 93.3, 2, 20.11, 50_000)],
      ['D', 'last_month', figures(1, 200_000, 150_000, 75, 1, 20, 0)],
      // r1-r4: 370,000 / 430,000 = 86.05%; r5's makegood settled the month before the range.
      ['D', 'last_3_months', figures(4, 430_000, 390_000, 86, 3, 40.11, 50_000)],
      // + r5: 370,001 / 1,430,000 = 25.87%.
      ['D', 'last_6_months', figures(5, 1_430_000, 390_001, 25.9, 3, 40.11, 1_049_999)],
      ['E', 'current_month', figures(1, 30_000, 0, 0, 1, 50, 0)],
      // Nothing booked (r8): no rate, though 500 were delivered.
      ['E', 'last_month', figures(1, 0, 500, null, 0, 0, 6_000)],
      // r7-r9: 4,000 / 40,000 = 10%.
      ['E', 'last_3_months', figures(3, 40_000, 4_500, 10, 1, 50, 6_000)],
      ['E', 'last_6_months', figures(3, 40_000, 4_500, 10, 1, 50, 6_000)],
      // Company-wide: D and E together. 140,000 / 180,000 = 77.78%.
      ['admin', 'current_month', figures(3, 180_000, 160_000, 77.8, 3, 70.11, 50_000)],
      ['admin', 'last_month', figures(2, 200_000, 150_500, 75, 1, 20, 6_000)],
      // 374,000 / 470,000 = 79.57%.
      ['admin', 'last_3_months', figures(7, 470_000, 394_500, 79.6, 4, 90.11, 56_000)],
      // 374,001 / 1,470,000 = 25.44%.
      ['admin', 'last_6_months', figures(8, 1_470_000, 394_501, 25.4, 4, 90.11, 1_055_999)],
      // A rep without delivery: zeros and no rate.
      ['C', 'current_month', NOTHING],
      ['C', 'last_6_months', NOTHING],
    ];
    const callers = { D: repD, E: repE, C: repC, admin: 'admin' as const };
    const actual = await Promise.all(
      expected.map(async ([who, range]) => {
        const report = await getReport(callers[who as keyof typeof callers], range);
        return [who, range, report.delivery] as [string, ReportRange, Delivery];
      }),
    );
    expect(actual).toEqual(expected);
  });

  it('exports the delivery figures as CSV rows', async () => {
    const response = await ctx.injectAs('admin', { method: 'GET', url: '/api/reports/export?range=current_month' });
    expect(response.statusCode).toBe(200);
    const delivery = parseCsv(response.body).filter((r) => r[0] === 'Delivery');
    expect(delivery).toEqual([
      ['Delivery', 'Delivery rate (%)', '77.8'],
      ['Delivery', 'Impressions booked', '180000'],
      ['Delivery', 'Impressions delivered', '160000'],
      ['Delivery', 'Periods recorded', '3'],
      ['Delivery', 'Under-delivery credits', '3'],
      ['Delivery', 'Under-delivery credits amount', '70.11'],
      ['Delivery', 'Makegood impressions', '50000'],
    ]);
    const none = await ctx.injectAs(repC, { method: 'GET', url: '/api/reports/export?range=current_month' });
    expect(parseCsv(none.body).find((r) => r[0] === 'Delivery' && r[1] === 'Delivery rate (%)')).toEqual([
      'Delivery',
      'Delivery rate (%)',
      '',
    ]);
  });
});
