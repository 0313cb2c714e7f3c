import type { ContractSummary } from '@shared/contracts/contract-responses';
import type { Invoice } from '@shared/contracts/invoices';
import type { Report } from '@shared/contracts/reports';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../db/client';
import { auditEvents, contractPauses, contracts, invoices, notifications, outboxEmails } from '../../db/schema';
import { businessToday } from '../../lib/business-day';
import { createMailer } from '../../lib/mailer';
import { buildTestApp, type TestContext } from '../../test/app';
import { createBillableContract, setContractSettings, setTaxSettings } from '../../test/billing-factories';
import { createTestUser, type TestUser } from '../../test/factories';
import { createPayLinkContract } from '../../test/payment-factories';
import { runBilling } from '../billing/billing-run';
import { type DunningDeps, runDunning } from './dunning.service';

/**
 * Dunning (product.md section 14) through its job and the API: reminders at due + 3 and due + 10 days, the
 * pause for non-payment at due + 21, the resume when the overdue invoices are paid, and the billing of the
 * periods of that pause. Expected days, subjects and figures are written out by hand in each test.
 */

let ctx: TestContext;
let rep: TestUser & { token: string };
let deps: DunningDeps;
const BASE_URL = 'https://crm.example.test';

/** A calendar day `days` after `day` (a second, simple computation for the tests' own dates). */
const plus = (day: string, days: number) => {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};

beforeAll(async () => {
  ctx = await buildTestApp();
  rep = await ctx.signIn(await createTestUser(ctx.db, { role: 'sales' }));
  deps = {
    db: ctx.db,
    mailer: createMailer({ SMTP_URL: undefined, MAIL_FROM: 'AdCRM <billing@adcrm.local>' }),
    baseUrl: BASE_URL,
  };
});
afterAll(() => ctx.close());
beforeEach(async () => {
  await setTaxSettings(ctx.db, { defaultTaxRate: 0, taxIncluded: false, taxLabel: 'Tax' });
  await setContractSettings(ctx.db, { pausePaymentsAfterExpiry: true, gracePeriodsEndOfDays: 7 });
});

/** A monthly $100.00 portal contract of the rep, its first invoice issued on its start date (due 7 days later). */
async function billedContract(startDate: string, options: { payLink?: boolean } = {}) {
  const made: Awaited<ReturnType<typeof createBillableContract>> & { token?: string } = options.payLink
    ? await createPayLinkContract(ctx.db, { startDate, salesRepId: rep.id, lines: [{ unitPriceCents: 100_00 }] })
    : await createBillableContract(ctx.db, { startDate, salesRepId: rep.id, lines: [{ unitPriceCents: 100_00 }] });
  await runBilling(ctx.db, { contractId: made.contract.id, asOf: startDate, baseUrl: BASE_URL });
  const [first] = await invoicesOf(made.contract.id);
  return { ...made, first };
}

const invoicesOf = (contractId: string) =>
  ctx.db.select().from(invoices).where(eq(invoices.contractId, contractId)).orderBy(asc(invoices.periodStart));

async function mailsTo(email: string) {
  const rows = await ctx.db
    .select({ subject: outboxEmails.subject, text: outboxEmails.text, deliveryText: outboxEmails.deliveryText })
    .from(outboxEmails)
    .where(eq(outboxEmails.to, email))
    .orderBy(asc(outboxEmails.createdAt));
  return rows.filter((m) => m.subject.includes('eminder'));
}

const contractStatus = async (id: string) =>
  (
    await ctx.db
      .select({ status: contracts.status, reason: contracts.pauseReason })
      .from(contracts)
      .where(eq(contracts.id, id))
  )[0];

const customerEmail = async (customerId: string) =>
  (await ctx.injectAs('admin', { method: 'GET', url: `/api/customers/${customerId}` })).json().email as string;

