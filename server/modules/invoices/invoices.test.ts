import type { ContractSchedule, Invoice, InvoiceSummary } from '@shared/contracts/invoices';
import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  auditEvents,
  commissions,
  contractPauses,
  invoices,
  notifications,
  outboxEmails,
  payments,
} from '../../db/schema';
import { buildTestApp, type TestContext } from '../../test/app';
import { createBillableContract, setContractSettings, setTaxSettings } from '../../test/billing-factories';
import { createTestCustomer } from '../../test/catalog-factories';
import { createTestUser, type TestUser } from '../../test/factories';
import { pdfText } from '../../test/pdf';
import { runBilling } from '../billing/billing-run';
import { applyPayment, recordFailedPayment } from '../payments/payments.service';
import { renderInvoicePdf } from './invoices.pdf';

let ctx: TestContext;
type Signed = TestUser & { token: string };
let repA: Signed;
let repB: Signed;

beforeAll(async () => {
  ctx = await buildTestApp();
  repA = await ctx.signIn(await createTestUser(ctx.db, { role: 'sales', commissionRateBp: 1000 }));
  repB = await ctx.signIn(await createTestUser(ctx.db, { role: 'sales', commissionRateBp: 500 }));
});
afterAll(() => ctx.close());
beforeEach(async () => {
  await setTaxSettings(ctx.db, { defaultTaxRate: 0, taxIncluded: false, taxLabel: 'Tax' });
  await setContractSettings(ctx.db, { pausePaymentsAfterExpiry: true, gracePeriodsEndOfDays: 7 });
});

/** A billed contract: its invoices issued by the real billing run up to asOf. */
async function billed(options: Parameters<typeof createBillableContract>[1] & { asOf: string }) {
  const made = await createBillableContract(ctx.db, options);
  await runBilling(ctx.db, { contractId: made.contract.id, asOf: options.asOf, baseUrl: 'https://crm.example.test' });
  const rows = await ctx.db
    .select()
    .from(invoices)
    .where(eq(invoices.contractId, made.contract.id))
    .orderBy(asc(invoices.periodStart));
  return { ...made, invoices: rows };
}

async function clientOf(customerId: string) {
  return ctx.signIn(await createTestUser(ctx.db, { role: 'client', customerId }));
}

const pay = (id: string, payload: Record<string, unknown>, who: Parameters<TestContext['injectAs']>[0] = 'finance') =>
  ctx.injectAs(who, { method: 'POST', url: `/api/invoices/${id}/payments`, payload });

