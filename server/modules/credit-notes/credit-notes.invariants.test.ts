import type { Invoice } from '@shared/contracts/invoices';
import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { customers, invoices } from '../../db/schema';
import { buildTestApp, type TestContext } from '../../test/app';
import { createBillableContract, setContractSettings, setTaxSettings } from '../../test/billing-factories';
import { createTestCustomer } from '../../test/catalog-factories';
import { createTestUser } from '../../test/factories';
import { runBilling } from '../billing/billing-run';

/**
 * The invariants of product.md section 14, through the API, on random sequences of issue / pay / partial pay
 * / credit / void / refund, and under credits racing payments (really in parallel on PostgreSQL):
 * - every invoice: paid - refunded <= total, credited <= total, amount due = max(0, total - paid - credited)
 *   (0 once paid or void);
 * - every customer: credit balance >= 0 and = credit beyond amounts due - credit applied - credit refunded
 *   (+ credit given back by a void), each term summed from its own records;
 * - every number series consecutive.
 * The checks read the raw rows (payments, credit notes, credit entries) and recompute each figure in SQL
 * or by plain sums, independently of the services.
 */

let ctx: TestContext;
let repId: string;
const BASE_URL = 'https://crm.example.test';

beforeAll(async () => {
  ctx = await buildTestApp();
  repId = (await createTestUser(ctx.db, { role: 'sales', commissionRateBp: 750 })).id;
});
afterAll(() => ctx.close());
beforeEach(async () => {
  await setTaxSettings(ctx.db, { defaultTaxRate: 8.25, taxIncluded: false, taxLabel: 'Sales tax' });
  await setContractSettings(ctx.db, { pausePaymentsAfterExpiry: false, gracePeriodsEndOfDays: 7 });
});

type Row = Record<string, string | number | boolean | null>;
async function rows(query: ReturnType<typeof sql>): Promise<Row[]> {
  return ((await ctx.db.execute(query)) as unknown as { rows: Row[] }).rows;
}

/** Every invariant, for one customer's invoices and balance. */
async function expectInvariants(customerId: string) {
  const list = await rows(sql`
    select i.id, i.status, i.total_cents::bigint as total, i.amount_paid_cents as paid, i.refunded_cents as refunded,
           i.credited_cents as credited,
           (select coalesce(sum(p.amount_cents), 0) from payments p
             where p.invoice_id = i.id and p.kind = 'payment' and p.status = 'succeeded') as payments_sum,
           (select coalesce(sum(p.amount_cents), 0) from payments p
             where p.invoice_id = i.id and p.kind = 'refund' and p.status = 'succeeded') as refunds_sum,
           (select coalesce(sum(n.amount_cents), 0) from credit_notes n where n.invoice_id = i.id) as notes_sum
    from invoices i where i.customer_id = ${customerId}`);
  for (const r of list) {
    const [total, paid, refunded, credited] = [r.total, r.paid, r.refunded, r.credited].map(Number);
    expect(paid - refunded).toBeLessThanOrEqual(total);
    expect(paid).toBeLessThanOrEqual(total);
    expect(credited).toBeLessThanOrEqual(total);
    expect(Number(r.payments_sum)).toBe(paid);
    expect(Number(r.refunds_sum)).toBe(refunded);
    expect(Number(r.notes_sum)).toBe(credited);
    const api = (await ctx.injectAs('finance', { method: 'GET', url: `/api/invoices/${r.id}` })).json() as Invoice;
    const expectedDue = r.status === 'pending' || r.status === 'failed' ? Math.max(0, total - paid - credited) : 0;
    expect(Math.round(api.amountDue * 100)).toBe(expectedDue);
    // An invoice left payable still asks for money; one settled is paid.
    if (r.status === 'pending' || r.status === 'failed') expect(expectedDue).toBeGreaterThan(0);
    if (r.status === 'paid') expect(paid + credited).toBeGreaterThanOrEqual(total);
  }
  const [balance] = await rows(sql`
    select c.credit_balance_cents as balance,
           (select coalesce(sum(n.to_balance_cents), 0) from credit_notes n where n.customer_id = c.id) as beyond,
           (select coalesce(sum(p.amount_cents), 0) from payments p
             where p.customer_id = c.id and p.method = 'credit' and p.kind = 'payment') as applied,
           (select coalesce(sum(p.amount_cents), 0) from payments p
             where p.customer_id = c.id and p.method = 'credit' and p.kind = 'refund') as given_back,
           (select coalesce(-sum(e.amount_cents), 0) from customer_credit_entries e
             where e.customer_id = c.id and e.kind = 'refunded') as refunded
    from customers c where c.id = ${customerId}`);
  expect(Number(balance.balance)).toBeGreaterThanOrEqual(0);
  expect(Number(balance.balance)).toBe(
    Number(balance.beyond) - Number(balance.applied) + Number(balance.given_back) - Number(balance.refunded),
  );
}

