import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agencyStatementRuns, auditEvents, creditNotes, invoices, outboxEmails } from '../../db/schema';
import { rowsOf } from '../../lib/db-rows';
import { buildTestApp, type TestContext } from '../../test/app';
import { createBillableContract, setContractSettings } from '../../test/billing-factories';
import { onlyOn } from '../../test/engine';
import { createTestUser } from '../../test/factories';
import { flatText, pdfText } from '../../test/pdf';
import { runBilling } from '../billing/billing-run';
import { sendMonthlyAgencyStatements } from './agency-statement.service';

/**
 * The agency statement (product.md section 20) over the API, with a hand-worked September 2026 of Cardinal Media,
 * the agency of two advertisers (business time zone UTC in tests):
 *
 *   Bella Notte (net 15%): $1,000 a month from Aug 1 -> invoices of $850.00 (commission $150.00), due the 8th.
 *   Harbor Books (gross 10%): $2,000 a month from Sep 5 -> invoices of $2,000.00 (commission $200.00), due the 12th.
 *
 *   Aug  1  invoice BN-Aug           +850.00
 *   Aug 20  payment on BN-Aug        -300.00                    opening balance Sep 1:   550.00
 *   Sep  1  invoice BN-Sep           +850.00     1,400.00
 *   Sep  5  invoice HB-Sep         +2,000.00     3,400.00
 *   Sep 10  credit note on BN-Aug    -100.00     3,300.00
 *   Sep 15  payment on HB-Sep      -2,000.00     1,300.00
 *   Sep 20  payment on BN-Sep        -200.00     1,100.00       closing balance Sep 30: 1,100.00
 *   Oct  1  invoices BN-Oct, HB-Oct (after the range: on no September statement)
 *
 *   At Sep 30: BN-Aug owes 450.00, 53 days past due (31-60); BN-Sep owes 650.00, 22 days past due (1-30).
 *   Commission: net deducted 150.00 (BN-Sep issued in the range), gross owed 200.00 (HB-Sep paid in it): 350.00.
 */
let ctx: TestContext;
const json = { 'content-type': 'application/json' };
const RANGE = 'from=2026-09-01&to=2026-09-30';

type Ids = { agency: string; bellaNotte: string; harbor: string; otherAgency: string; bn: string; hb: string };
const ids = {} as Ids;
const number = {} as Record<'bnAug' | 'bnSep' | 'hbSep', string>;