describe('reading invoices by role', () => {
  let mine: Awaited<ReturnType<typeof billed>>;
  let theirs: Awaited<ReturnType<typeof billed>>;
  let client: Signed;

  beforeAll(async () => {
    mine = await billed({
      startDate: '2025-01-10',
      salesRepId: repA.id,
      title: 'Winter pre-roll',
      lines: [{ quantity: 2, unitPriceCents: 100_00, discountCents: 5_00 }],
      setupFeeCents: 50_00,
      asOf: '2025-03-10',
    });
    theirs = await billed({
      startDate: '2025-01-10',
      salesRepId: repB.id,
      lines: [{ unitPriceCents: 80_00 }],
      asOf: '2025-02-10',
    });
    client = await clientOf(mine.customerId);
  });

  it('answers an invoice with its figures in dollars, amount = total, lines and payments', async () => {
    const response = await ctx.injectAs('finance', { method: 'GET', url: `/api/invoices/${mine.invoices[0].id}` });
    expect(response.statusCode).toBe(200);
    const invoice: Invoice = response.json();
    expect(invoice).toMatchObject({
      id: mine.invoices[0].id,
      number: mine.invoices[0].number,
      contractId: mine.contract.id,
      customerId: mine.customerId,
      periodStart: '2025-01-10',
      periodEnd: '2025-02-09',
      dueDate: '2025-01-17',
      status: 'pending',
      subtotal: 245,
      setupFee: 50,
      tax: 0,
      taxLabel: 'Tax',
      taxRate: 0,
      taxIncluded: false,
      total: 245,
      amount: 245,
      amountPaid: 0,
      amountDue: 245,
      paidAt: null,
      overdue: true,
      contractTitle: 'Winter pre-roll',
      payments: [],
    });
    expect(invoice.customerName).toMatch(/^Customer /);
    expect(invoice.lines.map((l) => [l.kind, l.quantity, l.unitPrice, l.discount, l.amount])).toEqual([
      ['product', 2, 100, 5, 195],
      ['setup_fee', 1, 50, 0, 50],
    ]);
  });

  it('finance and admin-level see every invoice; a sales rep only their contracts; a client only its customer', async () => {
    const all = new Set([...mine.invoices, ...theirs.invoices].map((i) => i.id));
    for (const role of ['finance', 'admin', 'super_admin', 'sales_manager'] as const) {
      const listed: InvoiceSummary[] = (
        await ctx.injectAs(role, { method: 'GET', url: '/api/invoices?limit=500' })
      ).json();
      for (const id of all)
        expect(
          listed.map((i) => i.id),
          role,
        ).toContain(id);
    }
    const asRep: InvoiceSummary[] = (
      await ctx.injectAs(repA, { method: 'GET', url: '/api/invoices?limit=500' })
    ).json();
    expect(asRep.map((i) => i.id).sort()).toEqual(mine.invoices.map((i) => i.id).sort());
    const asClient: InvoiceSummary[] = (await ctx.injectAs(client, { method: 'GET', url: '/api/invoices' })).json();
    expect(asClient.map((i) => i.id).sort()).toEqual(mine.invoices.map((i) => i.id).sort());
    const portal = await ctx.injectAs(client, { method: 'GET', url: '/api/client/invoices' });
    expect(portal.statusCode).toBe(200);
    expect(portal.headers['x-total-count']).toBe('3');
    expect(portal.json().every((i: InvoiceSummary) => i.amount === i.total)).toBe(true);
    // A client account not linked to a customer sees nothing.
    const unlinked = await ctx.injectAs('client', { method: 'GET', url: '/api/invoices' });
    expect(unlinked.json()).toEqual([]);
  });

  it('answers 404 for an invoice the caller may not see, on detail and PDF alike', async () => {
    const other = theirs.invoices[0].id;
    const otherClient = await clientOf((await createTestCustomer(ctx.db)).id);
    for (const who of [repA, client, otherClient]) {
      for (const url of [`/api/invoices/${other}`, `/api/invoices/${other}/pdf`]) {
        const response = await ctx.injectAs(who, { method: 'GET', url });
        expect(response.statusCode, `${who.role} ${url}`).toBe(404);
        expect(response.json().message).toBe('Invoice not found');
      }
    }
    expect((await ctx.injectAs(repB, { method: 'GET', url: `/api/invoices/${other}` })).statusCode).toBe(200);
    expect(
      (await ctx.injectAs(client, { method: 'GET', url: `/api/invoices/${mine.invoices[1].id}` })).statusCode,
    ).toBe(200);
  });

  it('filters by contract, customer, status, overdue, number or customer name, and period; pages with X-Total-Count', async () => {
    const list = async (query: string) => {
      const response = await ctx.injectAs('finance', { method: 'GET', url: `/api/invoices?${query}` });
      expect(response.statusCode, response.body).toBe(200);
      return { rows: response.json() as InvoiceSummary[], total: Number(response.headers['x-total-count']) };
    };
    const byContract = await list(`contractId=${mine.contract.id}`);
    expect(byContract.total).toBe(3);
    expect(byContract.rows.map((r) => r.periodStart)).toEqual(['2025-03-10', '2025-02-10', '2025-01-10']);
    expect((await list(`customerId=${theirs.customerId}`)).rows.map((r) => r.id)).toEqual(
      theirs.invoices.map((i) => i.id).reverse(),
    );
    const paged = await list(`contractId=${mine.contract.id}&limit=1&offset=1`);
    expect([paged.total, paged.rows.length, paged.rows[0].periodStart]).toEqual([3, 1, '2025-02-10']);
    expect((await list(`q=${mine.invoices[1].number.toLowerCase()}`)).rows.map((r) => r.id)).toEqual([
      mine.invoices[1].id,
    ]);
    const byName = await list(
      `q=${encodeURIComponent(mine.invoices[0].customerId ? await customerName(mine.customerId) : '')}`,
    );
    expect(byName.rows.map((r) => r.id).sort()).toEqual(mine.invoices.map((i) => i.id).sort());
    const period = await list(`contractId=${mine.contract.id}&periodFrom=2025-02-01&periodTo=2025-02-28`);
    expect(period.rows.map((r) => r.periodStart)).toEqual(['2025-02-10']);

    await pay(mine.invoices[0].id, { amount: 245, method: 'check', reference: '1001' });
    expect((await list(`contractId=${mine.contract.id}&status=paid`)).rows.map((r) => r.id)).toEqual([
      mine.invoices[0].id,
    ]);
    const overdue = await list(`contractId=${mine.contract.id}&overdue=true`);
    expect(overdue.rows.map((r) => r.periodStart)).toEqual(['2025-03-10', '2025-02-10']);
    expect(overdue.rows.every((r) => r.overdue)).toBe(true);
    const bad = await ctx.injectAs('finance', { method: 'GET', url: '/api/invoices?status=late&periodFrom=yesterday' });
    expect(bad.statusCode).toBe(400);
  });

  async function customerName(id: string): Promise<string> {
    return (await ctx.injectAs('finance', { method: 'GET', url: `/api/customers/${id}` })).json().name;
  }
});