describe('reminders', () => {
  it('go out at due + 3 and due + 10 days, once per invoice and step, with the portal link', async () => {
    const { first, customerId } = await billedContract('2026-03-02');
    expect(first.dueDate).toBe('2026-03-09');
    const email = await customerEmail(customerId);

    await runDunning(deps, { asOf: '2026-03-11' });
    expect(await mailsTo(email)).toEqual([]);

    await runDunning(deps, { asOf: '2026-03-12' });
    await runDunning(deps, { asOf: '2026-03-12' });
    let mails = await mailsTo(email);
    expect(mails.map((m) => m.subject)).toEqual([`Reminder: invoice ${first.number} is overdue`]);
    expect(mails[0].text).toContain('$100.00 is still unpaid');
    expect(mails[0].text).toContain(`Pay in the client portal: ${BASE_URL}/portal`);

    await runDunning(deps, { asOf: '2026-03-18' });
    expect(await mailsTo(email)).toHaveLength(1);
    await runDunning(deps, { asOf: '2026-03-19' });
    await runDunning(deps, { asOf: '2026-03-25' });
    mails = await mailsTo(email);
    expect(mails.map((m) => m.subject)).toEqual([
      `Reminder: invoice ${first.number} is overdue`,
      `Second reminder: invoice ${first.number} is 10 days overdue`,
    ]);
    // due 2026-03-09 + 21 days
    expect(mails[1].text).toContain('your advertising pauses on Mar 30, 2026');

    const audits = await ctx.db
      .select({ after: auditEvents.after })
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, first.id), eq(auditEvents.action, 'invoice.reminder_sent')))
      .orderBy(asc(auditEvents.createdAt));
    expect(audits.map((a) => a.after)).toEqual([
      { step: 'first_reminder', number: first.number, daysOverdue: 3 },
      { step: 'second_reminder', number: first.number, daysOverdue: 10 },
    ]);
  });

  it("carry the contract's pay link for a pay-link contract; the outbox keeps it hidden", async () => {
    const { first, customerId, token } = await billedContract('2026-03-03', { payLink: true });
    await runDunning(deps, { asOf: '2026-03-13' });
    const [mail] = await mailsTo(await customerEmail(customerId));
    expect(mail.subject).toBe(`Reminder: invoice ${first.number} is overdue`);
    expect(token).toBeTruthy();
    expect(mail.deliveryText).toContain(`Pay securely: ${BASE_URL}/p/${token}`);
    expect(mail.text).toContain(`Pay securely: ${BASE_URL}/p/[hidden]`);
    expect(mail.text).not.toContain(String(token));
  });

  it('a first run long after the due date catches up on both reminders, each once', async () => {
    const { first, customerId } = await billedContract('2026-03-04');
    await runDunning(deps, { asOf: '2026-03-25' });
    await runDunning(deps, { asOf: '2026-03-26' });
    expect((await mailsTo(await customerEmail(customerId))).map((m) => m.subject)).toEqual([
      `Reminder: invoice ${first.number} is overdue`,
      `Second reminder: invoice ${first.number} is 14 days overdue`,
    ]);
  });

  it('are not sent for a paid invoice, nor for a step set to 0', async () => {
    const paid = await billedContract('2026-03-05');
    const pay = await ctx.injectAs('finance', {
      method: 'POST',
      url: `/api/invoices/${paid.first.id}/payments`,
      payload: { amount: '100.00', method: 'check' },
    });
    expect(pay.statusCode).toBe(201);
    const off = await billedContract('2026-03-05');
    await setContractSettings(ctx.db, {
      pausePaymentsAfterExpiry: true,
      gracePeriodsEndOfDays: 7,
      firstReminderDays: 0,
      secondReminderDays: 10,
    });
    await runDunning(deps, { asOf: '2026-03-23' });
    expect(await mailsTo(await customerEmail(paid.customerId))).toEqual([]);
    expect((await mailsTo(await customerEmail(off.customerId))).map((m) => m.subject)).toEqual([
      `Second reminder: invoice ${off.first.number} is 11 days overdue`,
    ]);
  });
});

