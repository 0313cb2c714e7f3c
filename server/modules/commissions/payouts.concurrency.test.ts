import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commissions, payouts } from '../../db/schema';
import { buildTestApp, type TestContext } from '../../test/app';
import {
  confirmCardPayment,
  createContractFor,
  createInvoice,
  createRep,
  earn,
  type Rep,
} from '../../test/commission-factories';

/**
 * Races, with the requests really sent at the same time. On PostgreSQL each runs on its own pooled
 * connection, so the lock and the conditional updates are what keep the figures right; PGlite has one
 * connection and serialises them (the same assertions hold there too).
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(() => ctx.close());

const json = { 'content-type': 'application/json' };
const PARALLEL = 8;

function inParallel<T>(count: number, run: (i: number) => Promise<T>): Promise<T[]> {
  return Promise.all(Array.from({ length: count }, (_, i) => run(i)));
}

async function summaryOf(rep: Rep) {
  return (await ctx.injectAs(rep, { method: 'GET', url: '/api/commissions/summary' })).json();
}

describe('concurrent payout requests and reviews', () => {
  it(`${PARALLEL} requests of the whole available amount at once: exactly one succeeds`, async () => {
    const rep = await createRep(ctx, 1000);
    for (const cents of [123_45, 98_76, 500_00]) await earn(ctx, rep.id, cents); // 12.35 + 9.88 + 50.00
    const available = 72.23;
    expect((await summaryOf(rep)).available).toBe(available);

    const responses = await inParallel(PARALLEL, () =>
      ctx.injectAs(rep, {
        method: 'POST',
        url: '/api/payouts/request',
        headers: json,
        payload: { requestedAmount: available },
      }),
    );
    const statuses = responses.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([201, ...Array(PARALLEL - 1).fill(409)]);
    for (const r of responses.filter((x) => x.statusCode === 409)) {
      expect(r.json().message).toBe('You have no available commission to request');
    }
    expect(await summaryOf(rep)).toMatchObject({ available: 0, requested: available, total: available });
    expect(await ctx.db.select().from(payouts).where(eq(payouts.repId, rep.id))).toHaveLength(1);
  });

  it(`${PARALLEL} requests of a part each: they never take more than is available`, async () => {
    const rep = await createRep(ctx, 1000);
    await earn(ctx, rep.id, 1000_00); // $100.00
    const responses = await inParallel(PARALLEL, () =>
      ctx.injectAs(rep, {
        method: 'POST',
        url: '/api/payouts/request',
        headers: json,
        payload: { requestedAmount: 30 },
      }),
    );
    expect(responses.filter((r) => r.statusCode === 201)).toHaveLength(3);
    expect(responses.filter((r) => r.statusCode === 409)).toHaveLength(PARALLEL - 3);
    expect(await summaryOf(rep)).toMatchObject({ available: 10, requested: 90, total: 100 });
    const rows = await ctx.db.select().from(commissions).where(eq(commissions.repId, rep.id));
    expect(rows.reduce((sum, r) => sum + Number(r.amountCents), 0)).toBe(100_00);
  });

  it('concurrent approvals, rejections and disbursements of one payout: each transition happens once', async () => {
    const rep = await createRep(ctx, 1000);
    await earn(ctx, rep.id, 500_00);
    const id = (
      await ctx.injectAs(rep, {
        method: 'POST',
        url: '/api/payouts/request',
        headers: json,
        payload: { requestedAmount: 50 },
      })
    ).json().id;

    const reviews = await inParallel(PARALLEL, (i) =>
      ctx.injectAs(i % 2 ? 'finance' : 'admin', {
        method: 'POST',
        url: `/api/payouts/${id}/${i % 2 ? 'approve' : 'reject'}`,
        headers: json,
        payload: i % 2 ? { approvedAmount: 20 + i } : { reason: `Reason ${i}` },
      }),
    );
    const winners = reviews.filter((r) => r.statusCode === 200);
    expect(winners).toHaveLength(1);
    expect(reviews.filter((r) => r.statusCode === 409)).toHaveLength(PARALLEL - 1);
    const outcome = winners[0].json();
    if (outcome.status === 'approved') {
      const approved = outcome.approvedAmount;
      expect(await summaryOf(rep)).toMatchObject({ available: 50 - approved, requested: approved, total: 50 });
      const disbursals = await inParallel(PARALLEL, () =>
        ctx.injectAs('finance', { method: 'POST', url: `/api/payouts/${id}/disburse`, headers: json, payload: {} }),
      );
      expect(disbursals.map((r) => r.statusCode).sort()).toEqual([200, ...Array(PARALLEL - 1).fill(409)]);
      expect(await summaryOf(rep)).toMatchObject({ available: 50 - approved, requested: 0, disbursed: approved });
    } else {
      expect(outcome.status).toBe('rejected');
      expect(await summaryOf(rep)).toMatchObject({ available: 50, requested: 0, total: 50 });
    }
  });

  it('a payment confirmation replayed at once earns commission once', async () => {
    const rep = await createRep(ctx, 1000);
    const { contract } = await createContractFor(ctx.db, rep.id);
    const invoice = await createInvoice(ctx.db, contract.id, { subtotalCents: 777_77 });
    const results = await inParallel(PARALLEL, () => confirmCardPayment(ctx.db, invoice.id, 'ch_same_charge'));
    expect(results.filter((r) => r.becamePaid)).toHaveLength(1);
    expect(results.filter((r) => r.duplicate)).toHaveLength(PARALLEL - 1);
    const rows = await ctx.db.select().from(commissions).where(eq(commissions.invoiceId, invoice.id));
    expect(rows.map((r) => Number(r.amountCents))).toEqual([77_78]);
  });
});
