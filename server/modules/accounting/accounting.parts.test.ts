import { createHash } from 'node:crypto';
import type { AccountingExport, AccountingSettings } from '@shared/contracts/accounting';
import { AD_TYPES } from '@shared/contracts/product-vocabulary';
import { parse } from 'csv-parse/sync';
import { asc, eq, sql } from 'drizzle-orm';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountingExportDocuments, invoices } from '../../db/schema';
import { buildTestApp, type TestContext } from '../../test/app';
import { createBillableContract, setTaxSettings } from '../../test/billing-factories';
import { createTestCustomer, createTestProduct } from '../../test/catalog-factories';
import { runBilling } from '../billing/billing-run';

/**
 * Every day can be exported (product.md section 17, decision 050): a day of 250 invoices, issued by the
 * product's own billing run, goes to QuickBooks Online as one batch of 3 parts (100, 100, 50), each part a whole
 * file within QuickBooks' limits, no invoice in two, every one in one; a zip holds exactly the parts' bytes;
 * Xero takes 500 a file; the Xero file carries the customer's address; the dates follow the setting. Days are
 * explicit: a billing run for a past day issues its invoices on that day.
 */
let ctx: TestContext;
const DAY = '2026-03-02';
const NEXT_DAY = '2026-03-03';
const ADDRESS = {
  address: '12 Pier Street',
  city: 'Portland',
  state: 'ME',
  zipCode: '04101',
  country: 'United States',
};

const codes: AccountingSettings = {
  revenueAccounts: Object.fromEntries(AD_TYPES.map((adType, i) => [adType, String(4000 + i)])) as Record<
    (typeof AD_TYPES)[number],
    string
  >,
  otherRevenueAccount: '4900',
  taxAccount: '2200',
  receivablesAccount: '1100',
  bankAccount: '1000',
  cardClearingAccount: '1050',
  customerCreditAccount: '2300',
  xeroTaxType: 'Tax on Sales',
  xeroNoTaxType: 'Tax Exempt',
  quickbooksTaxCode: 'TAX',
  quickbooksNoTaxCode: 'NON',
  dateFormat: 'YYYY-MM-DD',
};

let customerId: string;
let productId: string;

/** `count` contracts starting on `day`, one $100.00-and-up banner line each, billed by one run for that day. */
async function issueOn(day: string, count: number) {
  for (let i = 0; i < count; i++) {
    await createBillableContract(ctx.db, {
      startDate: day,
      customerId,
      lines: [{ productId, unitPriceCents: (100 + i) * 100 }],
    });
  }
  const run = await runBilling(ctx.db, { asOf: day });
  expect(run.invoicesIssued).toBe(count);
}

/** The numbers of the invoices issued on a day of the calendar (UTC, the tests' business time zone). */
async function numbersIssuedOn(day: string): Promise<string[]> {
  const rows = await ctx.db
    .select({ number: invoices.number })
    .from(invoices)
    .where(sql`(${invoices.issuedAt} at time zone 'utc')::date = ${day}::date`)
    .orderBy(asc(invoices.number));
  return rows.map((row) => row.number);
}