async function customer(name: string, kind: 'agency' | 'advertiser') {
  const response = await ctx.injectAs('admin', {
    method: 'POST',
    url: '/api/customers',
    headers: json,
    payload: { name, email: `${randomUUID().slice(0, 8)}@example.test`, kind },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id as string;
}

const invoiceOf = async (contractId: string, periodStart: string) =>
  (
    await ctx.db
      .select()
      .from(invoices)
      .where(and(eq(invoices.contractId, contractId), eq(invoices.periodStart, periodStart)))
  )[0];

async function pay(invoiceId: string, amount: number, paidAt: string) {
  const response = await ctx.injectAs('finance', {
    method: 'POST',
    url: `/api/invoices/${invoiceId}/payments`,
    headers: json,
    payload: { amount, method: 'check', reference: `CHK-${paidAt}`, paidAt },
  });
  expect(response.statusCode, response.body).toBe(201);
}

beforeAll(async () => {
  ctx = await buildTestApp();
  // Dunning runs by today's date: these invoices of last autumn would pause the contracts and send reminders.
  await setContractSettings(ctx.db, {
    pausePaymentsAfterExpiry: true,
    gracePeriodsEndOfDays: 7,
    firstReminderDays: 0,
    secondReminderDays: 0,
    pauseAfterOverdueDays: 0,
  });
  ids.agency = await customer('Cardinal Media', 'agency');
  ids.otherAgency = await customer('Other Agency', 'agency');
  ids.bellaNotte = await customer('Bella Notte Trattoria', 'advertiser');
  ids.harbor = await customer('Harbor Books', 'advertiser');
  const bn = await createBillableContract(ctx.db, {
    startDate: '2026-08-01',
    customerId: ids.bellaNotte,
    title: 'Trattoria autumn',
    lines: [{ unitPriceCents: 1000_00 }],
    billToCustomerId: ids.agency,
    agencyCommissionBp: 1500,
    agencyBillingMode: 'net',
  });
  const hb = await createBillableContract(ctx.db, {
    startDate: '2026-09-05',
    customerId: ids.harbor,
    title: 'Books pre-roll',
    lines: [{ unitPriceCents: 2000_00 }],
    billToCustomerId: ids.agency,
    agencyCommissionBp: 1000,
    agencyBillingMode: 'gross',
  });
  ids.bn = bn.contract.id;
  ids.hb = hb.contract.id;
  await runBilling(ctx.db, { asOf: '2026-08-01' });
  const bnAug = await invoiceOf(ids.bn, '2026-08-01');
  await pay(bnAug.id, 300, '2026-08-20');
  await runBilling(ctx.db, { asOf: '2026-09-01' });
  await runBilling(ctx.db, { asOf: '2026-09-05' });
  const bnSep = await invoiceOf(ids.bn, '2026-09-01');
  const hbSep = await invoiceOf(ids.hb, '2026-09-05');
  const credit = await ctx.injectAs('finance', {
    method: 'POST',
    url: `/api/invoices/${bnAug.id}/credit-notes`,
    headers: json,
    payload: { amount: 100, reason: 'Two spots missed' },
  });
  expect(credit.statusCode, credit.body).toBeLessThan(300);
  // Credit notes are dated when they are issued: this one is put on Sep 10.
  await ctx.db
    .update(creditNotes)
    .set({ issuedAt: new Date('2026-09-10T12:00:00Z') })
    .where(eq(creditNotes.invoiceId, bnAug.id));
  await pay(hbSep.id, 2000, '2026-09-15');
  await pay(bnSep.id, 200, '2026-09-20');
  await runBilling(ctx.db, { asOf: '2026-10-01' });
  Object.assign(number, { bnAug: bnAug.number, bnSep: bnSep.number, hbSep: hbSep.number });
}, 120_000);
afterAll(() => ctx.close());

const statement = (who: Parameters<TestContext['injectAs']>[0], query = RANGE, agency = ids.agency) =>
  ctx.injectAs(who, { method: 'GET', url: `/api/agencies/${agency}/statement?${query}` });

describe('the agency statement', () => {
  it('states the opening balance, each entry with its running balance, the closing balance, aging and commission', async () => {
    const response = await statement('finance');
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      agencyId: ids.agency,
      agencyName: 'Cardinal Media',
      from: '2026-09-01',
      to: '2026-09-30',
      openingBalance: 550,
      invoiced: 2850,
      credited: 100,
      paid: 2200,
      refunded: 0,
      closingBalance: 1100,
      aging: { current: 0, '1-30': 650, '31-60': 450, '61-90': 0, '90+': 0 },
      commission: { netDeducted: 150, grossOwed: 200, total: 350 },
    });
    const table = body.entries.map((e: Record<string, unknown>) => [
      e.date,
      e.kind,
      e.invoiceNumber,
      e.advertiserName,
      e.contractName,
      e.dueDate,
      e.amount,
      e.commission,
      e.commissionMode,
      e.balance,
    ]);
    expect(table).toEqual([
      [
        '2026-09-01',
        'invoice',
        number.bnSep,
        'Bella Notte Trattoria',
        'Trattoria autumn',
        '2026-09-08',
        850,
        150,
        'net',
        1400,
      ],
      ['2026-09-05', 'invoice', number.hbSep, 'Harbor Books', 'Books pre-roll', '2026-09-12', 2000, 200, 'gross', 3400],
      [
        '2026-09-10',
        'credit_note',
        number.bnAug,
        'Bella Notte Trattoria',
        'Trattoria autumn',
        '2026-08-08',
        -100,
        0,
        null,
        3300,
      ],
      ['2026-09-15', 'payment', number.hbSep, 'Harbor Books', 'Books pre-roll', '2026-09-12', -2000, 0, null, 1300],
      [
        '2026-09-20',
        'payment',
        number.bnSep,
        'Bella Notte Trattoria',
        'Trattoria autumn',
        '2026-09-08',
        -200,
        0,
        null,
        1100,
      ],
    ]);
    expect(body.entries[2].number).toMatch(/^CN-2026-\d{6}$/);
    expect(body.entries[3]).toMatchObject({ number: 'CHK-2026-09-15', method: 'check' });
  });

  it('reconciles: the closing balance is what the agency’s invoices still owe at `to`, recomputed from the tables', async () => {
    const end = '2026-10-01T00:00:00Z';
    // What is still due now on the invoices issued up to Sep 30 (nothing moved on them since).
    const [due] = rowsOf<{ cents: string }>(
      await ctx.db.execute(sql`
        select coalesce(sum(greatest(0, total_cents - amount_paid_cents - credited_cents)), 0) as cents
        from invoices where bill_to_customer_id = ${ids.agency} and status in ('pending', 'failed')
          and issued_at < ${end}::timestamptz`),
    );
    // The same from the movements: invoiced, less payments (plus refunds) and credit notes dated up to Sep 30.
    const [moved] = rowsOf<{ cents: string }>(
      await ctx.db.execute(sql`
        select (select sum(total_cents) from invoices where bill_to_customer_id = ${ids.agency}
                  and status <> 'void' and issued_at < ${end}::timestamptz)
             - (select coalesce(sum(case when p.kind = 'refund' then -p.amount_cents else p.amount_cents end), 0)
                  from payments p join invoices i on i.id = p.invoice_id
                  where i.bill_to_customer_id = ${ids.agency} and i.status <> 'void' and p.status = 'succeeded'
                    and p.paid_at < ${end}::timestamptz and i.issued_at < ${end}::timestamptz)
             - (select coalesce(sum(c.applied_cents), 0) from credit_notes c join invoices i on i.id = c.invoice_id
                  where i.bill_to_customer_id = ${ids.agency} and i.status <> 'void'
                    and c.issued_at < ${end}::timestamptz and i.issued_at < ${end}::timestamptz) as cents`),
    );
    const body = (await statement('admin')).json();
    expect(Number(due.cents)).toBe(110_000);
    expect(Number(moved.cents)).toBe(110_000);
    expect(body.closingBalance * 100).toBe(Number(due.cents));
    expect(body.entries.at(-1).balance).toBe(body.closingBalance);
    const aged = Object.values(body.aging as Record<string, number>).reduce((a, b) => a + b, 0);
    expect(aged).toBe(body.closingBalance);
    // The next month opens where this one closed.
    expect((await statement('admin', 'from=2026-10-01&to=2026-10-31')).json().openingBalance).toBe(1100);
  });

  it('answers the CSV: the opening line, the entries, the closing line, aging and commission', async () => {
    const response = await statement('admin', `${RANGE}&format=csv`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename="statement-cardinal-media-2026-09-01-2026-09-30.csv"',
    );
    const lines = response.body.split('\r\n');
    expect(lines[0]).toBe(
      'Date,Type,Number,Invoice,Advertiser,Contract,Issue Date,Due Date,Document Amount,Amount,Agency Commission,Commission Mode,Balance',
    );
    const creditNumber = (await statement('admin')).json().entries[2].number;
    expect(lines.slice(1, -1)).toEqual([
      '2026-09-01,Opening balance,,,,,,,,550.00,,,550.00',
      `2026-09-01,Invoice,${number.bnSep},${number.bnSep},Bella Notte Trattoria,Trattoria autumn,2026-09-01,2026-09-08,850.00,850.00,150.00,Net,1400.00`,
      `2026-09-05,Invoice,${number.hbSep},${number.hbSep},Harbor Books,Books pre-roll,2026-09-05,2026-09-12,2000.00,2000.00,200.00,Gross,3400.00`,
      `2026-09-10,Credit note,${creditNumber},${number.bnAug},Bella Notte Trattoria,Trattoria autumn,2026-08-01,2026-08-08,100.00,-100.00,,,3300.00`,
      `2026-09-15,Payment,CHK-2026-09-15,${number.hbSep},Harbor Books,Books pre-roll,2026-09-05,2026-09-12,2000.00,-2000.00,,,1300.00`,
      `2026-09-20,Payment,CHK-2026-09-20,${number.bnSep},Bella Notte Trattoria,Trattoria autumn,2026-09-01,2026-09-08,200.00,-200.00,,,1100.00`,
      '2026-09-30,Closing balance,,,,,,,,1100.00,,,1100.00',
      '2026-09-30,Aging: Current,,,,,,,,0.00,,,',
      '2026-09-30,Aging: 1–30 days,,,,,,,,650.00,,,',
      '2026-09-30,Aging: 31–60 days,,,,,,,,450.00,,,',
      '2026-09-30,Aging: 61–90 days,,,,,,,,0.00,,,',
      '2026-09-30,Aging: 90+ days,,,,,,,,0.00,,,',
      '2026-09-30,Commission deducted (net),,,,,,,,150.00,,,',
      '2026-09-30,"Commission owed (gross, paid invoices)",,,,,,,,200.00,,,',
      '2026-09-30,Commission total,,,,,,,,350.00,,,',
    ]);
    expect(lines.at(-1)).toBe('');
  });

  it('answers the PDF with the letterhead, the balances and the entries', async () => {
    const response = await statement('admin', `${RANGE}&format=pdf`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename="statement-cardinal-media-2026-09-01-2026-09-30.pdf"',
    );
    const text = flatText(pdfText(response.rawPayload));
    for (const expected of [
      'Statement',
      'Cardinal Media',
      'Sep 1, 2026 to Sep 30, 2026',
      'Opening balance',
      '$550.00',
      `Invoice ${number.bnSep}`,
      'Bella Notte Trattoria',
      '$2,000.00',
      '-$100.00',
      'Closing balance',
      '$1,100.00',
      '31–60 days',
      '$450.00',
      'Commission deducted (net)',
      '$350.00',
    ]) {
      expect(text, expected).toContain(expected);
    }
  });

  it('writes nothing when read', async () => {
    const before = await ctx.db.select({ n: sql<number>`count(*)::int` }).from(auditEvents);
    expect((await statement('admin')).statusCode).toBe(200);
    const after = await ctx.db.select({ n: sql<number>`count(*)::int` }).from(auditEvents);
    expect(after[0].n).toBe(before[0].n);
  });
});

