import type { CreditNote, CustomerCredit } from '@shared/contracts/credit-notes';
import type { Invoice } from '@shared/contracts/invoices';
import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditEvents, commissions, customers, invoices, notifications, outboxEmails } from '../../db/schema';
import { buildTestApp, type TestContext } from '../../test/app';
import { createBillableContract, setContractSettings, setTaxSettings } from '../../test/billing-factories';
import { createTestUser, type TestUser } from '../../test/factories';
import { runBilling } from '../billing/billing-run';

/**
 * Credit notes and the customer's credit balance through the API (product.md section 14). Expected figures
 * are worked out by hand in each test (literal cents), never by the code under test.
 */

let ctx: TestContext;
type Signed = TestUser & { token: string };
let rep: Signed;
const BASE_URL = 'https://crm.example.test';

beforeAll(async () => {
  ctx = await buildTestApp();
  rep = await ctx.signIn(await createTestUser(ctx.db, { role: 'sales', commissionRateBp: 1000 }));
});
afterAll(() => ctx.close());
beforeEach(async () => {
  await setTaxSettings(ctx.db, { defaultTaxRate: 0, taxIncluded: false, taxLabel: 'Tax' });
  await setContractSettings(ctx.db, { pausePaymentsAfterExpiry: true, gracePeriodsEndOfDays: 7 });
});

/** A monthly $100.00 contract of the rep, billed by the real billing run up to asOf. */
async function billed(options: { startDate?: string; asOf?: string; priceCents?: number; customerId?: string } = {}) {
  const startDate = options.startDate ?? '2026-03-01';
  const made = await createBillableContract(ctx.db, {
    startDate,
    salesRepId: rep.id,
    customerId: options.customerId,
    lines: [{ unitPriceCents: options.priceCents ?? 100_00 }],
  });
  await runBilling(ctx.db, { contractId: made.contract.id, asOf: options.asOf ?? startDate, baseUrl: BASE_URL });
  const rows = await ctx.db
    .select()
    .from(invoices)
    .where(eq(invoices.contractId, made.contract.id))
    .orderBy(asc(invoices.periodStart));
  return { ...made, invoices: rows };
}

const credit = (invoiceId: string, payload: unknown, who: Parameters<TestContext['injectAs']>[0] = 'finance') =>
  ctx.injectAs(who, { method: 'POST', url: `/api/invoices/${invoiceId}/credit-notes`, payload: payload as object });
const pay = (invoiceId: string, amount: string) =>
  ctx.injectAs('finance', {
    method: 'POST',
    url: `/api/invoices/${invoiceId}/payments`,
    payload: { amount, method: 'check' },
  });
const voidIt = (invoiceId: string) =>
  ctx.injectAs('finance', { method: 'POST', url: `/api/invoices/${invoiceId}/void`, payload: { reason: 'Canceled' } });
const invoice = async (id: string) =>
  (await ctx.injectAs('admin', { method: 'GET', url: `/api/invoices/${id}` })).json() as Invoice;
const creditOf = async (customerId: string) =>
  (
    await ctx.injectAs('finance', { method: 'GET', url: `/api/customers/${customerId}/credit` })
  ).json() as CustomerCredit;
async function commissionRows(invoiceId: string) {
  const rows = await ctx.db
    .select({ kind: commissions.kind, amount: commissions.amountCents })
    .from(commissions)
    .where(eq(commissions.invoiceId, invoiceId))
    .orderBy(asc(commissions.createdAt));
  return rows.map((r) => [r.kind, r.amount]);
}