/** Each year's numbers of a series are exactly 1..N. */
async function expectSeriesConsecutive(prefix: 'INV' | 'CN', table: 'invoices' | 'credit_notes') {
  const found = await rows(
    sql.raw(`select split_part(number, '-', 2) as year, count(*) as n, max(split_part(number, '-', 3)::bigint) as top
             from ${table} where number ~ '^${prefix}-[0-9]{4}-[0-9]+$' group by 1`),
  );
  for (const r of found) expect(Number(r.top)).toBe(Number(r.n));
}

const op = fc.oneof(
  fc.record({ kind: fc.constant('issue' as const) }),
  fc.record({ kind: fc.constant('payAll' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('payPart' as const), pick: fc.nat(), permille: fc.integer({ min: 1, max: 1_000 }) }),
  fc.record({ kind: fc.constant('credit' as const), pick: fc.nat(), permille: fc.integer({ min: 1, max: 1_000 }) }),
  fc.record({ kind: fc.constant('void' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('refund' as const), permille: fc.integer({ min: 1, max: 1_200 }) }),
);

describe('credit notes, payments, voids and refunds in any order', () => {
  it('keep every invoice, every balance and every series consistent', { timeout: 240_000 }, async () => {
    let sequences = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 3, maxLength: 12 }), async (ops) => {
        const customer = await createTestCustomer(ctx.db);
        const { contract } = await createBillableContract(ctx.db, {
          startDate: '2025-01-15',
          customerId: customer.id,
          salesRepId: repId,
          lines: [{ unitPriceCents: 123_45 }],
          setupFeeCents: 10_00,
        });
        let month = 0;
        const issue = async () => {
          await runBilling(ctx.db, {
            contractId: contract.id,
            asOf: `2025-${String(1 + month).padStart(2, '0')}-15`,
            baseUrl: BASE_URL,
          });
          month = Math.min(month + 1, 11);
        };
        await issue();
        for (const step of ops) {
          const mine = await ctx.db
            .select()
            .from(invoices)
            .where(eq(invoices.contractId, contract.id))
            .orderBy(invoices.periodStart);
          const target = 'pick' in step ? mine[step.pick % mine.length] : undefined;
          const due = target ? Math.max(0, target.totalCents - target.amountPaidCents - target.creditedCents) : 0;
          const post = (url: string, payload: object) => ctx.injectAs('finance', { method: 'POST', url, payload });
          let res: { statusCode: number } | undefined;
          if (step.kind === 'issue') await issue();
          else if (step.kind === 'payAll' && target && due > 0) {
            res = await post(`/api/invoices/${target.id}/payments`, { amount: (due / 100).toFixed(2), method: 'wire' });
          } else if (step.kind === 'payPart' && target) {
            const cents = Math.max(1, Math.floor((due * step.permille) / 1_000));
            res = await post(`/api/invoices/${target.id}/payments`, {
              amount: (cents / 100).toFixed(2),
              method: 'check',
            });
          } else if (step.kind === 'credit' && target) {
            const cents = Math.max(1, Math.floor((target.totalCents * step.permille) / 1_000));
            res = await post(`/api/invoices/${target.id}/credit-notes`, {
              amount: (cents / 100).toFixed(2),
              reason: 'Random credit',
            });
          } else if (step.kind === 'void' && target) {
            res = await post(`/api/invoices/${target.id}/void`, { reason: 'Random void' });
          } else if (step.kind === 'refund') {
            const [{ balance }] = await ctx.db
              .select({ balance: customers.creditBalanceCents })
              .from(customers)
              .where(eq(customers.id, customer.id));
            const cents = Math.max(1, Math.floor((balance * step.permille) / 1_000));
            res = await post(`/api/customers/${customer.id}/credit-refunds`, {
              amount: (cents / 100).toFixed(2),
              method: 'check',
            });
          }
          // Refusals are 400 or 409 with a message, never a server error.
          if (res) expect([200, 201, 400, 409]).toContain(res.statusCode);
          await expectInvariants(customer.id);
        }
        sequences++;
      }),
      { numRuns: 10 },
    );
    expect(sequences).toBe(10);
    await expectSeriesConsecutive('INV', 'invoices');
    await expectSeriesConsecutive('CN', 'credit_notes');
  });
});

