import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, contracts, outboxEmails } from '../../db/schema';
import { changeContractStatus } from '../../modules/contract-status/contract-status.service';
import { buildTestApp, type TestContext } from '../app';
import { createTestCustomer, createTestProduct } from '../catalog-factories';

/**
 * A status action fired ten times at once (really in parallel on PostgreSQL) changes the contract once: one
 * 200, nine 409 naming the status it now has, one audit event, one e-mail. The conditional UPDATE's row
 * count decides, not a read before the write.
 */
let ctx: TestContext;
let customerId: string;
let productId: string;
beforeAll(async () => {
  ctx = await buildTestApp();
  customerId = (await createTestCustomer(ctx.db)).id;
  productId = (await createTestProduct(ctx.db)).id;
});
afterAll(() => ctx.close());

async function contractIn(status: 'draft' | 'active' | 'paused', paymentMode: 'pay_link' | 'portal' = 'pay_link') {
  const response = await ctx.injectAs('admin', {
    method: 'POST',
    url: '/api/contracts',
    payload: {
      customerId,
      // Starting today for a year: activation bills the first month and the contract stays active.
      startDate: new Date().toISOString().slice(0, 10),
      termMonths: 12,
      paymentMode,
      lineItems: [{ productId, quantity: 1, unitPrice: 250, discount: 0 }],
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  const id: string = response.json().id;
  if (status !== 'draft') await ctx.db.update(contracts).set({ status }).where(eq(contracts.id, id));
  return id;
}

async function tenAtOnce(id: string, action: string, payload?: object) {
  const responses = await Promise.all(
    Array.from({ length: 10 }, () =>
      ctx.injectAs('sales_manager', { method: 'POST', url: `/api/contracts/${id}/${action}`, payload }),
    ),
  );
  return responses;
}

async function auditCount(id: string, action: string) {
  const [{ n }] = await ctx.db
    .select({ n: count() })
    .from(auditEvents)
    .where(and(eq(auditEvents.entityId, id), eq(auditEvents.action, action)));
  return n;
}

describe('the same transition ten times at once', () => {
  it.each([
    [
      'activate',
      'draft',
      'active',
      'contract.activated',
      'Cannot activate this contract: it is active. Only draft or sent contracts can be activated.',
    ],
    [
      'pause',
      'active',
      'paused',
      'contract.paused',
      'Cannot pause this contract: it is paused. Only active contracts can be paused.',
    ],
    [
      'resume',
      'paused',
      'active',
      'contract.resumed',
      'Cannot resume this contract: it is active. Only paused contracts can be resumed.',
    ],
    [
      'cancel',
      'active',
      'canceled',
      'contract.canceled',
      'Cannot cancel this contract: it is canceled. Only draft, sent, active or paused contracts can be canceled.',
    ],
  ] as const)('%s (from %s): one 200, nine 409, one audit event', async (action, from, to, audit, refusal) => {
    const id = await contractIn(from);
    const responses = await tenAtOnce(id, action, action === 'cancel' ? { reason: 'Budget cut' } : undefined);
    const statuses = responses.map((r) => r.statusCode).sort();
    expect(statuses, responses.map((r) => r.body).join('\n')).toEqual([
      200, 409, 409, 409, 409, 409, 409, 409, 409, 409,
    ]);
    for (const refused of responses.filter((r) => r.statusCode === 409)) {
      expect(refused.json()).toEqual({ message: refusal, code: 'CONFLICT' });
    }
    expect(responses.find((r) => r.statusCode === 200)!.json().status).toBe(to);
    expect(await auditCount(id, audit)).toBe(1);
    const [event] = await ctx.db
      .select({ before: auditEvents.before })
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, id), eq(auditEvents.action, audit)));
    expect(event.before).toEqual({ status: from });
  });

  it('send: one 200, nine 409, one e-mail in the outbox', async () => {
    const id = await contractIn('draft');
    const responses = await tenAtOnce(id, 'send');
    expect(responses.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
    expect(await auditCount(id, 'contract.sent')).toBe(1);
    const [{ n }] = await ctx.db.select({ n: count() }).from(outboxEmails).where(eq(outboxEmails.entityId, id));
    expect(n).toBe(1);
  });

  it('an action on a contract in another status is refused without touching it', async () => {
    const id = await contractIn('draft');
    const [before] = await ctx.db.select().from(contracts).where(eq(contracts.id, id));
    const response = await ctx.injectAs('admin', { method: 'POST', url: `/api/contracts/${id}/resume` });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe(
      'Cannot resume this contract: it is draft. Only paused contracts can be resumed.',
    );
    const [after] = await ctx.db.select().from(contracts).where(eq(contracts.id, id));
    expect(after).toEqual(before);
  });
});

describe('changeContractStatus: the conditional UPDATE itself', () => {
  it('ten transactions at once, none holding a lock first: exactly one changes the row', async () => {
    const id = await contractIn('active');
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        ctx.db.transaction((tx) =>
          changeContractStatus(tx, id, {
            action: 'cancel',
            actorId: null,
            baseUrl: 'http://localhost:3000',
            cancelReason: `attempt ${i}`,
          }),
        ),
      ),
    );
    const winners = results.filter((r) => r !== null);
    expect(winners).toHaveLength(1);
    expect(winners[0]).toMatchObject({ previousStatus: 'active', row: { id, status: 'canceled' } });
    const [row] = await ctx.db.select().from(contracts).where(eq(contracts.id, id));
    expect(row.cancelReason).toBe(winners[0]!.row.cancelReason);
  });

  it('reports the status it really changed from, and changes nothing outside `from`', async () => {
    const id = await contractIn('paused');
    const system = { actorId: null, baseUrl: 'http://localhost:3000' };
    const refused = await ctx.db.transaction((tx) => changeContractStatus(tx, id, { action: 'pause', ...system }));
    expect(refused).toBeNull();
    const done = await ctx.db.transaction((tx) => changeContractStatus(tx, id, { action: 'cancel', ...system }));
    expect(done?.previousStatus).toBe('paused');
    expect(done?.row.status).toBe('canceled');
  });
});