describe('a partial credit note', () => {
  it('lowers the amount due, is numbered in its own series, e-mailed, notified and audited', async () => {
    const { invoices: billedInvoices, customerId } = await billed();
    const [first] = billedInvoices;
    const res = await credit(first.id, { amount: '30.00', reason: 'Two days of the banner were missing' });
    expect(res.statusCode).toBe(201);
    const note = res.json() as CreditNote;
    expect(note).toMatchObject({
      kind: 'partial',
      reason: 'Two days of the banner were missing',
      invoiceId: first.id,
      invoiceNumber: first.number,
      customerId,
      amount: 30,
      tax: 0,
      appliedToInvoice: 30,
      toCreditBalance: 0,
    });
    expect(note.number).toMatch(/^CN-\d{4}-\d{6}$/);

    expect(await invoice(first.id)).toMatchObject({
      status: 'pending',
      total: 100,
      amountPaid: 0,
      credited: 30,
      creditable: 70,
      amountDue: 70,
      creditNotes: [expect.objectContaining({ id: note.id, amount: 30 })],
    });
    const [mail] = await ctx.db
      .select()
      .from(outboxEmails)
      .where(and(eq(outboxEmails.entity, 'credit_note'), eq(outboxEmails.entityId, note.id)));
    expect(mail.subject).toBe(`Credit note ${note.number} for invoice ${first.number}`);
    const notices = await ctx.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, rep.id), eq(notifications.entityId, note.id)));
    expect(notices.map((n) => [n.type, n.title, n.link])).toEqual([
      ['credit_note_issued', 'Credit note issued', `/customers/${customerId}`],
    ]);
    const audits = await ctx.db.select().from(auditEvents).where(eq(auditEvents.entityId, note.id));
    expect(audits.map((a) => a.action)).toEqual(['credit_note.issued']);
  });

  it('credit notes run on consecutively, whatever invoice they credit', async () => {
    const a = await billed();
    const b = await billed();
    const numbers: string[] = [];
    for (const id of [a.invoices[0].id, b.invoices[0].id, a.invoices[0].id]) {
      numbers.push(((await credit(id, { amount: 1, reason: 'Goodwill' })).json() as CreditNote).number);
    }
    const values = numbers.map((n) => Number(n.slice(8)));
    expect(values).toEqual([values[0], values[0] + 1, values[0] + 2]);
  });

  it('refuses bad input and credits beyond what remains, changing nothing', async () => {
    const [first] = (await billed()).invoices;
    await credit(first.id, { amount: 60, reason: 'Goodwill' });
    const cases: [unknown, number, string][] = [
      [{ amount: 0, reason: 'x' }, 400, 'Amount must be greater than zero'],
      [{ amount: -5, reason: 'x' }, 400, 'Amount must be greater than zero'],
      [{ amount: 'ten', reason: 'x' }, 400, 'Enter an amount in dollars, like 1250.00'],
      [{ amount: 10 }, 400, 'Please give a reason for the credit'],
      [{ amount: 10, reason: '   ' }, 400, 'Please give a reason for the credit'],
      [{ amount: '40.01', reason: 'x' }, 400, 'Amount cannot exceed what remains to credit on this invoice ($40.00)'],
    ];
    for (const [payload, status, message] of cases) {
      const res = await credit(first.id, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      expect(JSON.stringify(res.json())).toContain(message);
    }
    expect(await invoice(first.id)).toMatchObject({ credited: 60, creditable: 40, amountDue: 40 });
    expect((await credit(first.id, { amount: 40, reason: 'The rest' })).statusCode).toBe(201);
    const full = await credit(first.id, { amount: 1, reason: 'More' });
    expect(full.statusCode).toBe(409);
    expect(full.json().message).toBe('This invoice is already fully credited.');
  });

  it('is for finance and admins only, and not on a void invoice', async () => {
    const [first] = (await billed()).invoices;
    for (const role of ['sales', 'sales_manager', 'client'] as const) {
      expect((await credit(first.id, { amount: 1, reason: 'x' }, role)).statusCode).toBe(403);
    }
    expect((await credit(first.id, { amount: 1, reason: 'x' }, 'admin')).statusCode).toBe(201);
    expect((await voidIt(first.id)).statusCode).toBe(200);
    const res = await credit(first.id, { amount: 1, reason: 'x' });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('This invoice is void. It cannot be credited.');
  });

  it('settles an unpaid invoice when it covers what is due; the rep earns on what remains', async () => {
    const [first] = (await billed()).invoices;
    expect((await pay(first.id, '60.00')).statusCode).toBe(201);
    const note = (await credit(first.id, { amount: 40, reason: 'Discount agreed' })).json() as CreditNote;
    expect(note).toMatchObject({ appliedToInvoice: 40, toCreditBalance: 0 });
    expect(await invoice(first.id)).toMatchObject({ status: 'paid', amountPaid: 60, credited: 40, amountDue: 0 });
    // 10% of ($100.00 - $40.00 credited).
    expect(await commissionRows(first.id)).toEqual([['earned', 6_00]]);
  });
});

