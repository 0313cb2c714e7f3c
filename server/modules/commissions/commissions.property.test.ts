import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestContext } from '../../test/app';
import {
  createContractFor,
  createInvoice,
  createRep,
  payInvoice,
  type Rep,
  voidInvoice,
} from '../../test/commission-factories';

/**
 * The ledger's invariant under random sequences of payments, voids, payout requests, approvals,
 * rejections, disbursements and rate changes, all sent through the API: after every step, for every rep,
 * the summary equals an independent model of the rules, available + requested + disbursed = total, and the
 * history's rows, added up by status, give the same figures (so each row's status is truthful).
 */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(() => ctx.close());

const json = { 'content-type': 'application/json' };
/** How many of each successful change the runs made: the property must not pass vacuously. */
const done: Record<string, number> = {
  paid: 0,
  voidedPaid: 0,
  requested: 0,
  refused: 0,
  approved: 0,
  rejected: 0,
  disbursed: 0,
};
const RATES_BP = [0, 250, 500, 1000, 1250, 3330];

type Op =
  | { t: 'pay'; invoice: number }
  /** preferPaid: void one of the paid invoices when there is one (a refund), else any invoice. */
  | { t: 'void'; invoice: number; preferPaid: boolean }
  /** A share of what the model says is available (above 100: more than available). */
  | { t: 'request'; rep: number; percent: number }
  | { t: 'requestAll'; rep: number }
  /** Review ops pick, when `valid`, among the payouts whose status allows the action; else any payout. */
  | { t: 'approve'; payout: number; valid: boolean; percent: number }
  | { t: 'reject'; payout: number; valid: boolean }
  | { t: 'disburse'; payout: number; valid: boolean }
  | { t: 'rate'; rep: number; bp: number };

