import fs from 'node:fs';
import path from 'node:path';
import type { DeliveryPeriod } from '@shared/contracts/delivery';
import type { Invoice } from '@shared/contracts/invoices';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  auditEvents,
  contractLineItems,
  creditNotes,
  customers,
  invoiceLines,
  invoices,
  lineDeliveries,
  notifications,
} from '../../db/schema';
import { businessToday } from '../../lib/business-day';
import { buildTestApp, type TestContext } from '../../test/app';
import { createBillableContract, setContractSettings, setTaxSettings } from '../../test/billing-factories';
import { createTestCustomer, createTestProduct } from '../../test/catalog-factories';
import { createTestUser, type TestUser } from '../../test/factories';
import { pdfText } from '../../test/pdf';
import { runBilling } from '../billing/billing-run';

/**
 * Delivery and proof of performance (product.md section 12) through the API: recording a period, the
 * credit and makegood remedies end to end, the lock once settled, the CSV import's all-or-nothing rule and
 * idempotence, and (PostgreSQL) concurrent imports settling each period once. Expected figures are worked
 * out by hand in each test.
 */

let ctx: TestContext;
let rep: TestUser & { token: string };
let otherRep: TestUser & { token: string };
const TODAY = businessToday();

beforeAll(async () => {
  ctx = await buildTestApp();
  rep = await ctx.signIn(await createTestUser(ctx.db, { role: 'sales' }));
  otherRep = await ctx.signIn(await createTestUser(ctx.db, { role: 'sales' }));
});
afterAll(() => ctx.close());
beforeEach(async () => {
  // 10% added on top: a credit carries the invoice's tax.
  await setTaxSettings(ctx.db, { defaultTaxRate: 10, taxIncluded: false, taxLabel: 'Tax' });
  await setContractSettings(ctx.db, { pausePaymentsAfterExpiry: true, gracePeriodsEndOfDays: 7 });
});

/**
 * An active contract of the rep: a CPM line of 500 thousand impressions a month at $12.00 per 1,000
 * ($6,000.00 a month) and a monthly $100.00 banner, billed from its start up to `asOf`.
 */
async function cpmContract(options: { startDate: string; asOf?: string; remedy?: 'credit' | 'makegood' }) {
  const made = await createBillableContract(ctx.db, {
    startDate: options.startDate,
    salesRepId: rep.id,
    underDeliveryRemedy: options.remedy,
    lines: [
      { quantity: 500, unitPriceCents: 12_00, priceMetric: 'cpm' },
      { quantity: 1, unitPriceCents: 100_00, priceMetric: 'monthly' },
    ],
  });
  await runBilling(ctx.db, { contractId: made.contract.id, asOf: options.asOf ?? TODAY });
  const lines = await ctx.db
    .select()
    .from(contractLineItems)
    .where(eq(contractLineItems.contractId, made.contract.id))
    .orderBy(asc(contractLineItems.position));
  const productName = async (productId: string) =>
    (await ctx.injectAs('admin', { method: 'GET', url: `/api/products/${productId}` })).json().name as string;
  return {
    ...made,
    cpm: lines[0],
    banner: lines[1],
    cpmName: await productName(lines[0].productId),
    bannerName: await productName(lines[1].productId),
  };
}

const put = (
  who: Parameters<TestContext['injectAs']>[0],
  contractId: string,
  lineId: string,
  month: string,
  payload: Record<string, unknown>,
) => ctx.injectAs(who, { method: 'PUT', url: `/api/contracts/${contractId}/delivery/${lineId}/${month}`, payload });

const list = async (contractId: string) => {
  const response = await ctx.injectAs('admin', { method: 'GET', url: `/api/contracts/${contractId}/delivery` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as DeliveryPeriod[];
};

const importCsv = (who: Parameters<TestContext['injectAs']>[0], csv: string) =>
  ctx.injectAs(who, {
    method: 'POST',
    url: '/api/delivery/import',
    headers: { 'content-type': 'text/csv' },
    payload: csv,
  });

const invoiceOf = async (contractId: string, periodStart: string) =>
  (
    await ctx.db
      .select()
      .from(invoices)
      .where(and(eq(invoices.contractId, contractId), eq(invoices.periodStart, periodStart)))
  )[0];

const deliveryRows = (contractId: string) =>
  ctx.db.select().from(lineDeliveries).where(eq(lineDeliveries.contractId, contractId));

const notesOf = (userId: string, type: 'delivery_under_pace' | 'delivery_remedy') =>
  ctx.db
    .select({ title: notifications.title, body: notifications.body })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.type, type)));