async function made(format: string, from: string, to: string): Promise<AccountingExport> {
  const response = await ctx.injectAs('finance', {
    method: 'POST',
    url: '/api/accounting/exports',
    payload: { from, to, format },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as AccountingExport;
}

const fileUrl = (batch: { id: string }, query = '') => `/api/accounting/exports/${batch.id}/file${query}`;
const get = (url: string) => ctx.injectAs('finance', { method: 'GET', url });

/** Each part downloaded: its answer, its rows parsed, the invoice numbers it holds (each once). */
async function downloadParts(batch: AccountingExport, numberColumn: string) {
  const parts = [];
  for (const part of batch.parts) {
    const response = await get(fileUrl(batch, `?part=${part.part}`));
    expect(response.statusCode, response.body).toBe(200);
    const rows = parse(response.body, { columns: true, skip_empty_lines: true }) as Record<string, string>[];
    parts.push({ part, response, rows, numbers: [...new Set(rows.map((row) => row[numberColumn]!))] });
  }
  return parts;
}

/** What the documents table says each part holds: part -> invoice numbers. */
async function claimedByPart(batch: AccountingExport): Promise<Record<number, string[]>> {
  const rows = await ctx.db
    .select({ part: accountingExportDocuments.part, number: invoices.number })
    .from(accountingExportDocuments)
    .innerJoin(invoices, eq(invoices.id, accountingExportDocuments.documentId))
    .where(eq(accountingExportDocuments.exportId, batch.id))
    .orderBy(asc(invoices.number));
  const byPart: Record<number, string[]> = {};
  for (const row of rows) {
    byPart[row.part] ??= [];
    byPart[row.part]!.push(row.number);
  }
  return byPart;
}

beforeAll(async () => {
  ctx = await buildTestApp();
  await setTaxSettings(ctx.db, { defaultTaxRate: 0, taxIncluded: false, taxLabel: 'Tax' });
  const saved = await ctx.injectAs('admin', { method: 'PUT', url: '/api/accounting/settings', payload: codes });
  expect(saved.statusCode, saved.body).toBe(200);
  customerId = (await createTestCustomer(ctx.db, { name: 'Harbor Lights Cinema', email: 'ap@harbor.test', ...ADDRESS }))
    .id;
  productId = (await createTestProduct(ctx.db, { adType: 'banner', name: 'Lobby banner' })).id;
  await issueOn(DAY, 250);
}, 180_000);
afterAll(() => ctx.close());

describe('a day of 250 invoices to QuickBooks Online', () => {
  let batch: AccountingExport;

  it('is one batch of 3 parts of 100, 100 and 50 invoices, each within 1,000 rows, none twice', async () => {
    batch = await made('quickbooks-invoices', DAY, DAY);
    expect(batch).toMatchObject({
      documentCount: 250,
      documents: { invoices: 250, creditNotes: 0, payments: 0, creditRefunds: 0 },
      // $100.00 + $101.00 + ... + $349.00
      total: 56_125,
      tax: 0,
    });
    expect(batch.parts.map((p) => [p.part, p.fileName, p.documentCount])).toEqual([
      [1, `${batch.number}-quickbooks-invoices-part-1-of-3.csv`, 100],
      [2, `${batch.number}-quickbooks-invoices-part-2-of-3.csv`, 100],
      [3, `${batch.number}-quickbooks-invoices-part-3-of-3.csv`, 50],
    ]);
    expect([batch.fileName, batch.sha256]).toEqual([batch.parts[0]!.fileName, batch.parts[0]!.sha256]);

    const parts = await downloadParts(batch, 'Invoice no.');
    for (const { part, response, rows, numbers } of parts) {
      expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(response.headers['content-disposition']).toBe(`attachment; filename="${part.fileName}"`);
      expect(createHash('sha256').update(response.rawPayload).digest('hex')).toBe(part.sha256);
      expect(response.body.split('\r\n')[0]).toMatch(/^Invoice no\.,Customer,Invoice date,/);
      expect(rows.length).toBeLessThanOrEqual(1000);
      expect(numbers).toHaveLength(part.documentCount);
      expect(new Set(rows.map((row) => row['Invoice date']))).toEqual(new Set([DAY]));
    }
    const held = parts.flatMap((p) => p.numbers);
    expect(new Set(held).size).toBe(250);
    expect([...held].sort()).toEqual(await numbersIssuedOn(DAY));
  });

  it('counts exactly what its files hold: each document claimed in the part whose file has it', async () => {
    const parts = await downloadParts(batch, 'Invoice no.');
    const claimed = await claimedByPart(batch);
    expect(Object.keys(claimed)).toEqual(['1', '2', '3']);
    for (const { part, numbers } of parts) expect(claimed[part.part]).toEqual([...numbers].sort());
    const listed = (await get('/api/accounting/exports')).json() as AccountingExport[];
    expect(listed.find((b) => b.id === batch.id)).toEqual(batch);
    expect((await get(`/api/accounting/exports/${batch.id}`)).json()).toEqual(batch);
  });

  it('a zip holds exactly the parts, by name and byte, the same zip every time', async () => {
    const response = await get(`/api/accounting/exports/${batch.id}/zip`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="${batch.number}-quickbooks-invoices.zip"`,
    );
    const entries = unzipSync(new Uint8Array(response.rawPayload));
    expect(Object.keys(entries)).toEqual(batch.parts.map((p) => p.fileName));
    for (const part of batch.parts) {
      const file = (await get(fileUrl(batch, `?part=${part.part}`))).rawPayload;
      expect(Buffer.from(entries[part.fileName]!).equals(file), part.fileName).toBe(true);
    }
    const again = await get(`/api/accounting/exports/${batch.id}/zip`);
    expect(again.rawPayload.equals(response.rawPayload)).toBe(true);
  });

  it.each([
    [
      'no part of a batch of several: 409, naming the parts and the zip',
      '',
      409,
      (number: string, id: string) =>
        `${number} has 3 parts: download each with ?part=1 to ?part=3, or all of them in one zip (/api/accounting/exports/${id}/zip).`,
    ],
    ['part 0: 400', '?part=0', 400, () => 'The part is a whole number from 1'],
    ['part 1.5: 400', '?part=1.5', 400, () => 'The part is a whole number from 1'],
    ['part "all": 400', '?part=all', 400, () => 'The part is a whole number from 1'],
    ['part 4 of 3: 404', '?part=4', 404, (number: string) => `${number} has 3 parts: there is no part 4.`],
  ])('%s', async (_name, query, status, message) => {
    const response = await get(fileUrl(batch, query));
    expect(response.statusCode).toBe(status);
    expect(response.json().message).toBe(message(batch.number, batch.id));
  });

  it('a batch that does not exist has no file and no zip (404)', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await get(`/api/accounting/exports/${unknown}/zip`)).statusCode).toBe(404);
    expect((await get(fileUrl({ id: unknown }, '?part=1'))).statusCode).toBe(404);
  });
});

describe('Xero: 500 invoices a file', () => {
  it('501 invoices make 2 parts of 500 and 1, with the address and the dates as set', async () => {
    await issueOn(NEXT_DAY, 251);
    const batch = await made('xero-invoices', DAY, NEXT_DAY);
    expect(batch.documentCount).toBe(501);
    expect(batch.parts.map((p) => [p.fileName, p.documentCount])).toEqual([
      [`${batch.number}-xero-invoices-part-1-of-2.csv`, 500],
      [`${batch.number}-xero-invoices-part-2-of-2.csv`, 1],
    ]);
    const parts = await downloadParts(batch, '*InvoiceNumber');
    const held = parts.flatMap((p) => p.numbers);
    expect(new Set(held).size).toBe(501);
    expect([...held].sort()).toEqual([...(await numbersIssuedOn(DAY)), ...(await numbersIssuedOn(NEXT_DAY))].sort());
    const [first] = parts[0]!.rows;
    expect(first).toMatchObject({
      '*ContactName': 'Harbor Lights Cinema',
      EmailAddress: 'ap@harbor.test',
      POAddressLine1: '12 Pier Street',
      POCity: 'Portland',
      PORegion: 'ME',
      POPostalCode: '04101',
      POCountry: 'United States',
      '*InvoiceDate': DAY,
      '*Quantity': '1',
      Discount: '',
    });
    expect(parts[1]!.rows.map((row) => row['*InvoiceDate'])).toEqual([NEXT_DAY]);
  });

  it('a later QuickBooks batch over both days holds only the 251 new invoices: 100, 100 and 51', async () => {
    const batch = await made('quickbooks-invoices', DAY, NEXT_DAY);
    expect(batch.parts.map((p) => p.documentCount)).toEqual([100, 100, 51]);
    const held = (await downloadParts(batch, 'Invoice no.')).flatMap((p) => p.numbers);
    expect([...held].sort()).toEqual(await numbersIssuedOn(NEXT_DAY));
  });
});