/** Three times in four a review picks a payout it can act on, so that every transition is exercised. */
const mostly = fc.constantFrom(true, true, true, false);

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ t: fc.constant('pay' as const), invoice: fc.nat(7) }) },
  {
    weight: 1,
    arbitrary: fc.record({ t: fc.constant('void' as const), invoice: fc.nat(7), preferPaid: fc.boolean() }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      t: fc.constant('request' as const),
      rep: fc.nat(1),
      percent: fc.integer({ min: 1, max: 110 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('requestAll' as const), rep: fc.nat(1) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      t: fc.constant('approve' as const),
      payout: fc.nat(9),
      valid: mostly,
      percent: fc.integer({ min: 1, max: 130 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('reject' as const), payout: fc.nat(9), valid: mostly }) },
  { weight: 3, arbitrary: fc.record({ t: fc.constant('disburse' as const), payout: fc.nat(9), valid: mostly }) },
  {
    weight: 1,
    arbitrary: fc.record({ t: fc.constant('rate' as const), rep: fc.nat(1), bp: fc.constantFrom(...RATES_BP) }),
  },
);

const invoiceArb = fc.record({
  rep: fc.nat(1),
  subtotalCents: fc.integer({ min: 1, max: 900_00 }),
  setupShare: fc.constantFrom(0, 0, 0.25, 1),
  taxCents: fc.constantFrom(0, 0, 8_25, 19_99),
  /** Tax included in the prices at this rate (basis points), or added on top (null). */
  taxIncludedBp: fc.constantFrom(null, null, 825, 2000),
});

const scenarioArb = fc.record({
  // Reps start with a non-zero rate (a 'rate' op may set 0 later).
  ratesBp: fc.tuple(fc.constantFrom(...RATES_BP.slice(1)), fc.constantFrom(...RATES_BP.slice(1))),
  /** Invoices paid first, so that most sequences have commission to request. */
  warmup: fc.array(fc.nat(7), { minLength: 2, maxLength: 5 }),
  invoices: fc.array(invoiceArb, { minLength: 8, maxLength: 8 }),
  ops: fc.array(opArb, { minLength: 12, maxLength: 30, size: 'max' }),
});

// ---------------------------------------------------------------------------------------------------------
// The model: the rules, computed in the simplest way, independently of the production code
// ---------------------------------------------------------------------------------------------------------

type ModelInvoice = { id: string; rep: number; baseCents: number; status: 'pending' | 'paid' | 'void'; earned: number };
type ModelPayout = { id: string; rep: number; requested: number; approved: number | null; status: string };
type Model = { bp: number[]; earned: number[]; adjusted: number[]; invoices: ModelInvoice[]; payouts: ModelPayout[] };

/** cents x bp / 10000 rounded half up; only ever applied to amounts >= 0. */
const commissionOf = (cents: number, bp: number) => Math.floor((cents * bp + 5_000) / 10_000);

function held(model: Model, rep: number) {
  let requested = 0;
  let disbursed = 0;
  for (const p of model.payouts.filter((x) => x.rep === rep)) {
    if (p.status === 'pending') requested += p.requested;
    if (p.status === 'approved') requested += p.approved!;
    if (p.status === 'disbursed') disbursed += p.approved!;
  }
  const total = model.earned[rep] + model.adjusted[rep];
  return { requested, disbursed, total, available: total - requested - disbursed };
}

// ---------------------------------------------------------------------------------------------------------

describe('the commission ledger under random sequences (through the API)', () => {
  it('keeps available + requested + disbursed = earned + adjustments after every step, as the model says', async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb, async (scenario) => {
        const reps: Rep[] = [await createRep(ctx, scenario.ratesBp[0]), await createRep(ctx, scenario.ratesBp[1])];
        const contracts = [
          (await createContractFor(ctx.db, reps[0].id)).contract,
          (await createContractFor(ctx.db, reps[1].id)).contract,
        ];
        const model: Model = { bp: [...scenario.ratesBp], earned: [0, 0], adjusted: [0, 0], invoices: [], payouts: [] };
        for (const spec of scenario.invoices) {
          const setupFeeCents = Math.floor(spec.subtotalCents * spec.setupShare);
          const row = await createInvoice(ctx.db, contracts[spec.rep].id, {
            subtotalCents: spec.subtotalCents,
            setupFeeCents,
            taxCents: spec.taxCents,
            taxIncludedBp: spec.taxIncludedBp ?? undefined,
          });
          // Before tax: with tax included, take its part (rate / (1 + rate)) out of the amount.
          const gross = spec.subtotalCents - setupFeeCents;
          const bp = spec.taxIncludedBp;
          const baseCents =
            bp === null ? gross : gross - Math.floor((gross * bp * 2 + (10_000 + bp)) / (2 * (10_000 + bp)));
          model.invoices.push({
            id: row.id,
            rep: spec.rep,
            baseCents,
            status: 'pending',
            earned: 0,
          });
        }

        const warmup: Op[] = scenario.warmup.map((invoice) => ({ t: 'pay', invoice }));
        for (const op of [...warmup, ...scenario.ops]) {
          await step(op, reps, model);
          for (const rep of [0, 1]) await check(reps[rep], held(model, rep));
        }
      }),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 15), endOnFailure: true },
    );
    for (const [change, count] of Object.entries(done)) expect(count, change).toBeGreaterThan(0);
  }, 300_000);
});

