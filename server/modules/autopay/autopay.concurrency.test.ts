import { TEST_CARDS } from '@shared/contracts/checkout';
import { and, eq, inArray, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { autopayAttempts, builtinCharges, customers, invoices, outboxEmails, payments } from '../../db/schema';
import { buildTestApp, type TestContext } from '../../test/app';
import { setTaxSettings } from '../../test/billing-factories';
import { createTestCustomer } from '../../test/catalog-factories';
import { onlyOn } from '../../test/engine';
import { asDelivered } from '../../test/outbox';
import { card, createPayLinkContract, nextAddress } from '../../test/payment-factories';
import { runBilling } from '../billing/billing-run';
import { lockContractForMoney } from '../contract-status/contract-status.service';
import { applyPayment } from '../payments/payments.service';
import { runAutopayCharges } from './autopay-charges.service';

/**
 * Charges racing each other and a manual payment, with the work really done at once (on PostgreSQL each on its
 * own pooled connection, as two instances would; PGlite serialises them and the same assertions hold): charge
 * runs in parallel, "Charge now" five times at once, a manual payment racing a charge. Each invoice is charged
 * at most once per attempt and never collects more than its amount due.
 */
const ORIGIN = 'https://pay.example.test';
let ctx: TestContext;
const deps = () => ({ db: ctx.db, mailer: ctx.app.mailer, baseUrl: ORIGIN });

beforeAll(async () => {
  ctx = await buildTestApp({ config: { PUBLIC_URL: ORIGIN } });
  await setTaxSettings(ctx.db, { defaultTaxRate: 0, taxIncluded: false, taxLabel: 'Tax' });
});
afterAll(() => ctx.close());

const inParallel = <T>(count: number, run: (i: number) => Promise<T>) =>
  Promise.all(Array.from({ length: count }, (_, i) => run(i)));

/**
 * A customer on autopay with a 4242 card saved before any invoice, then one $100.00 invoice issued by the billing
 * run alone (so nothing charged it yet): due Oct 27, 2026, long past.
 */
async function autopayInvoice(name: string) {
  const customer = await createTestCustomer(ctx.db, {
    name,
    email: `${name.toLowerCase().replace(/\W+/g, '-')}@race.test`,
  });
  const sent = await ctx.injectAs('finance', {
    method: 'POST',
    url: `/api/customers/${customer.id}/payment-setup-link`,
  });
  expect(sent.statusCode, sent.body).toBe(200);
  const [mail] = (await ctx.db.select().from(outboxEmails).where(eq(outboxEmails.to, customer.email))).map(asDelivered);
  const token = new RegExp(`${ORIGIN}/setup/([A-Za-z0-9_-]+)`).exec(mail!.text)![1];
  const saved = await ctx.app.inject({
    method: 'POST',
    url: `/api/setup/${token}`,
    payload: { ...card(TEST_CARDS.visa), consent: true, makeDefault: true },
    remoteAddress: nextAddress(),
  });
  expect(saved.statusCode, saved.body).toBe(200);
  const { contract } = await createPayLinkContract(ctx.db, {
    status: 'active',
    customerId: customer.id,
    startDate: '2026-10-20',
    termMonths: 1,
    lines: [{ unitPriceCents: 100_00 }],
  });
  await runBilling(ctx.db, { contractId: contract.id, asOf: '2026-10-20', baseUrl: ORIGIN });
  const [invoice] = await ctx.db.select().from(invoices).where(eq(invoices.contractId, contract.id));
  return { customer, invoice: invoice! };
}

const succeededPayments = (invoiceIds: string[]) =>
  ctx.db
    .select()
    .from(payments)
    .where(
      and(inArray(payments.invoiceId, invoiceIds), eq(payments.kind, 'payment'), eq(payments.status, 'succeeded')),
    );

describe('charge runs at once, as on several instances', () => {
  it('charge each due invoice once: one attempt, one payment, one provider charge', async () => {
    const due = await inParallel(6, (i) => autopayInvoice(`Parallel Run ${i}`));
    const ids = due.map((d) => d.invoice.id);
    const results = await inParallel(4, () => runAutopayCharges(deps()));
    expect(results.reduce((sum, r) => sum + r.succeeded, 0)).toBe(6);

    const attempts = await ctx.db.select().from(autopayAttempts).where(inArray(autopayAttempts.invoiceId, ids));
    expect(attempts.map((a) => [a.attemptNumber, a.status])).toEqual(Array(6).fill([1, 'succeeded']));
    const paid = await succeededPayments(ids);
    expect(paid.map((p) => [p.method, p.amountCents])).toEqual(Array(6).fill(['card_on_file', 100_00]));
    const charges = await ctx.db
      .select()
      .from(builtinCharges)
      .where(
        inArray(
          builtinCharges.providerPaymentId,
          paid.map((p) => p.providerPaymentId!),
        ),
      );
    expect(charges).toHaveLength(6);
    const after = await ctx.db.select().from(invoices).where(inArray(invoices.id, ids));
    expect(after.map((i) => [i.status, i.amountPaidCents])).toEqual(Array(6).fill(['paid', 100_00]));
  });
});

describe('"Charge now" five times at once', () => {
  it('charges once: one 200, four 409, one payment', async () => {
    const { invoice } = await autopayInvoice('Charge Now Race');
    const answers = await inParallel(5, () =>
      ctx.injectAs('finance', { method: 'POST', url: `/api/invoices/${invoice.id}/charge` }),
    );
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes, answers.map((a) => a.body).join('\n')).toEqual([200, 409, 409, 409, 409]);
    for (const refused of answers.filter((a) => a.statusCode === 409)) {
      expect([
        'A charge of this invoice is already in progress.',
        'Nothing is due on this invoice, so there is nothing to charge.',
      ]).toContain(refused.json().message);
    }
    expect(await ctx.db.select().from(autopayAttempts).where(eq(autopayAttempts.invoiceId, invoice.id))).toHaveLength(
      1,
    );
    expect((await succeededPayments([invoice.id])).map((p) => p.amountCents)).toEqual([100_00]);
  });
});

