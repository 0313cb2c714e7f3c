import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { invoices, payments } from '../../db/schema';
import { runBilling } from '../../modules/billing/billing-run';
import { buildTestApp, type TestContext, testConfig } from '../app';
import { createBillableContract, setTaxSettings } from '../billing-factories';
import { onlyOn } from '../engine';
import { createTestUser, type TestUser } from '../factories';

/**
 * One money request sent ten times at once with one Idempotency-Key, to two app instances on one database
 * (as behind a load balancer): the claim is one conditional insert in PostgreSQL, so exactly one request
 * runs; each of the others is answered the first response again or, while it still runs, 409. Once it is
 * done, every repeat on either instance replays it. PGlite has one connection, so nothing there runs at once.
 */

onlyOn('postgres', 'the embedded database has one connection, so requests never overlap in it')(
  'one Idempotency-Key sent to two instances at once',
  () => {
    let ctx: TestContext;
    let other: FastifyInstance;
    let finance: TestUser & { token: string };

    beforeAll(async () => {
      ctx = await buildTestApp();
      other = await buildApp({ config: testConfig(), db: ctx.db, logger: false });
      await other.ready();
      finance = await ctx.signIn(await createTestUser(ctx.db, { role: 'finance' }));
      await setTaxSettings(ctx.db, { defaultTaxRate: 0, taxIncluded: false, taxLabel: 'Tax' });
    });
    afterAll(async () => {
      await other?.close();
      await ctx?.close();
    });

    async function invoiceOf400(): Promise<string> {
      const { contract } = await createBillableContract(ctx.db, {
        startDate: '2025-06-01',
        lines: [{ unitPriceCents: 400_00 }],
      });
      await runBilling(ctx.db, { contractId: contract.id, asOf: '2025-06-01', baseUrl: 'https://crm.example.test' });
      const [invoice] = await ctx.db.select().from(invoices).where(eq(invoices.contractId, contract.id));
      return invoice.id;
    }

    const send = (app: FastifyInstance, url: string, payload: object, key: string) =>
      app.inject({
        method: 'POST',
        url,
        payload,
        headers: { authorization: `Bearer ${finance.token}`, 'idempotency-key': key },
      });

    async function moneyOf(invoiceId: string) {
      const rows = await ctx.db
        .select({ amount: payments.amountCents })
        .from(payments)
        .where(eq(payments.invoiceId, invoiceId))
        .orderBy(asc(payments.createdAt));
      const [invoice] = await ctx.db.select().from(invoices).where(eq(invoices.id, invoiceId));
      return { payments: rows.map((r) => r.amount), paidCents: invoice.amountPaidCents };
    }

    /** Each answer is the first one (run or replayed) or 409 "still in progress"; exactly one ran. */
    function expectOneRun(responses: LightMyRequestResponse[], status: number) {
      const summary = responses.map((r) => `${r.statusCode} ${r.headers['idempotent-replayed'] ?? '-'} ${r.body}`);
      const ran = responses.filter((r) => r.statusCode === status && r.headers['idempotent-replayed'] === undefined);
      expect(ran, summary.join('\n')).toHaveLength(1);
      for (const response of responses) {
        if (response.statusCode === 409) {
          expect(response.json()).toEqual({
            message: 'A request with this Idempotency-Key is still in progress',
            code: 'CONFLICT',
          });
        } else {
          expect(response.statusCode, summary.join('\n')).toBe(status);
          expect(response.body).toBe(ran[0].body);
        }
      }
      return ran[0];
    }

    it('a manual payment sent ten times at once pays once; then every repeat replays it', async () => {
      const invoiceId = await invoiceOf400();
      const url = `/api/invoices/${invoiceId}/payments`;
      const body = { amount: '150.25', method: 'wire', reference: 'FT-1' };
      const key = `race-${invoiceId}`;
      const responses = await Promise.all(
        Array.from({ length: 10 }, (_, i) => send(i % 2 === 0 ? ctx.app : other, url, body, key)),
      );
      const first = expectOneRun(responses, 201);
      expect(first.json()).toMatchObject({ amountPaid: 150.25, amountDue: 249.75 });
      expect(await moneyOf(invoiceId)).toEqual({ payments: [150_25], paidCents: 150_25 });

      const repeats = await Promise.all(
        Array.from({ length: 6 }, (_, i) => send(i % 2 === 0 ? ctx.app : other, url, body, key)),
      );
      for (const repeat of repeats) {
        expect(repeat.statusCode).toBe(201);
        expect(repeat.headers['idempotent-replayed']).toBe('true');
        expect(repeat.body).toBe(first.body);
      }
      expect(await moneyOf(invoiceId)).toEqual({ payments: [150_25], paidCents: 150_25 });
    });

    it('ten different keys at once are ten requests: the key, not the body, decides', async () => {
      const invoiceId = await invoiceOf400();
      const url = `/api/invoices/${invoiceId}/payments`;
      const responses = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          send(i % 2 === 0 ? ctx.app : other, url, { amount: '10.00', method: 'cash' }, `many-${invoiceId}-${i}`),
        ),
      );
      expect(responses.map((r) => r.statusCode)).toEqual(Array(10).fill(201));
      expect(await moneyOf(invoiceId)).toEqual({ payments: Array(10).fill(10_00), paidCents: 100_00 });
    });

    it('the same key with two different bodies at once: one runs, the other is 409 or 422, one payment', async () => {
      const invoiceId = await invoiceOf400();
      const url = `/api/invoices/${invoiceId}/payments`;
      const key = `mixed-${invoiceId}`;
      const responses = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          send(i % 2 === 0 ? ctx.app : other, url, { amount: i < 5 ? '20.00' : '30.00', method: 'cash' }, key),
        ),
      );
      const ran = responses.filter((r) => r.statusCode === 201 && r.headers['idempotent-replayed'] === undefined);
      expect(ran).toHaveLength(1);
      for (const response of responses) expect([201, 409, 422]).toContain(response.statusCode);
      const paid = (await moneyOf(invoiceId)).payments;
      expect(paid.length === 1 && (paid[0] === 20_00 || paid[0] === 30_00), String(paid)).toBe(true);
    });
  },
);