describe('manual payments', () => {
  it('takes partial payments, then the rest; the invoice is paid once; more is refused', async () => {
    const {
      invoices: [invoice],
      contract,
    } = await billed({
      startDate: '2025-06-01',
      salesRepId: repA.id,
      lines: [{ unitPriceCents: 300_00 }],
      setupFeeCents: 100_00,
      asOf: '2025-06-01',
    });
    const first = await pay(invoice.id, {
      amount: '150.25',
      method: 'check',
      reference: 'CHK 4471',
      paidAt: '2025-06-05',
    });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({ status: 'pending', amountPaid: 150.25, amountDue: 249.75, paidAt: null });
    expect(first.json().payments).toHaveLength(1);
    expect(first.json().payments[0]).toMatchObject({
      amount: 150.25,
      method: 'check',
      provider: 'manual',
      reference: 'CHK 4471',
    });
    expect(first.json().payments[0].paidAt.slice(0, 10)).toBe('2025-06-05');

    const over = await pay(invoice.id, { amount: 249.76, method: 'wire' });
    expect(over.statusCode).toBe(400);
    expect(over.json().message).toContain('Amount cannot exceed the amount due');
    expect(over.json().message).toContain('$249.75');

    const rest = await pay(invoice.id, { amount: 249.75, method: 'wire', reference: 'FT-88' });
    expect(rest.statusCode).toBe(201);
    expect(rest.json()).toMatchObject({ status: 'paid', amountPaid: 400, amountDue: 0 });
    expect(rest.json().paidAt).not.toBeNull();

    const again = await pay(invoice.id, { amount: 1, method: 'cash' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('This invoice is already paid.');

    // Commission once, on the subtotal without the setup fee, at the rep's 10%.
    const earned = await ctx.db.select().from(commissions).where(eq(commissions.invoiceId, invoice.id));
    expect(earned.map((c) => [c.kind, c.status, c.amountCents, c.repId])).toEqual([
      ['earned', 'available', 30_00, repA.id],
    ]);
    // Audit: both payments and the invoice becoming paid.
    const audit = await ctx.db.select().from(auditEvents).where(eq(auditEvents.action, 'invoice.paid'));
    expect(audit.filter((a) => a.entityId === invoice.id)).toHaveLength(1);
    const [finance] = await ctx.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.entityId, invoice.id), eq(notifications.userId, repA.id)))
      .orderBy(asc(notifications.createdAt));
    expect(finance.type).toBe('payment_received');
    // One receipt per payment.
    const receipts = await ctx.db
      .select()
      .from(outboxEmails)
      .where(and(eq(outboxEmails.entityId, invoice.id), sql`${outboxEmails.subject} like 'Receipt%'`));
    expect(receipts).toHaveLength(2);
    expect(contract.id).toBeTruthy();
  });

  it('refuses bad bodies with field messages', async () => {
    const {
      invoices: [invoice],
    } = await billed({ startDate: '2025-06-01', lines: [{ unitPriceCents: 10_00 }], asOf: '2025-06-01' });
    const cases: [Record<string, unknown>, string][] = [
      [{ method: 'check' }, 'Amount is required'],
      [{ amount: 0, method: 'check' }, 'Amount must be greater than zero'],
      [{ amount: -5, method: 'check' }, 'Amount must be greater than zero'],
      [{ amount: '1.234', method: 'check' }, 'Enter an amount in dollars, like 1250.00'],
      [{ amount: 5, method: 'card' }, 'Payment method is required'],
      [{ amount: 5, method: 'check', paidAt: '2999-01-01' }, 'The payment date cannot be in the future'],
      [{ amount: 5, method: 'check', paidAt: '2025-02-30' }, 'Enter a valid date (YYYY-MM-DD)'],
    ];
    for (const [body, message] of cases) {
      const response = await pay(invoice.id, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().message, JSON.stringify(body)).toContain(message);
    }
    expect((await pay('00000000-0000-4000-8000-000000000000', { amount: 1, method: 'cash' })).statusCode).toBe(404);
  });

  it('concurrent payments never take more than the total (real parallel requests on PostgreSQL)', async () => {
    const {
      invoices: [invoice],
    } = await billed({ startDate: '2025-07-01', lines: [{ unitPriceCents: 100_00 }], asOf: '2025-07-01' });
    const responses = await Promise.all(
      Array.from({ length: 8 }, () => pay(invoice.id, { amount: 30, method: 'cash' })),
    );
    const statuses = responses.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([201, 201, 201, 400, 400, 400, 400, 400]);
    const [row] = await ctx.db.select().from(invoices).where(eq(invoices.id, invoice.id));
    expect([row.amountPaidCents, row.status]).toEqual([90_00, 'pending']);
    const rows = await ctx.db.select().from(payments).where(eq(payments.invoiceId, invoice.id));
    expect(rows).toHaveLength(3);

    const finals = await Promise.all(Array.from({ length: 5 }, () => pay(invoice.id, { amount: 10, method: 'cash' })));
    // The winner pays it in full; the others find it paid.
    expect(finals.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409, 409]);
    const [paid] = await ctx.db.select().from(invoices).where(eq(invoices.id, invoice.id));
    expect([paid.amountPaidCents, paid.status]).toEqual([100_00, 'paid']);
  });
});