async function step(op: Op, reps: Rep[], model: Model): Promise<void> {
  switch (op.t) {
    case 'pay': {
      const invoice = model.invoices[op.invoice];
      const response = await payInvoice(ctx, invoice.id);
      expect(response.statusCode, response.body).toBe(invoice.status === 'pending' ? 201 : 409);
      if (invoice.status === 'pending') {
        invoice.status = 'paid';
        done.paid++;
        invoice.earned = commissionOf(invoice.baseCents, model.bp[invoice.rep]);
        model.earned[invoice.rep] += invoice.earned;
      }
      return;
    }
    case 'void': {
      const paid = model.invoices.filter((i) => i.status === 'paid');
      const invoice = op.preferPaid && paid.length ? paid[op.invoice % paid.length] : model.invoices[op.invoice];
      const response = await voidInvoice(ctx, invoice.id);
      expect(response.statusCode, response.body).toBe(invoice.status === 'void' ? 409 : 200);
      if (invoice.status === 'paid') {
        model.adjusted[invoice.rep] -= invoice.earned;
        done.voidedPaid++;
      }
      invoice.status = 'void';
      return;
    }
    case 'request':
    case 'requestAll': {
      const available = held(model, op.rep).available;
      const cents =
        op.t === 'requestAll'
          ? Math.max(1, available)
          : Math.max(1, Math.floor((Math.max(available, 1) * op.percent) / 100));
      const response = await ctx.injectAs(reps[op.rep], {
        method: 'POST',
        url: '/api/payouts/request',
        headers: json,
        payload: { requestedAmount: cents / 100 },
      });
      if (cents <= available) {
        expect(response.statusCode, response.body).toBe(201);
        model.payouts.push({
          id: response.json().id,
          rep: op.rep,
          requested: cents,
          approved: null,
          status: 'pending',
        });
        done.requested++;
      } else {
        expect(response.statusCode, response.body).toBe(409);
        done.refused++;
      }
      return;
    }
    case 'approve': {
      const payout = pickPayout(model, op, 'pending');
      if (!payout) return;
      const cents = Math.max(1, Math.floor((payout.requested * op.percent) / 100));
      const response = await ctx.injectAs('finance', {
        method: 'POST',
        url: `/api/payouts/${payout.id}/approve`,
        headers: json,
        payload: { approvedAmount: cents / 100 },
      });
      if (payout.status !== 'pending') expect(response.statusCode).toBe(409);
      else if (cents > payout.requested) expect(response.statusCode).toBe(400);
      else {
        expect(response.statusCode, response.body).toBe(200);
        payout.status = 'approved';
        payout.approved = cents;
        done.approved++;
      }
      return;
    }
    case 'reject': {
      const payout = pickPayout(model, op, 'pending');
      if (!payout) return;
      const response = await ctx.injectAs('admin', {
        method: 'POST',
        url: `/api/payouts/${payout.id}/reject`,
        headers: json,
        payload: { reason: 'Not this month' },
      });
      expect(response.statusCode).toBe(payout.status === 'pending' ? 200 : 409);
      if (payout.status === 'pending') {
        payout.status = 'rejected';
        done.rejected++;
      }
      return;
    }
    case 'disburse': {
      const payout = pickPayout(model, op, 'approved');
      if (!payout) return;
      const response = await ctx.injectAs('finance', {
        method: 'POST',
        url: `/api/payouts/${payout.id}/disburse`,
        headers: json,
        payload: {},
      });
      expect(response.statusCode).toBe(payout.status === 'approved' ? 200 : 409);
      if (payout.status === 'approved') {
        payout.status = 'disbursed';
        done.disbursed++;
      }
      return;
    }
    case 'rate': {
      const response = await ctx.injectAs('admin', {
        method: 'PATCH',
        url: `/api/users/${reps[op.rep].id}`,
        headers: json,
        payload: { commissionRate: op.bp / 10_000 },
      });
      expect(response.statusCode).toBe(200);
      model.bp[op.rep] = op.bp;
      return;
    }
  }
}

function pickPayout(model: Model, op: { payout: number; valid: boolean }, status: string): ModelPayout | undefined {
  const allowed = model.payouts.filter((p) => p.status === status);
  const from = op.valid && allowed.length ? allowed : model.payouts;
  return from[op.payout % Math.max(1, from.length)];
}

async function check(
  rep: Rep,
  expected: { available: number; requested: number; disbursed: number; total: number },
): Promise<void> {
  const summary = (await ctx.injectAs(rep, { method: 'GET', url: '/api/commissions/summary' })).json();
  const cents = (amount: number) => Math.round(amount * 100);
  const got = {
    available: cents(summary.available),
    requested: cents(summary.requested),
    disbursed: cents(summary.disbursed),
    total: cents(summary.total),
  };
  expect(got).toEqual(expected);
  expect(cents(summary.pending)).toBe(expected.requested);
  expect(got.available + got.requested + got.disbursed).toBe(got.total);

  // The history's rows, added up by status, give the same figures.
  const history = await ctx.injectAs(rep, { method: 'GET', url: '/api/commissions?limit=500' });
  const byStatus: Record<string, number> = { available: 0, requested: 0, disbursed: 0, adjusted: 0 };
  for (const row of history.json() as { status: string; amount: number }[]) byStatus[row.status] += cents(row.amount);
  expect({
    available: byStatus.available + byStatus.adjusted,
    requested: byStatus.requested,
    disbursed: byStatus.disbursed,
  }).toEqual({ available: expected.available, requested: expected.requested, disbursed: expected.disbursed });
}
