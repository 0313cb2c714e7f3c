import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutSessions, contracts, invoices, payments } from '../../db/schema';
import { buildTestApp, type TestContext } from '../../test/app';
import { setTaxSettings } from '../../test/billing-factories';
import { monthStartFromToday } from '../../test/dates';
import { createTestUser } from '../../test/factories';
import { card, checkoutToken, createPayLinkContract, publicClient } from '../../test/payment-factories';
import { runBilling } from '../billing/billing-run';

/**
 * Money paths racing on one contract, with the requests really sent at once (on PostgreSQL each on its own
 * pooled connection; PGlite serialises them and the same assertions hold). Every path takes the contract's
 * lock first, then invoices, then checkout sessions, then payments: they wait for each other and never
 * deadlock: a deadlock would end a request with a 409 of its own (refusedAsConcurrent), and each test checks
 * every answer.
 */
const ORIGIN = 'https://pay.example.test';
let ctx: TestContext;

beforeAll(async () => {
  ctx = await buildTestApp({ config: { PUBLIC_URL: ORIGIN } });
  await setTaxSettings(ctx.db, { defaultTaxRate: 0, taxIncluded: false, taxLabel: 'Tax' });
});
afterAll(() => ctx.close());

const inParallel = <T>(count: number, run: (i: number) => Promise<T>) =>
  Promise.all(Array.from({ length: count }, (_, i) => run(i)));

/**
 * A deadlock (or a serialization failure) ends the statement that meets it, and the request answers 409 with
 * this message (lib/db-errors.ts): racing requests that wait for each other never get it.
 */
const CONCURRENT_CHANGE = 'Someone else changed this at the same time. Please try again.';
const refusedAsConcurrent = (answers: readonly { statusCode: number; body: string }[]) =>
  answers.filter((answer) => answer.statusCode === 409 && answer.body.includes(CONCURRENT_CHANGE));

const openSessionsOf = (contractId: string) =>
  ctx.db
    .select()
    .from(checkoutSessions)
    .where(and(eq(checkoutSessions.contractId, contractId), eq(checkoutSessions.status, 'open')));

const succeededPaymentsOf = (contractId: string) =>
  ctx.db
    .select()
    .from(payments)
    .where(and(eq(payments.contractId, contractId), eq(payments.kind, 'payment'), eq(payments.status, 'succeeded')));