describe('recording delivery', () => {
  it('lists each billed CPM period with its booked impressions; a full delivery stays correctable', async () => {
    const c = await cpmContract({ startDate: '2026-06-01', asOf: '2026-09-01' });
    const periods = await list(c.contract.id);
    // Four periods billed (June to September), newest first; only the CPM line is listed.
    expect(periods.map((p) => [p.month, p.booked, p.status, p.ended, p.productName])).toEqual([
      ['2026-09', 500_000, 'awaiting', true, c.cpmName],
      ['2026-08', 500_000, 'awaiting', true, c.cpmName],
      ['2026-07', 500_000, 'awaiting', true, c.cpmName],
      ['2026-06', 500_000, 'awaiting', true, c.cpmName],
    ]);

    const full = await put(rep, c.contract.id, c.cpm.id, '2026-06', { impressions: 520_000, clicks: 1_300 });
    expect(full.statusCode, full.body).toBe(200);
    expect(full.json()).toMatchObject({
      month: '2026-06',
      booked: 500_000,
      delivered: 520_000,
      clicks: 1_300,
      status: 'delivered',
      remedy: null,
      creditNote: null,
    });
    // Over-delivery is never billed: nothing was credited or charged.
    const june = await invoiceOf(c.contract.id, '2026-06-01');
    expect(june.creditedCents).toBe(0);
    expect(june.totalCents).toBe(6_710_00); // (6,000 + 100) + 10%

    const corrected = await put(rep, c.contract.id, c.cpm.id, '2026-06', { impressions: 505_000 });
    expect(corrected.statusCode).toBe(200);
    expect(corrected.json()).toMatchObject({ delivered: 505_000, clicks: null, status: 'delivered' });
  });

  it('credit: an under-delivered period is credited once at the rate billed with the tax, then locked', async () => {
    const c = await cpmContract({ startDate: '2026-06-01', asOf: '2026-09-01' });
    const july = await invoiceOf(c.contract.id, '2026-07-01');

    const response = await put(rep, c.contract.id, c.cpm.id, '2026-07', { impressions: 420_000, clicks: 840 });
    expect(response.statusCode, response.body).toBe(200);
    // 80,000 short of 500,000: 80 x $12.00 = $960.00, plus 10% tax = $1,056.00.
    const period = response.json() as DeliveryPeriod;
    expect(period).toMatchObject({
      status: 'settled',
      remedy: 'credit',
      shortfall: 80_000,
      creditNote: { amount: 1_056 },
      invoiceId: july.id,
    });
    const [note] = await ctx.db.select().from(creditNotes).where(eq(creditNotes.invoiceId, july.id));
    expect(note).toMatchObject({ kind: 'delivery', amountCents: 1_056_00, taxCents: 96_00 });
    expect(note.number).toBe(period.creditNote?.number);
    expect(note.reason).toContain('420,000 of 500,000 impressions (84.0%)');
    expect((await invoiceOf(c.contract.id, '2026-07-01')).creditedCents).toBe(1_056_00);

    // The rep hears of both: below 90% at period end, and the credit.
    expect(await notesOf(rep.id, 'delivery_under_pace')).toEqual(
      expect.arrayContaining([expect.objectContaining({ title: 'Delivery below 90%' })]),
    );
    expect(await notesOf(rep.id, 'delivery_remedy')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ title: 'Under-delivery credited', body: expect.stringContaining(note.number) }),
      ]),
    );

    // The same figures again change nothing; other figures are refused, and nothing is credited twice.
    const again = await put(rep, c.contract.id, c.cpm.id, '2026-07', { impressions: 420_000, clicks: 840 });
    expect(again.statusCode).toBe(200);
    const changed = await put(rep, c.contract.id, c.cpm.id, '2026-07', { impressions: 480_000, clicks: 840 });
    expect(changed.statusCode).toBe(409);
    expect(changed.json().message).toBe(
      `Delivery of ${c.cpmName}, July 2026 is settled by credit note ${note.number} ($1,056.00): it can no longer be changed`,
    );
    expect(await ctx.db.select().from(creditNotes).where(eq(creditNotes.invoiceId, july.id))).toHaveLength(1);

    // Proof of performance: the invoice answers its period's delivery, and its PDF prints it.
    const invoice = (await ctx.injectAs('admin', { method: 'GET', url: `/api/invoices/${july.id}` })).json() as Invoice;
    expect(invoice.delivery).toHaveLength(1);
    expect(invoice.delivery[0]).toMatchObject({ booked: 500_000, delivered: 420_000, remedy: 'credit' });
    expect(invoice.lines.find((l) => l.kind === 'product' && l.priceMetric === 'cpm')?.impressions).toBe(500_000);
    const pdf = await ctx.injectAs('admin', { method: 'GET', url: `/api/invoices/${july.id}/pdf` });
    const text = pdfText(pdf.rawPayload);
    for (const expected of ['PROOF OF PERFORMANCE', '500,000', '420,000', '84.0%', note.number]) {
      expect(text).toContain(expected);
    }
  });

  it('makegood: the shortfall runs free on the next invoice ($0.00 line) and is reconciled in turn', async () => {
    const c = await cpmContract({ startDate: '2026-03-01', asOf: '2026-07-01', remedy: 'makegood' });
    const response = await put(rep, c.contract.id, c.cpm.id, '2026-04', { impressions: 470_000 });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      status: 'settled',
      remedy: 'makegood',
      shortfall: 30_000,
      creditNote: null,
      makegoodInvoice: null,
    });
    expect(await ctx.db.select().from(creditNotes).where(eq(creditNotes.contractId, c.contract.id))).toEqual([]);
    expect(await notesOf(rep.id, 'delivery_remedy')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          title: 'Makegood scheduled',
          body: expect.stringContaining('30,000 free impressions'),
        }),
      ]),
    );

    // The next invoice issued (August) carries it: a $0.00 makegood line after the CPM line.
    await runBilling(ctx.db, { contractId: c.contract.id, asOf: '2026-08-01' });
    const august = await invoiceOf(c.contract.id, '2026-08-01');
    const lines = await ctx.db
      .select()
      .from(invoiceLines)
      .where(eq(invoiceLines.invoiceId, august.id))
      .orderBy(asc(invoiceLines.position));
    expect(lines.map((l) => [l.kind, l.description, l.amountCents, l.impressions])).toEqual([
      ['product', c.cpmName, 6_000_00, 500_000],
      ['makegood', `Makegood: ${c.cpmName}, shortfall of April 2026`, 0, 30_000],
      ['product', c.bannerName, 100_00, null],
    ]);
    expect(august.subtotalCents).toBe(6_100_00);

    const periods = await list(c.contract.id);
    expect(periods.find((p) => p.month === '2026-04')?.makegoodInvoice?.number).toBe(august.number);
    expect(periods.find((p) => p.month === '2026-08')).toMatchObject({ booked: 530_000, makegood: 30_000 });
    // A later run issues no second makegood line.
    await runBilling(ctx.db, { contractId: c.contract.id, asOf: '2026-09-01' });
    const september = await invoiceOf(c.contract.id, '2026-09-01');
    const septemberKinds = await ctx.db
      .select({ kind: invoiceLines.kind })
      .from(invoiceLines)
      .where(eq(invoiceLines.invoiceId, september.id));
    expect(septemberKinds.map((l) => l.kind).sort()).toEqual(['product', 'product']);

    // August is reconciled against 530,000: 520,000 delivered is 10,000 short, made good in turn.
    const aug = await put(rep, c.contract.id, c.cpm.id, '2026-08', { impressions: 520_000 });
    expect(aug.json()).toMatchObject({ status: 'settled', remedy: 'makegood', shortfall: 10_000, booked: 530_000 });
  });

  it('a makegood with no later period to run in is credited instead', async () => {
    // A three-month term: June, July, August; August is the last period billed.
    const made = await createBillableContract(ctx.db, {
      startDate: '2026-06-01',
      termMonths: 3,
      salesRepId: rep.id,
      underDeliveryRemedy: 'makegood',
      lines: [{ quantity: 100, unitPriceCents: 10_00, priceMetric: 'cpm' }],
    });
    await runBilling(ctx.db, { contractId: made.contract.id, asOf: '2026-09-15' });
    const [line] = await ctx.db
      .select()
      .from(contractLineItems)
      .where(eq(contractLineItems.contractId, made.contract.id));
    const response = await put(rep, made.contract.id, line.id, '2026-08', { impressions: 90_000 });
    // 10,000 of 100,000 short: 10 x $10.00 = $100.00 + 10% = $110.00.
    expect(response.json()).toMatchObject({ remedy: 'credit', shortfall: 10_000, creditNote: { amount: 110 } });
  });

  it('refuses what cannot be recorded with a message, and changes nothing', async () => {
    const c = await cpmContract({ startDate: '2026-06-01' });
    const running = (await list(c.contract.id))[0];
    expect(running.ended).toBe(false);
    const cases: [string, string, Record<string, unknown>, number, RegExp][] = [
      [c.cpm.id, running.month, { impressions: 1 }, 400, /has not ended yet/],
      [c.banner.id, '2026-07', { impressions: 1 }, 400, /CPM lines only/],
      [c.cpm.id, '2026-01', { impressions: 1 }, 400, /was not billed for January 2026/],
      [c.cpm.id, '2026-07', { impressions: -5 }, 400, /cannot be negative/],
      [c.cpm.id, '2026-07', { impressions: 10.5 }, 400, /whole number/],
      [c.cpm.id, '2026-07', { impressions: 'lots' }, 400, /must be a number/],
      [c.cpm.id, '2026-13', { impressions: 1 }, 400, /calendar month/],
    ];
    for (const [lineId, month, body, status, message] of cases) {
      const response = await put(rep, c.contract.id, lineId, month, body);
      expect(response.statusCode, `${month} ${JSON.stringify(body)} ${response.body}`).toBe(status);
      expect(response.json().message).toMatch(message);
    }
    expect(await deliveryRows(c.contract.id)).toEqual([]);

    // Another rep's contract is not theirs to see; a client records nothing.
    expect((await put(otherRep, c.contract.id, c.cpm.id, '2026-07', { impressions: 1 })).statusCode).toBe(404);
    expect((await put('client', c.contract.id, c.cpm.id, '2026-07', { impressions: 1 })).statusCode).toBe(403);
    expect(await deliveryRows(c.contract.id)).toEqual([]);
  });

  it("finance records delivery on any rep's contract, on the contract page and by import", async () => {
    const c = await cpmContract({ startDate: '2026-06-01', asOf: '2026-08-01' });
    const recorded = await put('finance', c.contract.id, c.cpm.id, '2026-06', { impressions: 500_000 });
    expect(recorded.statusCode, recorded.body).toBe(200);
    expect(recorded.json()).toMatchObject({ month: '2026-06', delivered: 500_000 });
    const imported = await importCsv(
      'finance',
      `contract,line,month,impressions,clicks\n${c.contract.id},${c.cpm.id},2026-07,500000,900\n`,
    );
    expect(imported.statusCode, imported.body).toBe(200);
    expect(imported.json()).toMatchObject({ rows: 1, recorded: 1 });
    expect((await deliveryRows(c.contract.id)).length).toBe(2);
  });

  it("the client sees its own contracts' recorded delivery on the portal, never others'", async () => {
    const c = await cpmContract({ startDate: '2026-06-01', asOf: '2026-08-01' });
    const other = await cpmContract({ startDate: '2026-06-01', asOf: '2026-08-01' });
    await put('admin', c.contract.id, c.cpm.id, '2026-06', { impressions: 500_000, clicks: 1_000 });
    await put('admin', other.contract.id, other.cpm.id, '2026-06', { impressions: 500_000, clicks: 1_000 });
    const client = await ctx.signIn(await createTestUser(ctx.db, { role: 'client', customerId: c.customerId }));
    const mine = await ctx.injectAs(client, { method: 'GET', url: '/api/client/performance' });
    expect(mine.statusCode).toBe(200);
    expect((mine.json() as DeliveryPeriod[]).map((p) => [p.contractId, p.month, p.delivered])).toEqual([
      [c.contract.id, '2026-06', 500_000],
    ]);
    const theirs = await ctx.injectAs(client, { method: 'GET', url: `/api/contracts/${other.contract.id}/delivery` });
    expect(theirs.statusCode).toBe(404);
  });
});