describe('who may read a statement', () => {
  it('answers the agency’s client user, 404 to a rep of another customer, an advertiser’s user, another agency', async () => {
    const agencyUser = await ctx.signIn(await createTestUser(ctx.db, { role: 'client', customerId: ids.agency }));
    const advertiserUser = await ctx.signIn(
      await createTestUser(ctx.db, { role: 'client', customerId: ids.bellaNotte }),
    );
    const otherAgencyUser = await ctx.signIn(
      await createTestUser(ctx.db, { role: 'client', customerId: ids.otherAgency }),
    );
    const otherRep = await ctx.signIn(await createTestUser(ctx.db, { role: 'sales' }));
    expect((await statement(agencyUser)).statusCode).toBe(200);
    expect((await statement(agencyUser)).json().closingBalance).toBe(1100);
    expect((await statement(advertiserUser)).statusCode).toBe(404);
    expect((await statement(otherAgencyUser)).statusCode).toBe(404);
    expect((await statement(otherRep)).statusCode).toBe(404);
    // An advertiser is no agency: 404 even for finance.
    expect((await statement('finance', RANGE, ids.bellaNotte)).statusCode).toBe(404);
    // The rep of an agency's contract reads its statement (their own customer).
    const rep = await ctx.signIn(await createTestUser(ctx.db, { role: 'sales' }));
    await createBillableContract(ctx.db, {
      startDate: '2026-12-01',
      status: 'draft',
      customerId: ids.harbor,
      salesRepId: rep.id,
      billToCustomerId: ids.agency,
      agencyCommissionBp: 1000,
      agencyBillingMode: 'gross',
    });
    expect((await statement(rep)).statusCode).toBe(200);
  });

  it.each([
    ['from=2026-09-01', 'to'],
    ['to=2026-09-30', 'from'],
    ['from=2026-09-31&to=2026-10-01', 'from'],
    ['from=2026-10-01&to=2026-09-30', 'to'],
    ['from=2025-01-01&to=2026-01-02', 'to'],
    [`${RANGE}&format=xlsx`, 'format'],
  ])('refuses %s with 400 on %s', async (query, field) => {
    const response = await statement('admin', query);
    expect(response.statusCode, response.body).toBe(400);
    expect(Object.keys(response.json().fieldErrors ?? {})).toContain(field);
  });

  it('takes a full year (366 days)', async () => {
    expect((await statement('admin', 'from=2025-10-01&to=2026-10-01')).statusCode).toBe(200);
  });
});

