import type { InvoiceTimeline } from '@shared/contracts/invoice-timeline';
import type { Role } from '@shared/roles';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoices } from '../../db/schema';
import { businessToday } from '../../lib/business-day';
import { createMailer, type Mailer } from '../../lib/mailer';
import { buildTestApp, type TestContext } from '../../test/app';
import { createBillableContract, setContractSettings, setTaxSettings } from '../../test/billing-factories';
import { createTestUser, type TestUser } from '../../test/factories';
import { type SmtpCatcher, startSmtp } from '../../test/smtp';
import { runBilling } from '../billing/billing-run';
import { runDunning } from '../dunning/dunning.service';

/**
 * GET /api/invoices/{id}/timeline: one invoice driven through the product's own paths (the billing run, the
 * mailer, dunning, a partial payment, a credit note, a void), its events read back in order, and who may
 * read them. Expected lists are written out by hand.
 */

let ctx: TestContext;
let smtp: SmtpCatcher;
let mailer: Mailer;
type Signed = TestUser & { token: string };
let repA: Signed;
let repB: Signed;
let client: Signed;
let otherClient: Signed;
let invoiceId: string;
let invoiceNumber: string;
const BASE_URL = 'https://crm.example.test';

/** A calendar day `days` after `day` (the test's own computation). */
const plus = (day: string, days: number) => {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** A calendar day as documents and e-mails write it ("Dec 9, 2026"; the test's own computation). */
const written = (day: string) =>
  `${MONTHS[Number(day.slice(5, 7)) - 1]} ${Number(day.slice(8, 10))}, ${day.slice(0, 4)}`;

const timeline = (who: Role | Signed, id = invoiceId) =>
  ctx.injectAs(who, { method: 'GET', url: `/api/invoices/${id}/timeline` });

beforeAll(async () => {
  ctx = await buildTestApp();
  smtp = await startSmtp();
  mailer = createMailer({ SMTP_URL: smtp.url, MAIL_FROM: 'AdCRM <billing@adcrm.local>' });
  await setTaxSettings(ctx.db, { defaultTaxRate: 0, taxIncluded: false, taxLabel: 'Tax' });
  await setContractSettings(ctx.db, { pausePaymentsAfterExpiry: true, gracePeriodsEndOfDays: 7 });
  repA = await ctx.signIn(await createTestUser(ctx.db, { role: 'sales', firstName: 'Rita', lastName: 'Rep' }));
  repB = await ctx.signIn(await createTestUser(ctx.db, { role: 'sales' }));
  const finance = await createTestUser(ctx.db, { role: 'finance', firstName: 'Fiona', lastName: 'Ledger' });
  const financeSigned = await ctx.signIn(finance);

  // Today's period of a $100.00 portal contract, issued by the billing run; its e-mail delivered over SMTP.
  const today = businessToday();
  const made = await createBillableContract(ctx.db, {
    startDate: today,
    salesRepId: repA.id,
    lines: [{ unitPriceCents: 100_00 }],
  });
  await runBilling(ctx.db, { contractId: made.contract.id, asOf: today, baseUrl: BASE_URL });
  const [invoice] = await ctx.db.select().from(invoices).where(eq(invoices.contractId, made.contract.id));
  invoiceId = invoice.id;
  invoiceNumber = invoice.number;
  expect(await mailer.deliverDue(ctx.db)).toBe(1);

  // Three days past its due date (today + 7): the first reminder, whose e-mail the run hands to this mailer
  // (delivered over SMTP: waited for here, so that it is sent whichever database runs the test). The app's own
  // mailer has no SMTP server: the receipt's and the credit note's e-mails below stay queued.
  await runDunning({ db: ctx.db, mailer, baseUrl: BASE_URL }, { asOf: plus(today, 10), contractId: made.contract.id });
  await mailer.idle();
  // A partial check payment, then a credit note, by finance through the API.
  const paid = await ctx.injectAs(financeSigned, {
    method: 'POST',
    url: `/api/invoices/${invoiceId}/payments`,
    payload: { amount: 40, method: 'check', reference: 'CHK-1001' },
  });
  expect(paid.statusCode, paid.body).toBe(201);
  const credited = await ctx.injectAs(financeSigned, {
    method: 'POST',
    url: `/api/invoices/${invoiceId}/credit-notes`,
    payload: { amount: 25, reason: 'Banner ran two days late' },
  });
  expect(credited.statusCode, credited.body).toBe(201);

  client = await ctx.signIn(await createTestUser(ctx.db, { role: 'client', customerId: made.customerId }));
  const other = await createBillableContract(ctx.db, { startDate: today, lines: [{ unitPriceCents: 10_00 }] });
  otherClient = await ctx.signIn(await createTestUser(ctx.db, { role: 'client', customerId: other.customerId }));
}, 180_000); // the whole story of an invoice, on a machine that may be busy

afterAll(async () => {
  await mailer.close();
  await smtp.close();
  await ctx.close();
});

describe('an invoice timeline', () => {
  it('lists issue, e-mails, reminder, payment and credit note in the order they happened', async () => {
    const response = await timeline('finance');
    expect(response.statusCode, response.body).toBe(200);
    const body: InvoiceTimeline = response.json();
    expect(body.invoiceId).toBe(invoiceId);
    const today = businessToday();
    const creditNote = body.events.find((e) => e.kind === 'credit_note')?.reference;
    expect(creditNote).toMatch(/^CN-\d{4}-\d{6}$/);
    expect(body.events.map((e) => [e.kind, e.amount, e.reference, e.detail, e.emailStatus, e.actor, e.day])).toEqual([
      ['issued', 100, null, null, null, null, today],
      ['emailed', null, null, `Invoice ${invoiceNumber}: $100.00 due ${written(plus(today, 7))}`, 'sent', null, today],
      ['reminder', null, 'first_reminder', null, null, null, today],
      ['emailed', null, null, `Reminder: invoice ${invoiceNumber} is overdue`, 'sent', null, today],
      ['payment', 40, 'check', null, null, 'Fiona Ledger', today],
      ['emailed', null, null, `Receipt for invoice ${invoiceNumber}: $40.00 received`, 'queued', null, today],
      ['credit_note', 25, creditNote, 'Banner ran two days late', null, 'Fiona Ledger', today],
      ['emailed', null, null, `Credit note ${creditNote} for invoice ${invoiceNumber}`, 'queued', null, today],
    ]);
    // Oldest first, and each event once.
    const moments = body.events.map((e) => e.at);
    expect([...moments].sort()).toEqual(moments);
    expect(new Set(body.events.map((e) => e.id)).size).toBe(body.events.length);
  });

  it('shows no message body and no link: only subjects', async () => {
    const text = (await timeline('admin')).body;
    expect(text).not.toContain('/portal');
    expect(text).not.toContain('Hello');
  });

  it('Resend queues the invoice e-mail again with what is due today; a voided invoice is not resent (409)', async () => {
    const resent = await ctx.injectAs('finance', { method: 'POST', url: `/api/invoices/${invoiceId}/resend` });
    expect(resent.statusCode, resent.body).toBe(200);
    expect(resent.json().message).toMatch(new RegExp(`^Invoice ${invoiceNumber} was e-mailed again to \\S+@`));
    const body: InvoiceTimeline = (await timeline('finance')).json();
    const last = body.events.at(-1);
    // $100.00 - $40.00 paid - $25.00 credited
    expect([last?.kind, last?.detail, last?.emailStatus]).toEqual([
      'emailed',
      `Invoice ${invoiceNumber}: $35.00 due ${written(plus(businessToday(), 7))}`,
      'queued',
    ]);
    expect((await ctx.injectAs(repA, { method: 'POST', url: `/api/invoices/${invoiceId}/resend` })).statusCode).toBe(
      403,
    );
    const unknown = await ctx.injectAs('finance', {
      method: 'POST',
      url: '/api/invoices/00000000-0000-4000-8000-000000000000/resend',
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('adds the void, its credit note and the refund of what was paid when the invoice is voided', async () => {
    // A second invoice of its own, paid in part and then voided, so the first test's list stays as it was.
    const today = businessToday();
    const made = await createBillableContract(ctx.db, {
      startDate: today,
      salesRepId: repA.id,
      lines: [{ unitPriceCents: 50_00 }],
    });
    await runBilling(ctx.db, { contractId: made.contract.id, asOf: today, baseUrl: BASE_URL });
    const [invoice] = await ctx.db
      .select()
      .from(invoices)
      .where(eq(invoices.contractId, made.contract.id))
      .orderBy(asc(invoices.periodStart));
    const finance = await ctx.as('finance');
    expect(
      (
        await ctx.injectAs(finance, {
          method: 'POST',
          url: `/api/invoices/${invoice.id}/payments`,
          payload: { amount: 20, method: 'wire' },
        })
      ).statusCode,
    ).toBe(201);
    const voided = await ctx.injectAs(finance, {
      method: 'POST',
      url: `/api/invoices/${invoice.id}/void`,
      payload: { reason: 'Billed in error' },
    });
    expect(voided.statusCode, voided.body).toBe(200);
    const body: InvoiceTimeline = (await timeline('finance', invoice.id)).json();
    expect(body.events.map((e) => [e.kind, e.amount, e.detail])).toEqual([
      ['issued', 50, null],
      ['emailed', null, `Invoice ${invoice.number}: $50.00 due ${written(plus(today, 7))}`],
      ['payment', 20, null],
      ['emailed', null, `Receipt for invoice ${invoice.number}: $20.00 received`],
      ['void', null, 'Billed in error'],
      ['credit_note', 50, 'Billed in error'],
      ['refund', 20, null],
      ['emailed', null, `Invoice ${invoice.number} voided and refunded`],
    ]);
    const again = await ctx.injectAs(finance, { method: 'POST', url: `/api/invoices/${invoice.id}/resend` });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('Only an unpaid invoice can be sent again.');
  });
});

describe('who reads an invoice timeline', () => {
  it.each([
    ['super_admin', 200],
    ['admin', 200],
    ['sales_manager', 200],
    ['finance', 200],
  ] as const)('%s: %i', async (role, status) => {
    expect((await timeline(role)).statusCode).toBe(status);
  });

  it("the contract's own sales rep reads it; another rep gets 404", async () => {
    expect((await timeline(repA)).statusCode).toBe(200);
    const other = await timeline(repB);
    expect(other.statusCode).toBe(404);
    expect(other.json().message).toBeTruthy();
  });

  it("the customer's client reads it without staff names and without e-mails not yet sent; another client 404", async () => {
    const response = await timeline(client);
    expect(response.statusCode).toBe(200);
    const body: InvoiceTimeline = response.json();
    expect(body.events.map((e) => [e.kind, e.emailStatus, e.actor])).toEqual([
      ['issued', null, null],
      ['emailed', 'sent', null],
      ['reminder', null, null],
      ['emailed', 'sent', null],
      ['payment', null, null],
      ['credit_note', null, null],
    ]);
    expect(response.body).not.toContain('Fiona');
    expect((await timeline(otherClient)).statusCode).toBe(404);
  });

  it('answers 401 signed out, 404 for a malformed or an unknown id', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: `/api/invoices/${invoiceId}/timeline` })).statusCode).toBe(401);
    const malformed = await timeline('finance', 'not-an-id');
    expect(malformed.statusCode).toBe(404);
    expect(malformed.json().message).toBeTruthy();
    const unknown = await timeline('finance', '00000000-0000-4000-8000-000000000000');
    expect(unknown.statusCode).toBe(404);
  });
});