describe('the contract remedy setting', () => {
  it('defaults to credit, is saved from the form, kept by an edit that leaves it out, and checked', async () => {
    const customer = await createTestCustomer(ctx.db);
    const product = (await createTestProduct(ctx.db, { priceMetric: 'cpm' })).id;
    const body = {
      customerId: customer.id,
      paymentMode: 'portal',
      startDate: `${new Date().getUTCFullYear() + 2}-01-01`,
      lineItems: [{ productId: product, quantity: 100, unitPrice: 10, discount: 0 }],
    };
    const plain = await ctx.injectAs('admin', { method: 'POST', url: '/api/contracts', payload: body });
    expect(plain.statusCode, plain.body).toBe(201);
    expect(plain.json().underDeliveryRemedy).toBe('credit');

    const made = await ctx.injectAs('admin', {
      method: 'POST',
      url: '/api/contracts',
      payload: { ...body, underDeliveryRemedy: 'makegood' },
    });
    expect(made.json().underDeliveryRemedy).toBe('makegood');
    const edited = await ctx.injectAs('admin', {
      method: 'PATCH',
      url: `/api/contracts/${made.json().id}`,
      payload: { ...body, termMonths: 6 },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ termMonths: 6, underDeliveryRemedy: 'makegood' });

    const bad = await ctx.injectAs('admin', {
      method: 'POST',
      url: '/api/contracts',
      payload: { ...body, underDeliveryRemedy: 'refund' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fieldErrors.underDeliveryRemedy).toEqual(['Under-delivery remedy must be credit or makegood']);
  });
});

describe('CSV import', () => {
  it('is validated whole: every bad row is listed with its reason and nothing is applied', async () => {
    const c = await cpmContract({ startDate: '2026-06-01' });
    const short = c.contract.id.slice(-8);
    const running = (await list(c.contract.id))[0].month;
    const csv = [
      'contract,line,month,impressions,clicks',
      `${short},${c.cpmName},2026-06,500000,1200`,
      `deadbeef,${c.cpmName},2026-06,1,`,
      `${short},${c.bannerName},2026-06,1,`,
      `${short},${c.cpmName},2026-07,-3,`,
      `${short},${c.cpmName},2026-08,12.5,`,
      `${short},${c.cpmName},2026-09,many,`,
      `${short},${c.cpmName},${running},1,`,
      `${short},${c.cpmName},2026-06,400000,`,
      `${c.contract.id},${c.cpm.id},2026-10,480000,x`,
    ].join('\n');
    const response = await importCsv(rep, csv);
    expect(response.statusCode, response.body).toBe(400);
    const body = response.json();
    expect(Object.keys(body.fieldErrors)).toEqual([
      'row 3',
      'row 4',
      'row 5',
      'row 6',
      'row 7',
      'row 8',
      'row 9',
      'row 10',
    ]);
    expect(body.fieldErrors['row 3']).toEqual(['Unknown contract deadbeef']);
    expect(body.fieldErrors['row 4'][0]).toMatch(/is not a CPM line/);
    expect(body.fieldErrors['row 5']).toEqual(['Impressions cannot be negative']);
    expect(body.fieldErrors['row 6']).toEqual(['Impressions must be a whole number']);
    expect(body.fieldErrors['row 7']).toEqual(['Impressions must be a number']);
    expect(body.fieldErrors['row 8'][0]).toMatch(/has not ended yet/);
    expect(body.fieldErrors['row 9']).toEqual([`Row 2 already gives ${c.cpmName} for 2026-06`]);
    expect(body.fieldErrors['row 10']).toEqual(['Clicks must be a number']);
    expect(body.message).toBe(
      '8 rows of the file cannot be imported, so nothing was recorded. Row 3: Unknown contract deadbeef',
    );
    expect(await deliveryRows(c.contract.id)).toEqual([]);
  });

  it('records a valid file once: the same file again changes nothing', async () => {
    const c = await cpmContract({ startDate: '2026-06-01', asOf: '2026-09-01' });
    const short = c.contract.id.slice(-8);
    const csv = [
      '\uFEFFContract,Line,Month,Impressions,Clicks',
      `${short},${c.cpmName.toUpperCase()},2026-06,"500,000",1200`,
      `${short},${c.cpmName},2026-07,450000,`,
      `${c.contract.id},${c.cpm.id},2026-08,510000,900`,
      '',
    ].join('\r\n');
    const first = await importCsv(rep, csv);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ rows: 3, recorded: 3, unchanged: 0, credits: 1, makegoods: 0 });
    const second = await importCsv(rep, csv);
    expect(second.json()).toEqual({ rows: 3, recorded: 0, unchanged: 3, credits: 0, makegoods: 0 });

    const rows = await deliveryRows(c.contract.id);
    expect(rows.map((r) => [r.periodStart, r.deliveredImpressions, r.clicks, r.remedy]).sort()).toEqual([
      ['2026-06-01', 500_000, 1_200, null],
      ['2026-07-01', 450_000, null, 'credit'],
      ['2026-08-01', 510_000, 900, null],
    ]);
    // July: 50,000 short: 50 x $12.00 = $600.00 + 10% = $660.00, once.
    const notes = await ctx.db.select().from(creditNotes).where(eq(creditNotes.contractId, c.contract.id));
    expect(notes.map((n) => n.amountCents)).toEqual([660_00]);
    const audits = await ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, c.contract.id), eq(auditEvents.action, 'delivery.recorded')));
    expect(audits).toHaveLength(3);

    // Changing a settled period in a file is a conflict; nothing else in the file is applied either.
    const changed = [
      'contract,line,month,impressions',
      `${short},${c.cpmName},2026-07,460000`,
      `${short},${c.cpmName},2026-08,515000`,
    ].join('\n');
    const refused = await importCsv(rep, changed);
    expect(refused.statusCode).toBe(409);
    expect(Object.keys(refused.json().fieldErrors)).toEqual(['row 2']);
    expect((await deliveryRows(c.contract.id)).find((r) => r.periodStart === '2026-08-01')?.deliveredImpressions).toBe(
      510_000,
    );
  });

  it('refuses files that are not one: no columns, no rows, too many rows, too large, another type', async () => {
    const cases: [string, RegExp][] = [
      ['', /no rows/],
      ['contract,line,month,impressions\n', /no rows/],
      ['a,b,c\n1,2,3\n', /needs the columns contract, line, month, impressions/],
      ['contract,line,month,impressions\n"unclosed,x,2026-01,1\n', /not valid CSV/],
      [`contract,line,month,impressions\n${'abcdefgh,Line,2026-01,1\n'.repeat(50_001)}`, /more than 50,000 rows/],
    ];
    for (const [csv, message] of cases) {
      const response = await importCsv('admin', csv);
      expect(response.statusCode, csv.slice(0, 40)).toBe(400);
      expect(response.json().message).toMatch(message);
    }
    const large = await importCsv('admin', `contract,line,month,impressions\n${'x'.repeat(5 * 1024 * 1024)}`);
    expect(large.statusCode).toBe(400);
    expect(large.json().message).toBe('The file is larger than 5 MB');
    const json = await ctx.injectAs('admin', { method: 'POST', url: '/api/delivery/import', payload: { rows: [] } });
    expect(json.statusCode).toBe(400);
    expect(json.json().message).toBe('Send the file as text/csv');
    expect((await importCsv('client', 'contract,line,month,impressions\n')).statusCode).toBe(403);
  });

  it("a rep imports only their own contracts: another rep's reads as unknown", async () => {
    const c = await cpmContract({ startDate: '2026-06-01', asOf: '2026-07-01' });
    const response = await importCsv(
      otherRep,
      `contract,line,month,impressions\n${c.contract.id},${c.cpmName},2026-06,1\n`,
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors['row 2']).toEqual([`Unknown contract ${c.contract.id}`]);
  });

  it('two imports of overlapping rows at once settle each period once', async () => {
    const made = await Promise.all([0, 1, 2].map(() => cpmContract({ startDate: '2026-06-01', asOf: '2026-09-01' })));
    const rowsOf = (months: string[]) =>
      made.flatMap((c) => months.map((m) => `${c.contract.id},${c.cpm.id},${m},400000,`));
    const a = ['contract,line,month,impressions,clicks', ...rowsOf(['2026-06', '2026-07'])].join('\n');
    const b = ['contract,line,month,impressions,clicks', ...rowsOf(['2026-07', '2026-08'])].join('\n');
    const responses = await Promise.all([importCsv('admin', a), importCsv(rep, b), importCsv('admin', b)]);
    for (const response of responses) expect(response.statusCode, response.body).toBe(200);
    // Each period settled once: 3 contracts x 3 months, one credit note each (100,000 short: $1,200 + 10%).
    const ids = made.map((c) => c.contract.id);
    const notes = await ctx.db.select().from(creditNotes).where(inArray(creditNotes.contractId, ids));
    expect(notes).toHaveLength(9);
    expect(new Set(notes.map((n) => n.amountCents))).toEqual(new Set([1_320_00]));
    const settled = await ctx.db.select().from(lineDeliveries).where(inArray(lineDeliveries.contractId, ids));
    expect(settled).toHaveLength(9);
    expect(settled.every((r) => r.remedy === 'credit' && r.creditNoteId !== null)).toBe(true);
    const credited = await ctx.db
      .select({ credited: invoices.creditedCents })
      .from(invoices)
      .where(and(inArray(invoices.contractId, ids), sql`${invoices.periodStart} < '2026-09-01'`));
    expect(credited.map((r) => r.credited)).toEqual(Array(9).fill(1_320_00));
    expect(responses.reduce((sum, r) => sum + r.json().credits, 0)).toBe(9);
  });
});