describe('the payments core (used by the checkout)', () => {
  it('applies a provider payment once: a replay is a duplicate, five at once pay once', async () => {
    const {
      invoices: [invoice],
    } = await billed({
      startDate: '2025-08-01',
      salesRepId: repB.id,
      lines: [{ unitPriceCents: 120_00 }],
      asOf: '2025-08-01',
    });
    const input = {
      invoiceId: invoice.id,
      amountCents: 120_00,
      method: 'card' as const,
      provider: 'builtin' as const,
      providerPaymentId: 'pi_test_once',
      cardBrand: 'visa',
      cardLast4: '4242',
    };
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, () => ctx.db.transaction((tx) => applyPayment(tx, input))),
    );
    const fulfilled = results
      .filter((r) => r.status === 'fulfilled')
      .map((r) => (r as PromiseFulfilledResult<Awaited<ReturnType<typeof applyPayment>>>).value);
    // Each confirmation either applied it, found it already applied, or (racing the one that did) met the paid invoice.
    expect(fulfilled.filter((r) => !r.duplicate && r.becamePaid)).toHaveLength(1);
    const replay = await ctx.db.transaction((tx) => applyPayment(tx, input));
    expect([replay.duplicate, replay.becamePaid, replay.invoice.status]).toEqual([true, false, 'paid']);
    const rows = await ctx.db.select().from(payments).where(eq(payments.invoiceId, invoice.id));
    expect(rows.map((p) => [p.status, p.amountCents, p.cardLast4])).toEqual([['succeeded', 120_00, '4242']]);
    const earned = await ctx.db.select().from(commissions).where(eq(commissions.invoiceId, invoice.id));
    expect(earned).toHaveLength(1);
  });

  it('a declined card records a failed attempt and marks the invoice failed; a later payment pays it', async () => {
    const {
      invoices: [invoice],
    } = await billed({ startDate: '2025-08-01', lines: [{ unitPriceCents: 60_00 }], asOf: '2025-08-01' });
    const failed = await ctx.db.transaction((tx) =>
      recordFailedPayment(tx, {
        invoiceId: invoice.id,
        amountCents: 60_00,
        method: 'card',
        provider: 'builtin',
        providerPaymentId: 'pi_declined_1',
        cardBrand: 'visa',
        cardLast4: '0002',
        failureMessage: 'Your card was declined.',
      }),
    );
    expect([failed.duplicate, failed.payment.status, failed.invoice.status]).toEqual([false, 'failed', 'failed']);
    const view: Invoice = (await ctx.injectAs('finance', { method: 'GET', url: `/api/invoices/${invoice.id}` })).json();
    expect(view).toMatchObject({ status: 'failed', amountPaid: 0, amountDue: 60 });
    expect(view.payments[0]).toMatchObject({
      status: 'failed',
      failureMessage: 'Your card was declined.',
      cardLast4: '0002',
    });
    const ok = await pay(invoice.id, { amount: 60, method: 'check' });
    expect(ok.json()).toMatchObject({ status: 'paid', amountDue: 0 });
  });
});