describe('ten opens of one pay link at once', () => {
  it('make one checkout, which every opener gets, and pay once', async () => {
    const { contract, token } = await createPayLinkContract(ctx.db, {
      status: 'sent',
      startDate: monthStartFromToday(3),
      lines: [{ unitPriceCents: 300_00 }],
    });
    const opened = await inParallel(10, () => publicClient(ctx.app).openCheckout(token));
    expect(opened.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    const urls = new Set(opened.map((r) => r.json().checkoutUrl));
    expect(urls.size).toBe(1);
    expect(await openSessionsOf(contract.id)).toHaveLength(1);

    const [url] = urls;
    const paid = await inParallel(10, () => publicClient(ctx.app).pay(checkoutToken(url), card()));
    expect(paid.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    const [first] = await ctx.db.select().from(invoices).where(eq(invoices.contractId, contract.id));
    expect(first).toMatchObject({ status: 'paid', totalCents: 300_00, amountPaidCents: 300_00 });
    expect(await succeededPaymentsOf(contract.id)).toHaveLength(1);
    const [row] = await ctx.db.select().from(contracts).where(eq(contracts.id, contract.id));
    expect(row.status).toBe('active');
  });

  it('ten Pay Now clicks on one invoice in the portal make one checkout', async () => {
    const { contract, customerId } = await createPayLinkContract(ctx.db, {
      status: 'active',
      startDate: monthStartFromToday(3),
      lines: [{ unitPriceCents: 80_00 }],
    });
    await runBilling(ctx.db, { contractId: contract.id, asOf: monthStartFromToday(3), baseUrl: ORIGIN });
    const [invoice] = await ctx.db.select().from(invoices).where(eq(invoices.contractId, contract.id));
    const client = await ctx.signIn(await createTestUser(ctx.db, { role: 'client', customerId }));
    const opened = await inParallel(10, () =>
      ctx.injectAs(client, { method: 'POST', url: `/api/invoices/${invoice.id}/checkout` }),
    );
    expect(opened.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    expect(new Set(opened.map((r) => r.json().checkoutUrl)).size).toBe(1);
    expect(await openSessionsOf(contract.id)).toHaveLength(1);
  });
});

describe('ten checkouts of one first payment paid at once (as an earlier version could leave them)', () => {
  it('pay once, activate once, and never deadlock', async () => {
    const { contract } = await createPayLinkContract(ctx.db, {
      status: 'sent',
      startDate: monthStartFromToday(4),
      lines: [{ unitPriceCents: 450_00 }],
    });
    const sessions = await ctx.db
      .insert(checkoutSessions)
      .values(
        Array.from({ length: 10 }, () => ({
          token: randomBytes(24).toString('base64url'),
          contractId: contract.id,
          invoiceIds: [],
          amountCents: 450_00,
          provider: 'builtin',
          providerSessionId: `cs_${randomBytes(12).toString('hex')}`,
          source: 'pay_link',
          expiresAt: new Date(Date.now() + 3_600_000),
        })),
      )
      .returning();
    const paid = await inParallel(10, (i) => publicClient(ctx.app).pay(sessions[i].token, card()));
    const statuses = paid.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([200, ...Array(9).fill(409)]);
    for (const refused of paid.filter((r) => r.statusCode === 409)) {
      expect(refused.json().message).toBe('This checkout has expired. Go back to the payment page to start a new one.');
    }
    expect(await succeededPaymentsOf(contract.id)).toHaveLength(1);
    const issued = await ctx.db.select().from(invoices).where(eq(invoices.contractId, contract.id));
    expect(issued).toHaveLength(1);
    expect(issued[0]).toMatchObject({ status: 'paid', amountPaidCents: 450_00 });
  });
});

describe('every money path on one contract at once', () => {
  it('card payments, manual payments, voids and new checkouts wait for each other: right figures, no deadlock', async () => {
    const { contract, token } = await createPayLinkContract(ctx.db, {
      status: 'active',
      startDate: '2027-01-10',
      lines: [{ unitPriceCents: 100_00 }],
    });
    await runBilling(ctx.db, { contractId: contract.id, asOf: '2027-04-10', baseUrl: ORIGIN });
    const open = await ctx.db
      .select()
      .from(invoices)
      .where(eq(invoices.contractId, contract.id))
      .orderBy(invoices.periodStart);
    expect(open).toHaveLength(4);
    const [jan, feb, mar, apr] = open;
    const portalSession = async (invoiceId: string) =>
      (
        await ctx.db
          .insert(checkoutSessions)
          .values({
            token: randomBytes(24).toString('base64url'),
            contractId: contract.id,
            invoiceIds: [invoiceId],
            amountCents: 100_00,
            provider: 'builtin',
            providerSessionId: `cs_${randomBytes(12).toString('hex')}`,
            source: 'portal',
            expiresAt: new Date(Date.now() + 3_600_000),
          })
          .returning()
      )[0];
    const forMarch = await portalSession(mar.id);
    const forApril = await portalSession(apr.id);

    const requests = [
      ...Array.from({ length: 3 }, () =>
        ctx.injectAs('finance', {
          method: 'POST',
          url: `/api/invoices/${jan.id}/payments`,
          payload: { amount: 40, method: 'check' },
        }),
      ),
      ...Array.from({ length: 2 }, () =>
        ctx.injectAs('finance', {
          method: 'POST',
          url: `/api/invoices/${feb.id}/void`,
          payload: { reason: 'Billed in error' },
        }),
      ),
      ...Array.from({ length: 3 }, () => publicClient(ctx.app).pay(forMarch.token, card())),
      ...Array.from({ length: 3 }, () => publicClient(ctx.app).pay(forApril.token, card())),
      ...Array.from({ length: 3 }, () => publicClient(ctx.app).openCheckout(token)),
    ];
    const answers = await Promise.all(requests);
    for (const answer of answers) expect(answer.statusCode, answer.body).toBeLessThan(500);
    expect(refusedAsConcurrent(answers)).toEqual([]);

    const after = await ctx.db
      .select()
      .from(invoices)
      .where(eq(invoices.contractId, contract.id))
      .orderBy(invoices.periodStart);
    // January: three $40.00 checks on $100.00 due: two fit, the third would pass the total and is refused.
    expect(after[0]).toMatchObject({ status: 'pending', amountPaidCents: 80_00 });
    expect(after[1]).toMatchObject({ status: 'void', amountPaidCents: 0 });
    const paid = await succeededPaymentsOf(contract.id);
    const paidOn = (id: string) => paid.filter((p) => p.invoiceId === id).reduce((sum, p) => sum + p.amountCents, 0);
    expect([paidOn(jan.id), paidOn(feb.id)]).toEqual([80_00, 0]);
    // March and April: each portal checkout pays its invoice once, unless the pay link's new checkout took
    // its place first (then it pays nothing). Either way the invoice's figures are its payments'.
    for (const [invoice, session] of [
      [after[2], forMarch],
      [after[3], forApril],
    ] as const) {
      expect([0, 100_00]).toContain(invoice.amountPaidCents);
      expect(paidOn(invoice.id)).toBe(invoice.amountPaidCents);
      expect(invoice.status).toBe(invoice.amountPaidCents === 100_00 ? 'paid' : 'pending');
      const [now] = await ctx.db.select().from(checkoutSessions).where(eq(checkoutSessions.id, session.id));
      expect(now.status).toBe(invoice.amountPaidCents === 100_00 ? 'completed' : 'expired');
    }
    // One open checkout at most per invoice, whatever was opened meanwhile.
    const stillOpen = await openSessionsOf(contract.id);
    const charged = stillOpen.flatMap((s) => s.invoiceIds);
    expect(new Set(charged).size).toBe(charged.length);
  });
});