describe('the pause for non-payment', () => {
  it('pauses at due + 21, tells the rep and finance, stops billing, and shows on the contract, invoice and report', async () => {
    const { contract, first } = await billedContract('2026-01-05');
    // due 2026-01-12; + 21 = 2026-02-02
    await runDunning(deps, { asOf: '2026-02-01' });
    expect(await contractStatus(contract.id)).toEqual({ status: 'active', reason: null });
    await runDunning(deps, { asOf: '2026-02-02' });
    expect(await contractStatus(contract.id)).toEqual({ status: 'paused', reason: 'non_payment' });
    const [pause] = await ctx.db.select().from(contractPauses).where(eq(contractPauses.contractId, contract.id));
    expect(pause).toMatchObject({ pausedOn: '2026-02-02', resumedOn: null, reason: 'non_payment' });

    const finance = await ctx.as('finance');
    const notes = await ctx.db
      .select({ userId: notifications.userId, title: notifications.title })
      .from(notifications)
      .where(and(eq(notifications.entityId, contract.id), eq(notifications.type, 'contract_paused')));
    expect(notes).toEqual(
      expect.arrayContaining([
        { userId: rep.id, title: 'Contract paused for non-payment' },
        { userId: finance.id, title: 'Contract paused for non-payment' },
      ]),
    );

    // Paused: the billing run issues nothing for it (February's period waits for the resume).
    await runBilling(ctx.db, { contractId: contract.id, asOf: '2026-02-05', baseUrl: BASE_URL });
    expect(await invoicesOf(contract.id)).toHaveLength(1);

    const shown = (
      await ctx.injectAs('admin', { method: 'GET', url: `/api/contracts/${contract.id}` })
    ).json() as ContractSummary;
    expect(shown).toMatchObject({ status: 'paused', pauseReason: 'non_payment' });
    const invoice = (
      await ctx.injectAs('admin', { method: 'GET', url: `/api/invoices/${first.id}` })
    ).json() as Invoice;
    expect(invoice.dunningStage).toBe('contract_paused');
    const list = (
      await ctx.injectAs('admin', { method: 'GET', url: `/api/invoices?contractId=${contract.id}` })
    ).json() as Invoice[];
    expect(list.map((i) => i.dunningStage)).toEqual(['contract_paused']);
    const report = (
      await ctx.injectAs('admin', { method: 'GET', url: '/api/reports?range=current_month' })
    ).json() as Report;
    expect(report.alerts.overdueByStage.contract_paused).toBeGreaterThanOrEqual(1);
    expect(report.alerts.contractsPausedForNonPayment).toBeGreaterThanOrEqual(1);
    expect(
      report.alerts.overdueByStage.overdue +
        report.alerts.overdueByStage.first_reminder +
        report.alerts.overdueByStage.second_reminder +
        report.alerts.overdueByStage.contract_paused,
    ).toBe(report.alerts.overdueInvoices);
  });

  it('resumes when the overdue invoice is paid and bills the periods of the pause, due a week after issue', async () => {
    const today = businessToday();
    const start = plus(today, -75);
    const { contract, first } = await billedContract(start);
    const pausedOn = plus(start, 7 + 21);
    await runDunning(deps, { asOf: pausedOn });
    expect(await contractStatus(contract.id)).toEqual({ status: 'paused', reason: 'non_payment' });

    const pay = await ctx.injectAs('finance', {
      method: 'POST',
      url: `/api/invoices/${first.id}/payments`,
      payload: { amount: '100.00', method: 'wire' },
    });
    expect(pay.statusCode).toBe(201);
    expect(await contractStatus(contract.id)).toEqual({ status: 'active', reason: null });
    const [pause] = await ctx.db.select().from(contractPauses).where(eq(contractPauses.contractId, contract.id));
    expect(pause).toMatchObject({ pausedOn, resumedOn: today });

    // Start + 75 days covers two more monthly periods, both started during the pause: billed, due today + 7.
    const all = await invoicesOf(contract.id);
    expect(all.map((i) => i.periodIndex)).toEqual([0, 1, 2]);
    expect(all.slice(1).map((i) => i.dueDate)).toEqual([plus(today, 7), plus(today, 7)]);
    expect(all.slice(1).map((i) => i.totalCents)).toEqual([100_00, 100_00]);

    const resumedNotes = await ctx.db
      .select({ userId: notifications.userId })
      .from(notifications)
      .where(and(eq(notifications.entityId, contract.id), eq(notifications.type, 'contract_resumed')));
    expect(resumedNotes.map((n) => n.userId)).toContain(rep.id);

    // Nothing is overdue now: the next run leaves it running.
    await runDunning(deps);
    expect(await contractStatus(contract.id)).toEqual({ status: 'active', reason: null });
  });

  it('a manual pause still skips its periods, unlike the pause for non-payment', async () => {
    const today = businessToday();
    const start = plus(today, -75);
    const { contract } = await createBillableContract(ctx.db, {
      startDate: start,
      salesRepId: rep.id,
      lines: [{ unitPriceCents: 100_00 }],
    });
    await runBilling(ctx.db, { contractId: contract.id, asOf: start, baseUrl: BASE_URL });
    const pause = await ctx.injectAs('admin', { method: 'POST', url: `/api/contracts/${contract.id}/pause` });
    expect(pause.statusCode).toBe(200);
    expect(await contractStatus(contract.id)).toEqual({ status: 'paused', reason: 'manual' });
    // The overdue invoice of a manually paused contract never resumes it by itself.
    await runDunning(deps);
    expect(await contractStatus(contract.id)).toEqual({ status: 'paused', reason: 'manual' });
  });

  it('staff resuming by hand is not undone by the next run for the same invoice; 0 never pauses', async () => {
    const { contract } = await billedContract('2026-02-02');
    await runDunning(deps, { asOf: '2026-03-10' });
    expect(await contractStatus(contract.id)).toEqual({ status: 'paused', reason: 'non_payment' });
    const resume = await ctx.injectAs('admin', { method: 'POST', url: `/api/contracts/${contract.id}/resume` });
    expect(resume.statusCode).toBe(200);
    await runDunning(deps, { asOf: '2026-03-11' });
    expect((await contractStatus(contract.id)).status).toBe('active');

    await setContractSettings(ctx.db, {
      pausePaymentsAfterExpiry: true,
      gracePeriodsEndOfDays: 7,
      pauseAfterOverdueDays: 0,
    });
    const never = await billedContract('2026-02-03');
    await runDunning(deps, { asOf: '2026-06-30' });
    expect((await contractStatus(never.contract.id)).status).toBe('active');
  });
});