describe('migration of the old performance figures', () => {
  it('moves figures of billed CPM months onto the line, settled without a remedy, and audits every row', async () => {
    const c = await cpmContract({ startDate: '2026-06-01', asOf: '2026-08-01' });
    const plain = await createBillableContract(ctx.db, { startDate: '2026-06-01', lines: [{ unitPriceCents: 50_00 }] });
    await ctx.db.execute(sql`
      create table contract_performance (id uuid primary key default gen_random_uuid(), contract_id uuid not null,
        month text not null, impressions bigint not null, clicks bigint not null, views bigint not null,
        updated_by uuid, created_at timestamptz not null default now(), updated_at timestamptz not null default now())`);
    await ctx.db.execute(sql`
      insert into contract_performance (contract_id, month, impressions, clicks, views) values
        (${c.contract.id}, '2026-06', 480000, 900, 70000),
        (${c.contract.id}, '2026-03', 1000, 1, 1),
        (${plain.contract.id}, '2026-06', 5000, 50, 10)`);
    const file = path.join(import.meta.dirname, '../../db/migrations/0021_retire-performance.sql');
    for (const statement of fs.readFileSync(file, 'utf8').split('--> statement-breakpoint')) {
      await ctx.db.execute(sql.raw(statement));
    }
    const rows = await deliveryRows(c.contract.id);
    expect(
      rows.map((r) => [r.lineId, r.periodStart, r.bookedImpressions, r.deliveredImpressions, r.clicks, r.remedy]),
    ).toEqual([[c.cpm.id, '2026-06-01', 500_000, 480_000, 900, 'none']]);
    expect(await deliveryRows(plain.contract.id)).toEqual([]);
    const retired = await ctx.db
      .select({ entityId: auditEvents.entityId, before: auditEvents.before })
      .from(auditEvents)
      .where(eq(auditEvents.action, 'performance.retired'));
    expect(retired).toHaveLength(3);
    expect(retired).toContainEqual({
      entityId: plain.contract.id,
      before: { month: '2026-06', impressions: 5000, clicks: 50, views: 10 },
    });
    // Nothing was credited for them, and the table is gone.
    expect(await ctx.db.select().from(creditNotes).where(eq(creditNotes.contractId, c.contract.id))).toEqual([]);
    await expect(ctx.db.execute(sql`select 1 from contract_performance`)).rejects.toThrow();
    // A settled-without-remedy period reads as such.
    const [june] = (await list(c.contract.id)).filter((p) => p.month === '2026-06');
    expect(june).toMatchObject({ status: 'settled', remedy: 'none', delivered: 480_000 });
    expect(await ctx.db.select().from(customers).where(eq(customers.id, c.customerId))).toHaveLength(1);
  });
});