describe('credits racing payments and refunds', () => {
  it('on the same invoices and balance, at once: every figure adds up, no number skipped', {
    timeout: 120_000,
  }, async () => {
    const customer = await createTestCustomer(ctx.db);
    const made = [];
    for (let i = 0; i < 4; i++) {
      made.push(
        await createBillableContract(ctx.db, {
          startDate: '2025-03-10',
          customerId: customer.id,
          salesRepId: repId,
          lines: [{ unitPriceCents: 100_00 }],
        }),
      );
    }
    await setTaxSettings(ctx.db, { defaultTaxRate: 0, taxIncluded: false, taxLabel: 'Tax' });
    for (const m of made)
      await runBilling(ctx.db, { contractId: m.contract.id, asOf: '2025-03-10', baseUrl: BASE_URL });
    const ids = (
      await ctx.db.select({ id: invoices.id }).from(invoices).where(eq(invoices.customerId, customer.id))
    ).map((r) => r.id);
    expect(ids).toHaveLength(4);
    const post = (url: string, payload: object) => ctx.injectAs('finance', { method: 'POST', url, payload });
    // Per invoice: three $40.00 payments and three $40.00 credits at once (only some can fit), and a void
    // racing them on one invoice.
    const answers = await Promise.all(
      ids.flatMap((id, n) => [
        ...[1, 2, 3].map(() => post(`/api/invoices/${id}/payments`, { amount: '40.00', method: 'wire' })),
        ...[1, 2, 3].map(() => post(`/api/invoices/${id}/credit-notes`, { amount: '40.00', reason: 'Race' })),
        ...(n === 0 ? [post(`/api/invoices/${id}/void`, { reason: 'Race' })] : []),
      ]),
    );
    for (const a of answers) expect([200, 201, 400, 409]).toContain(a.statusCode);
    await expectInvariants(customer.id);

    // The balance those credits built, refunded by five requests at once: never below zero.
    const [{ balance }] = await ctx.db
      .select({ balance: customers.creditBalanceCents })
      .from(customers)
      .where(eq(customers.id, customer.id));
    const share = Math.ceil(balance / 3);
    if (share > 0) {
      const refunds = await Promise.all(
        [1, 2, 3, 4, 5].map(() =>
          post(`/api/customers/${customer.id}/credit-refunds`, { amount: (share / 100).toFixed(2), method: 'check' }),
        ),
      );
      const accepted = refunds.filter((r) => r.statusCode === 200).length;
      expect(accepted).toBe(Math.floor(balance / share));
    }
    await expectInvariants(customer.id);
    await expectSeriesConsecutive('CN', 'credit_notes');
  });
});