describe('credit beyond the amount due: the customer credit balance', () => {
  it('on a paid invoice goes to the balance, takes back its share of commission, and pays the next invoice', async () => {
    const { invoices: billedInvoices, customerId, contract } = await billed({ startDate: '2026-04-01' });
    const [first] = billedInvoices;
    await pay(first.id, '100.00');
    expect(await commissionRows(first.id)).toEqual([['earned', 10_00]]);

    const note = (
      await credit(first.id, { amount: '40.00', reason: 'Spot ran at the wrong hour' })
    ).json() as CreditNote;
    expect(note).toMatchObject({ appliedToInvoice: 0, toCreditBalance: 40 });
    expect(await invoice(first.id)).toMatchObject({ status: 'paid', amountPaid: 100, credited: 40, amountDue: 0 });
    expect(await commissionRows(first.id)).toEqual([
      ['earned', 10_00],
      ['credit', -4_00],
    ]);
    expect((await creditOf(customerId)).balance).toBe(40);

    // The next period's invoice: the balance pays $40.00 of it.
    await runBilling(ctx.db, { contractId: contract.id, asOf: '2026-05-01', baseUrl: BASE_URL });
    const [, second] = await ctx.db
      .select()
      .from(invoices)
      .where(eq(invoices.contractId, contract.id))
      .orderBy(asc(invoices.periodStart));
    expect(await invoice(second.id)).toMatchObject({
      status: 'pending',
      amountPaid: 40,
      creditApplied: 40,
      amountDue: 60,
      payments: [expect.objectContaining({ method: 'credit', amount: 40 })],
    });
    const after = await creditOf(customerId);
    expect(after.balance).toBe(0);
    expect(after.entries.map((e) => [e.kind, e.amount, e.creditNoteNumber, e.invoiceNumber])).toEqual([
      ['applied', -40, null, second.number],
      ['credit', 40, note.number, first.number],
    ]);
  });

  it('a balance larger than the next invoice pays it in full (commission earned) and keeps the rest', async () => {
    const {
      invoices: billedInvoices,
      customerId,
      contract,
    } = await billed({ startDate: '2026-06-01', priceCents: 50_00 });
    const [first] = billedInvoices;
    await pay(first.id, '50.00');
    const other = await billed({ startDate: '2026-06-01', customerId, priceCents: 200_00 });
    await pay(other.invoices[0].id, '200.00');
    await credit(other.invoices[0].id, { amount: '80.00', reason: 'Campaign paused by us' });
    expect((await creditOf(customerId)).balance).toBe(80);

    await runBilling(ctx.db, { contractId: contract.id, asOf: '2026-07-01', baseUrl: BASE_URL });
    const [, second] = await ctx.db
      .select()
      .from(invoices)
      .where(eq(invoices.contractId, contract.id))
      .orderBy(asc(invoices.periodStart));
    expect(await invoice(second.id)).toMatchObject({ status: 'paid', amountPaid: 50, creditApplied: 50, amountDue: 0 });
    expect(await commissionRows(second.id)).toEqual([['earned', 5_00]]);
    expect((await creditOf(customerId)).balance).toBe(30);
  });

  it('finance refunds it, never more than the balance', async () => {
    const { invoices: billedInvoices, customerId } = await billed();
    const [first] = billedInvoices;
    await pay(first.id, '100.00');
    await credit(first.id, { amount: 25, reason: 'Goodwill' });
    const refund = (payload: unknown, who: Parameters<TestContext['injectAs']>[0] = 'finance') =>
      ctx.injectAs(who, {
        method: 'POST',
        url: `/api/customers/${customerId}/credit-refunds`,
        payload: payload as object,
      });
    expect((await refund({ amount: 5, method: 'check' }, 'sales')).statusCode).toBe(403);
    const above = await refund({ amount: '25.01', method: 'check' });
    expect(above.statusCode).toBe(400);
    expect(above.json().message).toBe('Amount cannot exceed the credit balance ($25.00)');
    expect((await refund({ amount: 10, method: 'bitcoin' })).statusCode).toBe(400);
    const ok = await refund({ amount: '10.00', method: 'check', reference: 'Check 1001' });
    expect(ok.statusCode).toBe(200);
    expect((ok.json() as CustomerCredit).balance).toBe(15);
    expect((await refund({ amount: 15, method: 'wire' })).json().balance).toBe(0);
    const none = await refund({ amount: 1, method: 'wire' });
    expect(none.statusCode).toBe(409);
    expect(none.json().message).toBe('This customer has no credit balance to refund.');
    const entries = (await creditOf(customerId)).entries;
    expect(entries.map((e) => [e.kind, e.amount, e.method, e.reference])).toEqual([
      ['refunded', -15, 'wire', null],
      ['refunded', -10, 'check', 'Check 1001'],
      ['credit', 25, null, null],
    ]);
  });
});

