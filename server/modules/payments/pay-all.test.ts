import { and, asc, eq, inArray, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, checkoutSessions, invoices, notifications, outboxEmails, payments } from '../../db/schema';
import { buildTestApp, type TestContext } from '../../test/app';
import { createBillableContract, setTaxSettings } from '../../test/billing-factories';
import { createTestCustomer } from '../../test/catalog-factories';
import { monthStartFromToday } from '../../test/dates';
import { onlyOn } from '../../test/engine';
import { createTestUser, type TestUser } from '../../test/factories';
import { card, checkoutToken, publicClient } from '../../test/payment-factories';
import { runBilling } from '../billing/billing-run';

/**
 * "Pay all due" (product.md section 20, decision 060): an agency's client user pays every invoice billed to the
 * agency that has something due, for any of its advertisers, in one payment applied oldest first (due date, then
 * number). Settling applies each invoice up to what is due on it then; what no invoice took is refunded.
 */

type Signed = TestUser & { token: string };
const ORIGIN = 'https://pay-all.example.test';
let ctx: TestContext;

beforeAll(async () => {
  ctx = await buildTestApp({ config: { PUBLIC_URL: ORIGIN } });
  await setTaxSettings(ctx.db, { defaultTaxRate: 0, taxIncluded: false, taxLabel: 'Tax' });
});
afterAll(() => ctx.close());

async function party(name: string, kind: 'advertiser' | 'agency') {
  const slug = `${name.toLowerCase().replace(/\W+/g, '-')}-${Math.random().toString(36).slice(2, 8)}`;
  const customer = await createTestCustomer(ctx.db, { name, kind, email: `billing@${slug}.test` });
  const client: Signed = await ctx.signIn(await createTestUser(ctx.db, { role: 'client', customerId: customer.id }));
  return { ...customer, client };
}

/** An active contract of the advertiser billed to `billTo`, billed by the billing run as of `asOf`. */
async function billed(advertiserId: string, billTo: string, monthlyCents: number, asOf: string) {
  const { contract } = await createBillableContract(ctx.db, {
    status: 'active',
    customerId: advertiserId,
    billToCustomerId: billTo,
    startDate: monthStartFromToday(-1),
    lines: [{ unitPriceCents: monthlyCents }],
  });
  await runBilling(ctx.db, { contractId: contract.id, asOf, baseUrl: ORIGIN });
  return contract;
}

/**
 * The agency Cardinal Media, billed for Bella Notte's contract ($1,000 a month, last month's and this month's
 * invoices) and Harbor Lights' ($450, last month's only, issued after Bella's). Oldest first: Bella's last month
 * (due first, lower number), Harbor's last month (same due date, higher number), Bella's this month.
 */
async function agencyWithThreeInvoices() {
  const agency = await party('Cardinal Media', 'agency');
  const bella = await party('Bella Notte Trattoria', 'advertiser');
  const harbor = await party('Harbor Lights', 'advertiser');
  const bellaContract = await billed(bella.id, agency.id, 1_000_00, monthStartFromToday(0));
  const harborContract = await billed(harbor.id, agency.id, 450_00, monthStartFromToday(-1));
  const rows = await ctx.db
    .select()
    .from(invoices)
    .where(inArray(invoices.contractId, [bellaContract.id, harborContract.id]))
    .orderBy(asc(invoices.dueDate), asc(invoices.number));
  expect(rows.map((row) => [row.contractId, row.periodStart, row.totalCents, row.billToCustomerId])).toEqual([
    [bellaContract.id, monthStartFromToday(-1), 1_000_00, agency.id],
    [harborContract.id, monthStartFromToday(-1), 450_00, agency.id],
    [bellaContract.id, monthStartFromToday(0), 1_000_00, agency.id],
  ]);
  return { agency, bella, harbor, bellaContract, harborContract, invoices: rows };
}

const payAll = (who: Signed) => ctx.injectAs(who, { method: 'POST', url: '/api/client/pay-all' });
const payNow = (who: Signed, invoiceId: string) =>
  ctx.injectAs(who, { method: 'POST', url: `/api/invoices/${invoiceId}/checkout` });