describe('void and refund', () => {
  it('voids a pending invoice once', async () => {
    const {
      invoices: [invoice],
    } = await billed({ startDate: '2025-09-01', lines: [{ unitPriceCents: 10_00 }], asOf: '2025-09-01' });
    const empty = await ctx.injectAs('finance', {
      method: 'POST',
      url: `/api/invoices/${invoice.id}/void`,
      payload: { reason: ' ' },
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('Please give a reason for voiding the invoice');
    const voided = await ctx.injectAs('finance', {
      method: 'POST',
      url: `/api/invoices/${invoice.id}/void`,
      payload: { reason: 'Billed in error' },
    });
    expect(voided.statusCode).toBe(200);
    expect(voided.json()).toMatchObject({
      status: 'void',
      voidReason: 'Billed in error',
      amountDue: 0,
      refunded: 0,
      overdue: false,
    });
    const twice = await ctx.injectAs('admin', {
      method: 'POST',
      url: `/api/invoices/${invoice.id}/void`,
      payload: { reason: 'again' },
    });
    expect(twice.statusCode).toBe(409);
    const payVoid = await pay(invoice.id, { amount: 1, method: 'cash' });
    expect(payVoid.statusCode).toBe(409);
    expect(payVoid.json().message).toBe('This invoice is void.');
  });

  it('voids a paid invoice as a refund: refund rows, commission reversed, the customer told', async () => {
    const {
      invoices: [invoice],
    } = await billed({
      startDate: '2025-09-01',
      salesRepId: repA.id,
      lines: [{ unitPriceCents: 200_00 }],
      asOf: '2025-09-01',
    });
    await pay(invoice.id, { amount: 50, method: 'check' });
    await pay(invoice.id, { amount: 150, method: 'wire' });
    const voided = await ctx.injectAs('super_admin', {
      method: 'POST',
      url: `/api/invoices/${invoice.id}/void`,
      payload: { reason: 'Campaign did not run' },
    });
    expect(voided.statusCode).toBe(200);
    const body: Invoice = voided.json();
    expect(body).toMatchObject({ status: 'void', amountPaid: 200, refunded: 200, amountDue: 0 });
    expect(
      body.payments
        .filter((p) => p.kind === 'refund')
        .map((p) => [p.amount, p.method])
        .sort(),
    ).toEqual([
      [150, 'wire'],
      [50, 'check'],
    ]);
    const ledger = await ctx.db
      .select()
      .from(commissions)
      .where(eq(commissions.invoiceId, invoice.id))
      .orderBy(asc(commissions.kind));
    expect(ledger.map((c) => [c.kind, c.status, c.amountCents])).toEqual([
      ['earned', 'available', 20_00],
      ['reversal', 'adjusted', -20_00],
    ]);
    const [mail] = await ctx.db
      .select()
      .from(outboxEmails)
      .where(and(eq(outboxEmails.entityId, invoice.id), sql`${outboxEmails.subject} like '%voided%'`));
    expect(mail.subject).toBe(`Invoice ${invoice.number} voided and refunded`);
    expect(mail.text).toContain('Refund: $200.00');
    const audit = await ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, invoice.id), eq(auditEvents.action, 'invoice.refunded')));
    expect(audit).toHaveLength(1);
  });

  it('is refused to roles without invoice:manage', async () => {
    const {
      invoices: [invoice],
    } = await billed({
      startDate: '2025-09-01',
      salesRepId: repA.id,
      lines: [{ unitPriceCents: 1_00 }],
      asOf: '2025-09-01',
    });
    for (const who of [repA, await ctx.as('sales_manager')]) {
      expect(
        (await ctx.injectAs(who, { method: 'POST', url: `/api/invoices/${invoice.id}/void`, payload: { reason: 'x' } }))
          .statusCode,
      ).toBe(403);
      expect((await pay(invoice.id, { amount: 1, method: 'cash' }, who)).statusCode).toBe(403);
    }
  });
});