describe('voiding an invoice', () => {
  it('issues a credit note for what remained uncredited and refunds only what was not credited before', async () => {
    const { invoices: billedInvoices, customerId } = await billed();
    const [first] = billedInvoices;
    await pay(first.id, '100.00');
    await credit(first.id, { amount: 30, reason: 'Goodwill' });
    expect((await creditOf(customerId)).balance).toBe(30);

    expect((await voidIt(first.id)).statusCode).toBe(200);
    const after = await invoice(first.id);
    expect(after).toMatchObject({
      status: 'void',
      amountPaid: 100,
      refunded: 70,
      credited: 100,
      creditable: 0,
      amountDue: 0,
    });
    expect(after.creditNotes.map((n) => [n.kind, n.amount, n.appliedToInvoice, n.toCreditBalance])).toEqual([
      ['partial', 30, 0, 30],
      ['void', 70, 70, 0],
    ]);
    // $100.00 back in all: $70.00 refunded, $30.00 on the balance.
    expect((await creditOf(customerId)).balance).toBe(30);
    // Earned $10.00, the credit took back $3.00, the void the remaining $7.00.
    expect(await commissionRows(first.id)).toEqual([
      ['earned', 10_00],
      ['credit', -3_00],
      ['reversal', -7_00],
    ]);
  });

  it('an invoice the credit balance paid gives the credit back to the balance', async () => {
    const { invoices: billedInvoices, customerId, contract } = await billed({ startDate: '2026-08-01' });
    const [first] = billedInvoices;
    await pay(first.id, '100.00');
    await credit(first.id, { amount: 100, reason: 'Nothing ran' });
    await runBilling(ctx.db, { contractId: contract.id, asOf: '2026-09-01', baseUrl: BASE_URL });
    const [, second] = await ctx.db
      .select()
      .from(invoices)
      .where(eq(invoices.contractId, contract.id))
      .orderBy(asc(invoices.periodStart));
    expect(await invoice(second.id)).toMatchObject({ status: 'paid', creditApplied: 100 });
    expect((await creditOf(customerId)).balance).toBe(0);

    await voidIt(second.id);
    expect(await invoice(second.id)).toMatchObject({ status: 'void', refunded: 100, credited: 100 });
    const { balance, entries } = await creditOf(customerId);
    expect(balance).toBe(100);
    expect(entries.map((e) => [e.kind, e.amount])).toEqual([
      ['unapplied', 100],
      ['applied', -100],
      ['credit', 100],
    ]);
  });
});

describe('reading credit notes', () => {
  it('by role: staff all, a rep its contracts, a client its own; with a PDF', async () => {
    const mine = await billed();
    const note = (await credit(mine.invoices[0].id, { amount: 12, reason: 'Goodwill' })).json() as CreditNote;
    const otherRep = await ctx.signIn(await createTestUser(ctx.db, { role: 'sales' }));
    const client = await ctx.signIn(await createTestUser(ctx.db, { role: 'client', customerId: mine.customerId }));
    const stranger = await ctx.signIn(
      await createTestUser(ctx.db, { role: 'client', customerId: (await billed()).customerId }),
    );

    const ids = async (who: Signed | 'finance', query = '') =>
      (
        (await ctx.injectAs(who, { method: 'GET', url: `/api/credit-notes?limit=100${query}` })).json() as CreditNote[]
      ).map((n) => n.id);
    expect(await ids('finance', `&invoiceId=${mine.invoices[0].id}`)).toEqual([note.id]);
    expect(await ids(rep)).toContain(note.id);
    expect(await ids(otherRep)).not.toContain(note.id);
    expect(await ids(client)).toEqual([note.id]);
    expect(await ids(stranger)).toEqual([]);
    expect((await ctx.injectAs(stranger, { method: 'GET', url: `/api/credit-notes/${note.id}` })).statusCode).toBe(404);
    expect(
      (await ctx.injectAs(stranger, { method: 'GET', url: `/api/customers/${mine.customerId}/credit` })).statusCode,
    ).toBe(404);
    expect(
      (await ctx.injectAs(client, { method: 'GET', url: `/api/customers/${mine.customerId}/credit` })).statusCode,
    ).toBe(200);
    const search = await ctx.injectAs('finance', { method: 'GET', url: `/api/credit-notes?q=${note.number}` });
    expect(search.headers['x-total-count']).toBe('1');

    const pdf = await ctx.injectAs(client, { method: 'GET', url: `/api/credit-notes/${note.id}/pdf` });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toBe(`attachment; filename="${note.number}.pdf"`);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('the customer answer carries its credit balance', async () => {
    const { invoices: billedInvoices, customerId } = await billed();
    const [first] = billedInvoices;
    await pay(first.id, '100.00');
    await credit(first.id, { amount: '12.34', reason: 'Goodwill' });
    const res = await ctx.injectAs('admin', { method: 'GET', url: `/api/customers/${customerId}` });
    expect(res.json().creditBalance).toBe(12.34);
    const [row] = await ctx.db
      .select({ balance: customers.creditBalanceCents })
      .from(customers)
      .where(eq(customers.id, customerId));
    expect(row.balance).toBe(12_34);
    const [{ sum }] = await ctx.db
      .execute<{ sum: string }>(
        sql`select sum(amount_cents)::text as sum from customer_credit_entries where customer_id = ${customerId}`,
      )
      .then((r) => (r as unknown as { rows: { sum: string }[] }).rows);
    expect(sum).toBe('1234');
  });
});