const sessionOf = async (token: string) =>
  (await ctx.db.select().from(checkoutSessions).where(eq(checkoutSessions.token, token)))[0];
const invoicesIn = (ids: string[]) =>
  ctx.db.select().from(invoices).where(inArray(invoices.id, ids)).orderBy(asc(invoices.dueDate), asc(invoices.number));
const paymentsOfInvoices = (ids: string[]) =>
  ctx.db
    .select()
    .from(payments)
    .where(and(inArray(payments.invoiceId, ids), eq(payments.kind, 'payment'), eq(payments.status, 'succeeded')));
const refundsOf = (customerId: string) =>
  ctx.db
    .select()
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.action, 'payment.refunded'),
        eq(auditEvents.entity, 'customer'),
        eq(auditEvents.entityId, customerId),
      ),
    );

describe('Pay all due', () => {
  it('pays every invoice billed to the agency in one payment, oldest first, one payment and receipt each', async () => {
    const { agency, invoices: due } = await agencyWithThreeInvoices();
    const [bellaLast, harborLast, bellaNow] = due;
    const summary = await ctx.injectAs(agency.client, { method: 'GET', url: '/api/client/summary' });
    expect(summary.json()).toMatchObject({ payAllCount: 3, payAllAmount: 2450 });

    const opened = await payAll(agency.client);
    expect(opened.statusCode, opened.body).toBe(200);
    const token = checkoutToken(opened.json().checkoutUrl);
    expect(opened.json().checkoutUrl).toBe(`${ORIGIN}/checkout/${token}`);
    // Opening again leads to the same checkout.
    expect((await payAll(agency.client)).json().checkoutUrl).toBe(opened.json().checkoutUrl);
    const session = await sessionOf(token);
    expect(session).toMatchObject({ contractId: null, payerId: agency.id, amountCents: 2_450_00, status: 'open' });
    expect([...session.invoiceIds].sort()).toEqual(due.map((invoice) => invoice.id).sort());

    const page = await publicClient(ctx.app).getCheckout(token);
    expect(page.json()).toMatchObject({
      customer: { name: 'Cardinal Media', email: agency.email },
      description: `Invoices ${bellaLast.number}, ${harborLast.number}, ${bellaNow.number}`,
      amount: 2450,
      status: 'open',
      returnUrl: '/portal',
    });

    const paid = await publicClient(ctx.app).pay(token, card());
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json()).toEqual({ redirectUrl: `/payment/success?checkout=${token}` });

    const ids = due.map((invoice) => invoice.id);
    expect((await invoicesIn(ids)).map((row) => [row.number, row.status, row.amountPaidCents])).toEqual([
      [bellaLast.number, 'paid', 1_000_00],
      [harborLast.number, 'paid', 450_00],
      [bellaNow.number, 'paid', 1_000_00],
    ]);
    const byInvoice = new Map((await paymentsOfInvoices(ids)).map((p) => [p.invoiceId, p]));
    expect(
      due.map((invoice) => {
        const p = byInvoice.get(invoice.id)!;
        return [invoice.number, p.amountCents, p.checkoutSessionId, p.provider, p.cardLast4];
      }),
    ).toEqual([
      [bellaLast.number, 1_000_00, session.id, 'builtin', '4242'],
      [harborLast.number, 450_00, session.id, 'builtin', '4242'],
      [bellaNow.number, 1_000_00, session.id, 'builtin', '4242'],
    ]);
    expect(byInvoice.size).toBe(3);

    // One receipt e-mail per invoice, to the agency's billing contact.
    const receipts = async () =>
      (
        await ctx.db
          .select({ to: outboxEmails.to, subject: outboxEmails.subject })
          .from(outboxEmails)
          .where(and(eq(outboxEmails.to, agency.email), like(outboxEmails.subject, 'Receipt for invoice %')))
      )
        .map((row) => row.subject)
        .sort();
    expect(await receipts()).toEqual(
      [
        `Receipt for invoice ${bellaLast.number}: $1,000.00 received`,
        `Receipt for invoice ${harborLast.number}: $450.00 received`,
        `Receipt for invoice ${bellaNow.number}: $1,000.00 received`,
      ].sort(),
    );

    // The success page's receipt: one for the checkout, naming its three invoices.
    const receipt = await ctx.app.inject({ method: 'GET', url: `/api/checkout/${token}/receipt` });
    expect(receipt.json()).toMatchObject({
      state: 'paid',
      contractId: null,
      payPageUrl: null,
      contractPageUrl: '/portal',
      receipt: { amount: 2450, amountDue: 0 },
    });
    expect(
      receipt
        .json()
        .receipt.invoices.map((row: { number: string }) => row.number)
        .sort(),
    ).toEqual([bellaLast.number, harborLast.number, bellaNow.number].sort());

    // A replayed confirmation changes nothing.
    const again = await publicClient(ctx.app).pay(token, card());
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ redirectUrl: `/payment/success?checkout=${token}` });
    expect(await paymentsOfInvoices(ids)).toHaveLength(3);
    expect(await receipts()).toHaveLength(3);
    expect((await invoicesIn(ids)).map((row) => row.amountPaidCents)).toEqual([1_000_00, 450_00, 1_000_00]);
    expect(await refundsOf(agency.id)).toEqual([]);

    // Nothing is due now: 409, and the portal offers no "Pay all due".
    const nothing = await payAll(agency.client);
    expect(nothing.statusCode).toBe(409);
    expect(nothing.json().message).toBe('Nothing is due on your invoices right now.');
    const after = await ctx.injectAs(agency.client, { method: 'GET', url: '/api/client/summary' });
    expect(after.json()).toMatchObject({ payAllCount: 0, payAllAmount: 0 });
  });

  it("never includes another customer's invoices", async () => {
    const { agency, bella, invoices: agencyInvoices } = await agencyWithThreeInvoices();
    // Bella's own contract, billed to Bella itself; and another agency's advertiser.
    const own = await billed(bella.id, bella.id, 300_00, monthStartFromToday(-1));
    const otherAgency = await party('Northwind Media', 'agency');
    const zephyr = await party('Zephyr Bikes', 'advertiser');
    const other = await billed(zephyr.id, otherAgency.id, 700_00, monthStartFromToday(-1));
    const invoiceOf = async (contractId: string) =>
      (await ctx.db.select().from(invoices).where(eq(invoices.contractId, contractId)))[0]!;

    const cases: [Signed, string[], number][] = [
      [agency.client, agencyInvoices.map((invoice) => invoice.id), 2_450_00],
      [bella.client, [(await invoiceOf(own.id)).id], 300_00],
      [otherAgency.client, [(await invoiceOf(other.id)).id], 700_00],
    ];
    for (const [who, expected, amountCents] of cases) {
      const opened = await payAll(who);
      expect(opened.statusCode, opened.body).toBe(200);
      const session = await sessionOf(checkoutToken(opened.json().checkoutUrl));
      expect([...session.invoiceIds].sort()).toEqual([...expected].sort());
      expect(session.amountCents).toBe(amountCents);
      expect(session.payerId).toBe(who.customerId);
    }
    // A client whose customer has nothing billed to it.
    const idle = await party('Quiet Advertiser', 'advertiser');
    const nothing = await payAll(idle.client);
    expect(nothing.statusCode).toBe(409);
    expect(nothing.json().message).toBe('Nothing is due on your invoices right now.');
  });

  it('gives an invoice paid meanwhile nothing, and refunds what no invoice took', async () => {
    const finance = await createTestUser(ctx.db, { role: 'finance' });
    const { agency, invoices: due } = await agencyWithThreeInvoices();
    const [bellaLast, harborLast, bellaNow] = due;
    const all = checkoutToken((await payAll(agency.client)).json().checkoutUrl);
    // Harbor's invoice is paid alone by Pay Now while the "Pay all due" checkout is open.
    const single = await payNow(agency.client, harborLast.id);
    expect(single.statusCode, single.body).toBe(200);
    expect((await publicClient(ctx.app).pay(checkoutToken(single.json().checkoutUrl), card())).statusCode).toBe(200);

    const paid = await publicClient(ctx.app).pay(all, card());
    expect(paid.statusCode, paid.body).toBe(200);
    const session = await sessionOf(all);
    expect(session.status).toBe('completed');
    const ids = due.map((invoice) => invoice.id);
    expect((await invoicesIn(ids)).map((row) => [row.number, row.status, row.totalCents, row.amountPaidCents])).toEqual(
      [
        [bellaLast.number, 'paid', 1_000_00, 1_000_00],
        [harborLast.number, 'paid', 450_00, 450_00],
        [bellaNow.number, 'paid', 1_000_00, 1_000_00],
      ],
    );
    const taken = (await paymentsOfInvoices(ids)).map((p) => [
      p.invoiceId,
      p.amountCents,
      p.checkoutSessionId === session.id,
    ]);
    expect(taken.sort()).toEqual(
      [
        [bellaLast.id, 1_000_00, true],
        [harborLast.id, 450_00, false],
        [bellaNow.id, 1_000_00, true],
      ].sort(),
    );
    const refunds = await refundsOf(agency.id);
    expect(refunds).toHaveLength(1);
    expect(refunds[0].after).toMatchObject({
      checkoutSessionId: session.id,
      amountCents: 450_00,
      method: 'card',
      provider: 'builtin',
      unapplied: true,
    });
    const told = await ctx.db
      .select({ title: notifications.title, body: notifications.body })
      .from(notifications)
      .where(
        and(
          eq(notifications.userId, finance.id),
          eq(notifications.dedupeKey, `payment_unapplied_refunded:${session.id}`),
        ),
      );
    expect(told).toEqual([
      {
        title: 'Pay all due: $450.00 refunded',
        body: '$450.00 of a $2,450.00 payment went to no invoice (paid meanwhile) and was refunded to the card.',
      },
    ]);

    // A replay refunds nothing more.
    expect((await publicClient(ctx.app).pay(all, card())).statusCode).toBe(200);
    expect(await refundsOf(agency.id)).toHaveLength(1);
    expect(await paymentsOfInvoices(ids)).toHaveLength(3);
  });
});