describe('the dunning settings', () => {
  const put = (payload: object) => ctx.injectAs('admin', { method: 'PUT', url: '/api/settings/contracts', payload });
  const get = async () => (await ctx.injectAs('admin', { method: 'GET', url: '/api/settings/contracts' })).json();

  it('default to 3, 10 and 21 days; a body without them keeps the saved values', async () => {
    expect(await get()).toEqual({
      pausePaymentsAfterExpiry: true,
      gracePeriodsEndOfDays: 7,
      firstReminderDays: 3,
      secondReminderDays: 10,
      pauseAfterOverdueDays: 21,
      // Inventory (product.md section 13): a sent contract holds its slots for 7 days.
      holdDays: 7,
      deliveryGraceDays: 3,
      ioTerms: expect.stringMatching(/^This insertion order is an agreement between the advertiser/),
      autopayChargeOn: 'due_date',
    });
    expect(
      (
        await put({
          pausePaymentsAfterExpiry: true,
          gracePeriodsEndOfDays: 7,
          firstReminderDays: 5,
          secondReminderDays: 15,
          pauseAfterOverdueDays: 30,
        })
      ).statusCode,
    ).toBe(200);
    const res = await put({ pausePaymentsAfterExpiry: false, gracePeriodsEndOfDays: 3 });
    expect(res.statusCode).toBe(200);
    expect(await get()).toEqual({
      pausePaymentsAfterExpiry: false,
      gracePeriodsEndOfDays: 3,
      firstReminderDays: 5,
      secondReminderDays: 15,
      pauseAfterOverdueDays: 30,
      holdDays: 7,
      deliveryGraceDays: 3,
      ioTerms: expect.stringMatching(/^This insertion order is an agreement between the advertiser/),
      autopayChargeOn: 'due_date',
    });
  });

  it.each([
    [{ firstReminderDays: 61 }, 'firstReminderDays', 'First reminder cannot exceed 60 days'],
    [{ secondReminderDays: -1 }, 'secondReminderDays', 'Second reminder cannot be negative'],
    [{ firstReminderDays: 2.5 }, 'firstReminderDays', 'First reminder must be a whole number of days'],
    [{ pauseAfterOverdueDays: 121 }, 'pauseAfterOverdueDays', 'Days before the pause cannot exceed 120 days'],
    [{ firstReminderDays: 'three' }, 'firstReminderDays', 'First reminder must be a number'],
    [
      { firstReminderDays: 10, secondReminderDays: 4 },
      'secondReminderDays',
      'The second reminder must come after the first',
    ],
  ])('refuse %j with a message and change nothing', async (change, field, message) => {
    const before = await get();
    const res = await put({ pausePaymentsAfterExpiry: true, gracePeriodsEndOfDays: 7, ...change });
    expect(res.statusCode).toBe(400);
    expect(res.json().fieldErrors[field]).toContain(message);
    expect(await get()).toEqual(before);
  });
});

describe('dunning on several instances at once', () => {
  it('sends each reminder once and pauses once (PostgreSQL: two connection pools)', async () => {
    const made = await Promise.all(['2025-06-02', '2025-06-03', '2025-06-04'].map((d) => billedContract(d)));
    const pool = (ctx.database as Database & { pool?: { options: { connectionString: string } } }).pool;
    const other: Database | null = pool ? await openDatabase({ url: pool.options.connectionString }) : null;
    const second: DunningDeps = { ...deps, db: other?.db ?? ctx.db };
    try {
      await Promise.all([
        runDunning(deps, { asOf: '2025-07-10' }),
        runDunning(second, { asOf: '2025-07-10' }),
        runDunning(deps, { asOf: '2025-07-10', contractId: made[0].contract.id }),
        runDunning(second, { asOf: '2025-07-10', contractId: made[1].contract.id }),
      ]);
    } finally {
      await other?.close();
    }
    for (const m of made) {
      expect(await mailsTo(await customerEmail(m.customerId))).toHaveLength(2);
      expect(await contractStatus(m.contract.id)).toEqual({ status: 'paused', reason: 'non_payment' });
    }
    const ids = made.map((m) => m.contract.id);
    expect(await ctx.db.select().from(contractPauses).where(inArray(contractPauses.contractId, ids))).toHaveLength(3);
    const notes = await ctx.db
      .select({ userId: notifications.userId, entityId: notifications.entityId })
      .from(notifications)
      .where(
        and(
          inArray(notifications.entityId, ids),
          eq(notifications.type, 'contract_paused'),
          eq(notifications.userId, rep.id),
        ),
      );
    expect(notes).toHaveLength(3);
  });
});