const statementMails = () =>
  ctx.db
    .select()
    .from(outboxEmails)
    .where(and(eq(outboxEmails.entity, 'customer'), eq(outboxEmails.entityId, ids.agency)));

describe('the monthly statement e-mail', () => {
  it('sends each agency with activity its previous month once, with the PDF and the CSV attached', async () => {
    const deps = { db: ctx.db, storage: ctx.app.storage, today: '2026-10-01' };
    expect(await sendMonthlyAgencyStatements(deps)).toBe(1);
    expect(await sendMonthlyAgencyStatements(deps)).toBe(0);
    const mails = await statementMails();
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe('Statement for Cardinal Media: Sep 1, 2026 to Sep 30, 2026');
    expect(mails[0].text).toContain('Closing balance: $1,100.00');
    expect(mails[0].attachments?.map((a) => [a.filename, a.contentType])).toEqual([
      ['statement-cardinal-media-2026-09-01-2026-09-30.pdf', 'application/pdf'],
      ['statement-cardinal-media-2026-09-01-2026-09-30.csv', 'text/csv; charset=utf-8'],
    ]);
    const runs = await ctx.db.select().from(agencyStatementRuns).where(eq(agencyStatementRuns.agencyId, ids.agency));
    expect(runs.map((run) => run.month)).toEqual(['2026-09-01']);
    // The other agency had nothing to state: no run, no e-mail.
    expect(
      await ctx.db.select().from(agencyStatementRuns).where(eq(agencyStatementRuns.agencyId, ids.otherAgency)),
    ).toEqual([]);
  });
});