/** The PDF's drawn text and its info strings (title, author), as a reader would search it. */
const readPdf = (bytes: Buffer) => pdfText(bytes, { withRaw: true });

describe('PDF', () => {
  it('is a real PDF with the business, number, customer, period, lines, tax and total; PAID when paid', async () => {
    await setTaxSettings(ctx.db, { defaultTaxRate: 8.25, taxIncluded: false, taxLabel: 'Sales tax' });
    const {
      invoices: [invoice],
      customerId,
    } = await billed({
      startDate: '2025-10-03',
      salesRepId: repA.id,
      lines: [{ quantity: 3, unitPriceCents: 40_00, seasonalPriceCents: 55_00 }],
      asOf: '2025-10-03',
    });
    const client = await clientOf(customerId);
    const response = await ctx.injectAs(client, { method: 'GET', url: `/api/invoices/${invoice.id}/pdf` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="${invoice.number}.pdf"`);
    expect(response.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const text = readPdf(response.rawPayload);
    const name = (await ctx.injectAs('finance', { method: 'GET', url: `/api/customers/${customerId}` })).json().name;
    // 3 x 55.00 in season = 165.00; 8.25% = 13.6125 -> 13.61
    for (const expected of [
      'AdCRM Media',
      invoice.number,
      name,
      'Oct 3, 2025 to Nov 2, 2025',
      'Due date',
      'Oct 10, 2025',
      '(seasonal price)',
      '$165.00',
      'Sales tax (8.25%)',
      '$13.61',
      '$178.61',
    ]) {
      expect(text, expected).toContain(expected);
    }
    expect(text).not.toContain('PAID');
    const payment = await pay(invoice.id, { amount: 178.61, method: 'check' });
    expect(payment.statusCode, payment.body).toBe(201);
    expect(payment.json().status).toBe('paid');
    const paid = await ctx.injectAs(repA, { method: 'GET', url: `/api/invoices/${invoice.id}/pdf` });
    expect(paid.statusCode).toBe(200);
    expect(readPdf(paid.rawPayload)).toContain('PAID');
  });

  it('stamps VOID, and renders readable without compression', async () => {
    const {
      invoices: [invoice],
    } = await billed({ startDate: '2025-10-03', lines: [{ unitPriceCents: 10_00 }], asOf: '2025-10-03' });
    const voided: Invoice = (
      await ctx.injectAs('finance', {
        method: 'POST',
        url: `/api/invoices/${invoice.id}/void`,
        payload: { reason: 'Duplicate' },
      })
    ).json();
    const pdf = await renderInvoicePdf(
      {
        letterhead: {
          company: {
            legalName: 'Northwind Ads',
            address: { street: null, city: null, state: null, zip: null, country: null },
            phone: null,
            billingEmail: null,
            website: null,
            taxId: null,
            paymentInstructions: null,
            invoiceFooter: null,
          },
          logo: null,
        },
        invoice: voided,
        customer: {
          name: 'Acme',
          email: 'a@example.test',
          company: null,
          address: null,
          city: null,
          state: null,
          zipCode: null,
          country: null,
        },
        contractName: 'Test',
        today: '2025-10-03',
        pay: null,
      },
      { compress: false },
    );
    const raw = pdf.toString('latin1');
    expect(raw.startsWith('%PDF-')).toBe(true);
    expect(raw).not.toContain('FlateDecode');
    const text = readPdf(pdf);
    expect(text).toContain('Northwind Ads');
    expect(text).toContain('VOID');
    expect(text).toContain(invoice.number);
  });
});

describe('schedule', () => {
  it('previews the first 12 periods of a contract not yet billing, in season marked, stopping at the term end', async () => {
    await setTaxSettings(ctx.db, { defaultTaxRate: 10, taxIncluded: false, taxLabel: 'Tax' });
    const { contract } = await createBillableContract(ctx.db, {
      startDate: '2030-08-31',
      status: 'sent',
      termMonths: 6,
      salesRepId: repA.id,
      setupFeeCents: 20_00,
      lines: [{ unitPriceCents: 100_00, seasonalPriceCents: 150_00 }],
      packagePriceCents: 50_00,
    });
    const response = await ctx.injectAs(repA, { method: 'GET', url: `/api/contracts/${contract.id}/schedule` });
    expect(response.statusCode).toBe(200);
    const schedule: ContractSchedule = response.json();
    expect(schedule).toMatchObject({ stopsOn: '2031-02-28', taxRate: 10, taxLabel: 'Tax' });
    expect(schedule.items.map((i) => [i.periodStart, i.subtotal, i.tax, i.total, i.inSeason])).toEqual([
      ['2030-08-31', 170, 17, 187, false],
      ['2030-09-30', 150, 15, 165, false],
      ['2030-10-31', 200, 20, 220, true],
      ['2030-11-30', 200, 20, 220, true],
      ['2030-12-31', 200, 20, 220, true],
      ['2031-01-31', 150, 15, 165, false],
    ]);
    expect(
      (await ctx.injectAs(repB, { method: 'GET', url: `/api/contracts/${contract.id}/schedule` })).statusCode,
    ).toBe(404);
  });

  it('shows 12 periods from the current one for a billing contract, and month to month without a stop', async () => {
    await setContractSettings(ctx.db, { pausePaymentsAfterExpiry: false, gracePeriodsEndOfDays: 7 });
    const start = '2025-01-15';
    const { contract } = await createBillableContract(ctx.db, {
      startDate: start,
      termMonths: 3,
      lines: [{ unitPriceCents: 10_00 }],
    });
    await runBilling(ctx.db, { contractId: contract.id });
    const schedule: ContractSchedule = (
      await ctx.injectAs('finance', { method: 'GET', url: `/api/contracts/${contract.id}/schedule` })
    ).json();
    expect(schedule.stopsOn).toBeNull();
    expect(schedule.items).toHaveLength(12);
    const today = new Date().toISOString().slice(0, 10);
    expect(schedule.items[0].periodStart <= today).toBe(true);
    expect(schedule.items[1].periodStart > today).toBe(true);
    expect(schedule.items[0].invoice?.number).toMatch(/^INV-/);
    expect(schedule.items[1].invoice).toBeNull();
  });
});

describe('contract lifecycle hooks', () => {
  it('activations racing whole billing runs issue each period once (parallel on PostgreSQL)', async () => {
    const drafts = [];
    for (let i = 0; i < 6; i++) {
      drafts.push(
        (
          await createBillableContract(ctx.db, {
            startDate: '2026-03-20',
            status: 'draft',
            salesRepId: repA.id,
            lines: [{ unitPriceCents: 10_00 + i }],
          })
        ).contract.id,
      );
    }
    const responses = await Promise.all([
      ...drafts.map((id) => ctx.injectAs(repA, { method: 'POST', url: `/api/contracts/${id}/activate` })),
      runBilling(ctx.db, { chunkSize: 2 }),
      runBilling(ctx.db, { chunkSize: 3 }),
    ]);
    for (const r of responses.slice(0, drafts.length)) expect((r as { statusCode: number }).statusCode).toBe(200);
    await runBilling(ctx.db);
    const today = new Date().toISOString().slice(0, 10);
    // Every 20th of a month from March 2026 to today, however far today is.
    const expected: string[] = [];
    for (let n = 0; ; n++) {
      const d = new Date(Date.UTC(2026, 2 + n, 20)).toISOString().slice(0, 10);
      if (d > today) break;
      expected.push(d);
    }
    for (const id of drafts) {
      const rows = await ctx.db
        .select()
        .from(invoices)
        .where(eq(invoices.contractId, id))
        .orderBy(asc(invoices.periodStart));
      expect(rows.map((r) => r.periodStart)).toEqual(expected);
      const [{ mails }] = await ctx.db
        .select({ mails: sql<number>`count(*)::int` })
        .from(outboxEmails)
        .where(sql`${outboxEmails.entityId} in (select id::text from invoices where contract_id = ${id})`);
      expect(mails).toBe(expected.length);
    }
  });

  it('activating a contract bills its past periods at once; pause and resume record the interval', async () => {
    const customer = await createTestCustomer(ctx.db);
    const product = (
      await ctx.injectAs('admin', {
        method: 'POST',
        url: '/api/products',
        payload: { name: 'Lifecycle banner', adType: 'banner', defaultPrice: 40, priceMetric: 'monthly' },
      })
    ).json();
    const created = await ctx.injectAs(repA, {
      method: 'POST',
      url: '/api/contracts',
      payload: {
        customerId: customer.id,
        startDate: '2026-01-05',
        paymentMode: 'portal',
        sendToCustomer: false,
        lineItems: [{ productId: product.id, quantity: 1, unitPrice: 40, discount: 0 }],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id;
    const activated = await ctx.injectAs(repA, { method: 'POST', url: `/api/contracts/${id}/activate` });
    expect(activated.statusCode).toBe(200);
    const issued = await ctx.db.select().from(invoices).where(eq(invoices.contractId, id));
    const today = new Date().toISOString().slice(0, 10);
    // Every 5th of a month from January 2026 to today, however far today is.
    const expected: string[] = [];
    for (let n = 0; ; n++) {
      const d = new Date(Date.UTC(2026, n, 5)).toISOString().slice(0, 10);
      if (d > today) break;
      expected.push(d);
    }
    expect(issued.map((i) => i.periodStart).sort()).toEqual(expected);

    // Billing has started: the contract can no longer be edited or deleted, only canceled; invoices stay.
    const billed = (await ctx.injectAs(repA, { method: 'GET', url: `/api/contracts/${id}` })).json();
    expect(billed).toMatchObject({ canEdit: false, canDelete: false });
    expect(billed.stripeSubscriptionId).toMatch(/^sub_/);
    expect((await ctx.injectAs(repA, { method: 'DELETE', url: `/api/contracts/${id}` })).statusCode).toBe(409);

    expect((await ctx.injectAs(repA, { method: 'POST', url: `/api/contracts/${id}/pause` })).statusCode).toBe(200);
    const [open] = await ctx.db.select().from(contractPauses).where(eq(contractPauses.contractId, id));
    expect([open.pausedOn, open.resumedOn]).toEqual([today, null]);
    expect((await ctx.injectAs(repA, { method: 'POST', url: `/api/contracts/${id}/resume` })).statusCode).toBe(200);
    const [closed] = await ctx.db.select().from(contractPauses).where(eq(contractPauses.contractId, id));
    expect([closed.pausedOn, closed.resumedOn]).toEqual([today, today]);

    const canceled = await ctx.injectAs(repA, {
      method: 'POST',
      url: `/api/contracts/${id}/cancel`,
      payload: { reason: 'Budget cut' },
    });
    expect(canceled.statusCode).toBe(200);
    const deleted = await ctx.injectAs(repA, { method: 'DELETE', url: `/api/contracts/${id}` });
    expect(deleted.statusCode).toBe(409);
    expect(deleted.json().message).toBe(
      'This contract has invoices, so it is kept for the records and cannot be deleted.',
    );
  });
});