describe('a manual payment racing a charge', () => {
  it('never collects more than is due: the charge is not made, or refunded at once', async () => {
    const races = await inParallel(4, (i) => autopayInvoice(`Manual Race ${i}`));
    await inParallel(races.length * 2, async (i) => {
      const { invoice } = races[Math.floor(i / 2)]!;
      if (i % 2 === 0) return runAutopayCharges(deps(), { customerId: races[Math.floor(i / 2)]!.customer.id });
      return ctx.injectAs('finance', {
        method: 'POST',
        url: `/api/invoices/${invoice.id}/payments`,
        payload: { amount: 100, method: 'check', reference: 'Check #1' },
      });
    });
    for (const { invoice, customer } of races) {
      const [after] = await ctx.db.select().from(invoices).where(eq(invoices.id, invoice.id));
      expect(after).toMatchObject({ status: 'paid', amountPaidCents: 100_00 });
      const paid = await succeededPayments([invoice.id]);
      expect(paid.reduce((sum, p) => sum + p.amountCents, 0)).toBe(100_00);
      expect(paid).toHaveLength(1);
      // What the card provider kept is what the card-on-file payment recorded: 0 when the check won.
      const [attempt] = await ctx.db.select().from(autopayAttempts).where(eq(autopayAttempts.invoiceId, invoice.id));
      if (attempt) {
        const [charge] = await ctx.db
          .select()
          .from(builtinCharges)
          .where(eq(builtinCharges.providerPaymentId, attempt.providerPaymentId!));
        const cardPaid = paid.filter((p) => p.method === 'card_on_file').reduce((sum, p) => sum + p.amountCents, 0);
        expect(charge!.amountCents - charge!.refundedCents).toBe(cardPaid);
        expect(attempt.status).toBe(cardPaid > 0 ? 'succeeded' : 'skipped');
      }
      const [row] = await ctx.db.select().from(customers).where(eq(customers.id, customer.id));
      expect(row!.autopayEnabled).toBe(true);
    }
  });
});

onlyOn('postgres', 'a second connection holds the contract while the charge waits for it')(
  'a charge that finds its invoice paid by hand meanwhile',
  () => {
    it('applies nothing and refunds the charge at once', async () => {
      const { invoice } = await autopayInvoice('Paid Meanwhile');
      let run: Promise<unknown> | null = null;
      await ctx.db.transaction(async (tx) => {
        // Finance holds the contract (the first lock of every money path) while recording a check...
        await lockContractForMoney(tx, invoice.contractId);
        run = runAutopayCharges(deps(), { customerId: invoice.customerId });
        // ...and the charge run has claimed its attempt and taken the card's money, then waits for the contract.
        for (let i = 0; i < 500; i++) {
          const [attempt] = await ctx.db
            .select()
            .from(autopayAttempts)
            .where(eq(autopayAttempts.invoiceId, invoice.id));
          if (attempt?.providerPaymentId === null && (await chargesOfAttempt(invoice.id)) > 0) break;
          await new Promise((resolve) => setImmediate(resolve));
        }
        expect(await chargesOfAttempt(invoice.id), 'the card was charged before the check was recorded').toBe(1);
        await applyPayment(tx, {
          invoiceId: invoice.id,
          amountCents: 100_00,
          method: 'check',
          provider: 'manual',
          reference: 'Check #77',
        });
      });
      await run;
      const [attempt] = await ctx.db.select().from(autopayAttempts).where(eq(autopayAttempts.invoiceId, invoice.id));
      expect(attempt).toMatchObject({ status: 'skipped', paymentId: null });
      const [charge] = await ctx.db
        .select()
        .from(builtinCharges)
        .where(eq(builtinCharges.providerPaymentId, attempt!.providerPaymentId!));
      expect(charge).toMatchObject({ amountCents: 100_00, refundedCents: 100_00 });
      expect((await succeededPayments([invoice.id])).map((p) => [p.method, p.amountCents])).toEqual([
        ['check', 100_00],
      ]);
    });
  },
);

/** The provider charges made under an invoice's attempt keys (`invoice-<id>-attempt-<n>`). */
async function chargesOfAttempt(invoiceId: string): Promise<number> {
  const rows = await ctx.db
    .select()
    .from(builtinCharges)
    .where(like(builtinCharges.idempotencyKey, `invoice-${invoiceId}-attempt-%`));
  return rows.length;
}