onlyOn('postgres', 'two runs really overlap there, on two connections')('two monthly runs at once', () => {
  it('sends the agency’s statement of the month once', async () => {
    const deps = { db: ctx.db, storage: ctx.app.storage, today: '2026-11-01' };
    const sent = await Promise.all([sendMonthlyAgencyStatements(deps), sendMonthlyAgencyStatements(deps)]);
    expect(sent.reduce((a, b) => a + b, 0)).toBe(1);
    const mails = await statementMails();
    expect(mails.filter((mail) => mail.subject.includes('Oct 1, 2026 to Oct 31, 2026'))).toHaveLength(1);
  });
});

describe('the monthly statements setting', () => {
  it('is on by default, read by staff, changed by admins', async () => {
    const get = async (who: 'finance' | 'sales') =>
      (await ctx.injectAs(who, { method: 'GET', url: '/api/settings/agencies' })).json();
    expect(await get('sales')).toEqual({ agencyStatementsMonthly: true });
    const put = (who: 'admin' | 'finance', payload: object) =>
      ctx.injectAs(who, { method: 'PUT', url: '/api/settings/agencies', headers: json, payload });
    expect((await put('finance', { agencyStatementsMonthly: false })).statusCode).toBe(403);
    expect((await put('admin', { agencyStatementsMonthly: 'no' })).statusCode).toBe(400);
    expect((await put('admin', { agencyStatementsMonthly: false })).json()).toEqual({ agencyStatementsMonthly: false });
    expect(await get('finance')).toEqual({ agencyStatementsMonthly: false });
  });
});