onlyOn('postgres', 'requests really run in parallel there, on several connections')(
  '"Pay all due" settling at the same moment as a Pay Now of one of its invoices',
  () => {
    it('never collects an invoice twice, and refunds what the Pay Now took first', async () => {
      for (let round = 0; round < 3; round++) {
        const { agency, invoices: due } = await agencyWithThreeInvoices();
        const harborLast = due[1];
        const all = checkoutToken((await payAll(agency.client)).json().checkoutUrl);
        const single = checkoutToken((await payNow(agency.client, harborLast.id)).json().checkoutUrl);
        const [allPaid, singlePaid] = await Promise.all([
          publicClient(ctx.app).pay(all, card()),
          publicClient(ctx.app).pay(single, card()),
        ]);
        expect(allPaid.statusCode, allPaid.body).toBe(200);
        expect([200, 409], singlePaid.body).toContain(singlePaid.statusCode);

        const ids = due.map((invoice) => invoice.id);
        for (const row of await invoicesIn(ids)) {
          expect(row.status).toBe('paid');
          expect(row.amountPaidCents).toBe(row.totalCents);
        }
        const taken = await paymentsOfInvoices(ids);
        expect(taken).toHaveLength(3);
        const refunded = (await refundsOf(agency.id)).map(
          (event) => (event.after as { amountCents: number }).amountCents,
        );
        if (singlePaid.statusCode === 200) {
          // The Pay Now settled first: Harbor's invoice is its, and the "Pay all due" gave its $450.00 back.
          expect(taken.find((p) => p.invoiceId === harborLast.id)!.checkoutSessionId).not.toBe(
            (await sessionOf(all)).id,
          );
          expect(refunded).toEqual([450_00]);
        } else {
          // The "Pay all due" settled first: the Pay Now was refused, nothing to give back.
          expect([
            'This checkout has expired. Go back to the payment page to start a new one.',
            'This invoice has already been paid.',
          ]).toContain(singlePaid.json().message);
          expect(refunded).toEqual([]);
        }
        // Money taken = money applied + money refunded, to the cent.
        const applied = taken.reduce((sum, p) => sum + p.amountCents, 0);
        expect(applied).toBe(2_450_00);
      }
    });
  },
);
