import { createHash } from 'node:crypto';
import { addDays } from '@shared/billing';
import type { AccountingExport, AccountingSettings } from '@shared/contracts/accounting';
import type { CreditNote } from '@shared/contracts/credit-notes';
import type { Invoice } from '@shared/contracts/invoices';
import { parse } from 'csv-parse/sync';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountingExportDocuments, accountingExports, auditEvents, contractAdjustments } from '../../db/schema';
import { businessToday } from '../../lib/business-day';
import { buildTestApp, type TestContext } from '../../test/app';
import { createBillableContract, setTaxSettings } from '../../test/billing-factories';
import { createTestCustomer, createTestProduct } from '../../test/catalog-factories';
import { createTestUser } from '../../test/factories';
import { card, checkoutToken, createPayLinkContract, publicClient } from '../../test/payment-factories';
import { runBilling } from '../billing/billing-run';

/**
 * The accounting export through the API (product.md section 16, decision 043). One book of documents is made
 * through the product's own paths (the billing run, manual and card payments, credit notes, a void with its
 * refund, a credit refund); each file is parsed back and reconciled, to the cent, against the invoice and
 * credit note answers and against literal tables worked out by hand (amounts in cents).
 */

let ctx: TestContext;
const BASE_URL = 'https://crm.example.test';
const today = businessToday();

const CODES: AccountingSettings = {
  revenueAccounts: {
    pre_roll: '4020',
    mid_roll: '4030',
    post_roll: '4031',
    banner: '4010',
    in_category: '4050',
    overlay: '4040',
    ad_on_pause: '4060',
    timed_qr: '4070',
    ctn_special: '4080',
  },
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
  dateFormat: 'MM/DD/YYYY',
};

/** Dollars as text ("1234.50", "-2.50") to cents, by the digits: the oracle never goes through floats. */
function cents(text: string): number {
  const match = /^(-?)(\d+)\.(\d{2})$/.exec(text);
  if (!match) throw new Error(`Not an amount with two decimals: ${JSON.stringify(text)}`);
  return (match[1] ? -1 : 1) * (Number(match[2]) * 100 + Number(match[3]));
}
/** An API amount (dollars as a JSON number) to cents. */
const apiCents = (amount: number) => Math.round(amount * 100);
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const usDate = (day: string) => `${day.slice(5, 7)}/${day.slice(8, 10)}/${day.slice(0, 4)}`;

type Book = {
  acme: { invoice: Invoice; customerId: string };
  birch: { invoice: Invoice };
  cedar: { invoice: Invoice; customerId: string };
  earlier: Invoice;
  notes: { goodwill: CreditNote; birchVoid: CreditNote; cedar: CreditNote };
};
let book: Book;

const exportAs = (who: Parameters<TestContext['injectAs']>[0], payload: object) =>
  ctx.injectAs(who, { method: 'POST', url: '/api/accounting/exports', payload });
const invoice = async (id: string) =>
  (await ctx.injectAs('finance', { method: 'GET', url: `/api/invoices/${id}` })).json() as Invoice;
async function made(format: string, range: { from: string; to: string } = { from: today, to: today }) {
  const response = await exportAs('finance', { ...range, format });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as AccountingExport;
}
async function download(batch: AccountingExport) {
  const response = await ctx.injectAs('finance', { method: 'GET', url: `/api/accounting/exports/${batch.id}/file` });
  expect(response.statusCode).toBe(200);
  return response;
}
async function rowsOf(batch: AccountingExport): Promise<Record<string, string>[]> {
  return parse((await download(batch)).body, { columns: true, skip_empty_lines: true });
}

beforeAll(async () => {
  ctx = await buildTestApp({ config: { PUBLIC_URL: BASE_URL } });
  await setTaxSettings(ctx.db, { defaultTaxRate: 10, taxIncluded: false, taxLabel: 'Sales tax' });
  const product = (adType: string, name: string) =>
    createTestProduct(ctx.db, { adType, name, defaultPriceCents: 100_00 });
  const banner = await product('banner', 'Homepage banner');
  const preRoll = await product('pre_roll', 'Pre-roll 15s');
  const inCategory = await product('in_category', 'Outdoor category');
  const midRoll = await product('mid_roll', 'Mid-roll 30s');
  const overlay = await product('overlay', 'Lower-third overlay');

  // Acme: 2 x $500.00 less $100.00, 1 x $250.00, a $300.00 package, a $75.00 setup fee, and two amendments
  // carried on the invoice (a $40.00 charge, a $25.00 credit); 10% tax added. Paid $500.00 by check, then a
  // $110.00 goodwill credit note.
  const acmeCustomer = await createTestCustomer(ctx.db, { name: 'Acme Outdoor', email: 'ap@acme.test' });
  const acme = await createBillableContract(ctx.db, {
    startDate: today,
    customerId: acmeCustomer.id,
    title: 'Acme spring campaign',
    lines: [
      { productId: banner.id, quantity: 2, unitPriceCents: 500_00, discountCents: 100_00 },
      { productId: preRoll.id, unitPriceCents: 250_00 },
    ],
    packagePriceCents: 300_00,
    setupFeeCents: 75_00,
  });
  await ctx.db.insert(contractAdjustments).values([
    {
      contractId: acme.contract.id,
      productId: inCategory.id,
      description: 'Outdoor category: added',
      coversStart: addDays(today, -20),
      coversEnd: addDays(today, -11),
      amountCents: 40_00,
    },
    {
      contractId: acme.contract.id,
      productId: banner.id,
      description: 'Homepage banner: ended',
      coversStart: addDays(today, -10),
      coversEnd: addDays(today, -1),
      amountCents: -25_00,
    },
  ]);
  await runBilling(ctx.db, { contractId: acme.contract.id, asOf: today, baseUrl: BASE_URL });

  // Birch: one $199.99 mid-roll line, paid by card on its pay link, then voided (a void credit note and the
  // card refunded).
  const birchCustomer = await createTestCustomer(ctx.db, { name: 'Birch Cinemas', email: 'books@birch.test' });
  const birch = await createPayLinkContract(ctx.db, {
    status: 'active',
    startDate: today,
    customerId: birchCustomer.id,
    lines: [{ productId: midRoll.id, unitPriceCents: 199_99 }],
  });
  await runBilling(ctx.db, { contractId: birch.contract.id, asOf: today, baseUrl: BASE_URL });
  const client = publicClient(ctx.app);
  const { checkoutUrl } = (await client.openCheckout(birch.token)).json();
  expect((await client.pay(checkoutToken(checkoutUrl), card())).statusCode).toBe(200);

  // Cedar: a $100.00 overlay, paid $110.00 by wire, then credited $55.00 (all of it to the credit balance), of
  // which $20.00 is refunded by check.
  const cedarCustomer = await createTestCustomer(ctx.db, { name: 'Cedar Books', email: 'hello@cedar.test' });
  const cedar = await createBillableContract(ctx.db, {
    startDate: today,
    customerId: cedarCustomer.id,
    lines: [{ productId: overlay.id, unitPriceCents: 100_00 }],
  });
  await runBilling(ctx.db, { contractId: cedar.contract.id, asOf: today, baseUrl: BASE_URL });

  // An invoice issued 60 days ago: outside every range below but the last.
  const earlier = await createBillableContract(ctx.db, {
    startDate: addDays(today, -60),
    lines: [{ productId: overlay.id, unitPriceCents: 80_00 }],
  });
  await runBilling(ctx.db, { contractId: earlier.contract.id, asOf: addDays(today, -60), baseUrl: BASE_URL });

  const list = async (contractId: string) =>
    (await ctx.injectAs('finance', { method: 'GET', url: `/api/invoices?contractId=${contractId}` })).json() as {
      id: string;
    }[];
  const [acmeInvoice] = await list(acme.contract.id);
  const [birchInvoice] = await list(birch.contract.id);
  const [cedarInvoice] = await list(cedar.contract.id);
  const [earlierInvoice] = await list(earlier.contract.id);

  const post = async (url: string, payload: object) => {
    const response = await ctx.injectAs('finance', { method: 'POST', url, payload });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json();
  };
  await post(`/api/invoices/${acmeInvoice!.id}/payments`, { amount: '500.00', method: 'check' });
  const goodwill = (await post(`/api/invoices/${acmeInvoice!.id}/credit-notes`, {
    amount: '110.00',
    reason: 'Goodwill: the banner started late',
  })) as CreditNote;
  await post(`/api/invoices/${birchInvoice!.id}/void`, { reason: 'Campaign canceled' });
  await post(`/api/invoices/${cedarInvoice!.id}/payments`, { amount: '110.00', method: 'wire' });
  const cedarNote = (await post(`/api/invoices/${cedarInvoice!.id}/credit-notes`, {
    amount: '55.00',
    reason: '=Make-good for missed slots',
  })) as CreditNote;
  await post(`/api/customers/${cedarCustomer.id}/credit-refunds`, {
    amount: '20.00',
    method: 'check',
    reference: 'Check 1042',
  });

  const birchNow = await invoice(birchInvoice!.id);
  book = {
    acme: { invoice: await invoice(acmeInvoice!.id), customerId: acmeCustomer.id },
    birch: { invoice: birchNow },
    cedar: { invoice: await invoice(cedarInvoice!.id), customerId: cedarCustomer.id },
    earlier: await invoice(earlierInvoice!.id),
    notes: { goodwill, birchVoid: birchNow.creditNotes[0]!, cedar: cedarNote },
  };
});
afterAll(() => ctx.close());

describe('the book the exports are made from', () => {
  it('is what the product recorded (the figures every file below reconciles to)', () => {
    const { acme, birch, cedar, notes } = book;
    expect(acme.invoice.lines.map((l) => [l.kind, apiCents(l.amount)])).toEqual([
      ['product', 900_00],
      ['product', 250_00],
      ['package', 300_00],
      ['setup_fee', 75_00],
      ['adjustment', 40_00],
      ['adjustment', -25_00],
    ]);
    expect([acme.invoice, birch.invoice, cedar.invoice].map((i) => [apiCents(i.tax), apiCents(i.total)])).toEqual([
      [154_00, 1694_00],
      [20_00, 219_99],
      [10_00, 110_00],
    ]);
    expect(birch.invoice.payments.map((p) => [p.kind, p.method, apiCents(p.amount)])).toEqual([
      ['payment', 'card', 219_99],
      ['refund', 'card', 219_99],
    ]);
    expect(
      [notes.goodwill, notes.birchVoid, notes.cedar].map((n) => [
        n.kind,
        apiCents(n.amount),
        apiCents(n.tax),
        apiCents(n.appliedToInvoice),
        apiCents(n.toCreditBalance),
      ]),
    ).toEqual([
      ['partial', 110_00, 10_00, 110_00, 0],
      ['void', 219_99, 20_00, 219_99, 0],
      ['partial', 55_00, 5_00, 0, 55_00],
    ]);
    expect(acme.invoice.exports).toEqual([]);
  });
});

describe('before any account code is set', () => {
  it('refuses every export with 409 and where to set the codes, and keeps nothing', async () => {
    const response = await exportAs('finance', { from: today, to: today, format: 'xero-invoices' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      code: 'CONFLICT',
      message: 'No account codes are set. An admin sets them in Settings › Accounting.',
    });
    expect(await ctx.db.select().from(accountingExports)).toEqual([]);
  });

  it('reads the defaults: no account code, the usual tax names', async () => {
    const response = await ctx.injectAs('finance', { method: 'GET', url: '/api/accounting/settings' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      receivablesAccount: null,
      revenueAccounts: { banner: null },
      xeroTaxType: 'Tax on Sales',
      quickbooksNoTaxCode: 'NON',
    });
  });
});

describe('the account codes', () => {
  it('admins set them (audited); finance may read them but not change them', async () => {
    expect(
      (await ctx.injectAs('finance', { method: 'PUT', url: '/api/accounting/settings', payload: CODES })).statusCode,
    ).toBe(403);
    const bad = await ctx.injectAs('admin', {
      method: 'PUT',
      url: '/api/accounting/settings',
      payload: { ...CODES, taxAccount: '=SUM(A1:A9)' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fieldErrors).toHaveProperty('taxAccount');

    const saved = await ctx.injectAs('admin', { method: 'PUT', url: '/api/accounting/settings', payload: CODES });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual(CODES);
    expect((await ctx.injectAs('finance', { method: 'GET', url: '/api/accounting/settings' })).json()).toEqual(CODES);
    const [audit] = await ctx.db.select().from(auditEvents).where(eq(auditEvents.entityId, 'accounting'));
    expect(audit).toMatchObject({ action: 'settings.updated', entity: 'settings' });
  });
});

describe('Xero invoices', () => {
  it('one row per invoice line, tax exclusive, that adds up to each invoice to the cent', async () => {
    const batch = await made('xero-invoices');
    expect(batch).toMatchObject({
      number: expect.stringMatching(/^EXP-\d{4}-000001$/),
      format: 'xero-invoices',
      from: today,
      to: today,
      documentCount: 3,
      documents: { invoices: 3, creditNotes: 0, payments: 0, creditRefunds: 0 },
      total: 2023.99,
      tax: 184,
      fileName: `${batch.number}-xero-invoices.csv`,
      createdBy: { name: expect.stringContaining('Test') },
    });
    const response = await download(batch);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="${batch.number}-xero-invoices.csv"`);
    expect(response.body.split('\r\n')[0]).toBe(
      '*ContactName,EmailAddress,POAddressLine1,POCity,PORegion,POPostalCode,POCountry,*InvoiceNumber,Reference,*InvoiceDate,*DueDate,*Description,*Quantity,*UnitAmount,Discount,*AccountCode,*TaxType,TaxAmount,Currency',
    );

    const rows = await rowsOf(batch);
    const { acme, birch, cedar } = book;
    // The literal table: [invoice, quantity, unit amount, discount, account, tax amount] per row, in line order.
    // The discounted line is its 2 x $500.00 with 10.00% off ($100.00), as Xero computes it.
    expect(
      rows.map((r) => [
        r['*InvoiceNumber'],
        r['*Quantity'],
        cents(r['*UnitAmount']!),
        r.Discount,
        r['*AccountCode'],
        r['*TaxType'],
        cents(r.TaxAmount!),
      ]),
    ).toEqual([
      [acme.invoice.number, '2', 500_00, '10.00', '4010', 'Tax on Sales', 90_00],
      [acme.invoice.number, '1', 250_00, '', '4020', 'Tax on Sales', 25_00],
      [acme.invoice.number, '1', 300_00, '', '4900', 'Tax on Sales', 30_00],
      [acme.invoice.number, '1', 75_00, '', '4900', 'Tax on Sales', 7_50],
      [acme.invoice.number, '1', 40_00, '', '4050', 'Tax on Sales', 4_00],
      [acme.invoice.number, '1', -25_00, '', '4010', 'Tax on Sales', -2_50],
      [birch.invoice.number, '1', 199_99, '', '4030', 'Tax on Sales', 20_00],
      [cedar.invoice.number, '1', 100_00, '', '4040', 'Tax on Sales', 10_00],
    ]);
    expect(rows[0]).toMatchObject({
      '*ContactName': 'Acme Outdoor',
      EmailAddress: 'ap@acme.test',
      Reference: 'Acme spring campaign',
      '*InvoiceDate': usDate(today),
      '*DueDate': usDate(acme.invoice.dueDate),
      Currency: 'USD',
    });
    expect(rows[0]!['*Description']).toContain('2 × $500.00 less $100.00 discount');
    // The customers have no address on record: its cells are empty.
    expect([rows[0]!.POAddressLine1, rows[0]!.POCity, rows[0]!.POCountry]).toEqual(['', '', '']);
    expect(batch.parts).toEqual([{ part: 1, fileName: batch.fileName, sha256: batch.sha256, documentCount: 3 }]);

    // Reconciled with the API: each line's amount (Xero's quantity x unit amount less the discount percentage,
    // to the cent), each invoice's tax and total, the count of invoices.
    const xeroNet = (r: Record<string, string>) => {
      const gross = Number(r['*Quantity']) * cents(r['*UnitAmount']!);
      const off = r.Discount ? cents(r.Discount) : 0; // hundredths of a percent
      return Math.sign(gross) * Math.floor((Math.abs(gross) * (10_000 - off) + 5_000) / 10_000);
    };
    for (const api of [acme.invoice, birch.invoice, cedar.invoice]) {
      const mine = rows.filter((r) => r['*InvoiceNumber'] === api.number);
      const net = mine.map(xeroNet);
      expect(net).toEqual(api.lines.map((l) => apiCents(l.amount)));
      expect(sum(mine.map((r) => cents(r.TaxAmount!)))).toBe(apiCents(api.tax));
      expect(sum(net) + sum(mine.map((r) => cents(r.TaxAmount!)))).toBe(apiCents(api.total));
    }
    expect(new Set(rows.map((r) => r['*InvoiceNumber'])).size).toBe(batch.documentCount);
  });
});

describe('QuickBooks Online invoices', () => {
  it('one row per invoice line with its item, amount and tax, adding up to each invoice', async () => {
    const batch = await made('quickbooks-invoices');
    expect(batch).toMatchObject({ format: 'quickbooks-invoices', documentCount: 3, total: 2023.99, tax: 184 });
    const rows = await rowsOf(batch);
    expect(Object.keys(rows[0]!)).toEqual([
      'Invoice no.',
      'Customer',
      'Invoice date',
      'Due date',
      'Item(Product/Service)',
      'Item description',
      'Item quantity',
      'Item rate',
      'Item amount',
      'Item tax code',
      'Item tax amount',
    ]);
    const { acme, birch, cedar } = book;
    expect(
      rows.map((r) => [
        r['Invoice no.'],
        r['Item(Product/Service)'],
        r['Item quantity'],
        cents(r['Item rate']!),
        cents(r['Item amount']!),
        r['Item tax code'],
        cents(r['Item tax amount']!),
      ]),
    ).toEqual([
      [acme.invoice.number, '4010', '1', 900_00, 900_00, 'TAX', 90_00],
      [acme.invoice.number, '4020', '1', 250_00, 250_00, 'TAX', 25_00],
      [acme.invoice.number, '4900', '1', 300_00, 300_00, 'TAX', 30_00],
      [acme.invoice.number, '4900', '1', 75_00, 75_00, 'TAX', 7_50],
      [acme.invoice.number, '4050', '1', 40_00, 40_00, 'TAX', 4_00],
      [acme.invoice.number, '4010', '1', -25_00, -25_00, 'TAX', -2_50],
      [birch.invoice.number, '4030', '1', 199_99, 199_99, 'TAX', 20_00],
      [cedar.invoice.number, '4040', '1', 100_00, 100_00, 'TAX', 10_00],
    ]);
    for (const api of [acme.invoice, birch.invoice, cedar.invoice]) {
      const mine = rows.filter((r) => r['Invoice no.'] === api.number);
      expect(mine.map((r) => r.Customer)).toEqual(mine.map(() => api.customerName));
      expect(mine.map((r) => r['Invoice date'])).toEqual(mine.map(() => usDate(today)));
      expect(mine.map((r) => cents(r['Item amount']!))).toEqual(api.lines.map((l) => apiCents(l.amount)));
      expect(sum(mine.map((r) => cents(r['Item amount']!) + cents(r['Item tax amount']!)))).toBe(apiCents(api.total));
    }
  });
});

describe('Xero credit notes', () => {
  it("spreads each credit note over its invoice's revenue accounts, adding up to the note to the cent", async () => {
    const batch = await made('xero-credit-notes');
    expect(batch).toMatchObject({
      format: 'xero-credit-notes',
      documentCount: 3,
      documents: { invoices: 0, creditNotes: 3, payments: 0, creditRefunds: 0 },
      total: 384.99,
      tax: 35,
    });
    const rows = await rowsOf(batch);
    const { goodwill, birchVoid, cedar } = book.notes;
    // $100.00 before tax over the accounts' net revenue 875 : 250 : 375 : 40 (largest remainders to the cent).
    expect(
      rows.map((r) => [
        r['*CreditNoteNumber'],
        r.Reference,
        cents(r['*UnitAmount']!),
        r['*AccountCode'],
        cents(r.TaxAmount!),
      ]),
    ).toEqual([
      [goodwill.number, book.acme.invoice.number, 56_82, '4010', 5_68],
      [goodwill.number, book.acme.invoice.number, 16_23, '4020', 1_62],
      [goodwill.number, book.acme.invoice.number, 24_35, '4900', 2_44],
      [goodwill.number, book.acme.invoice.number, 2_60, '4050', 26],
      [birchVoid.number, book.birch.invoice.number, 199_99, '4030', 20_00],
      [cedar.number, book.cedar.invoice.number, 50_00, '4040', 5_00],
    ]);
    // Text a spreadsheet would run as a formula is quoted; the contact and the date are the note's.
    expect(rows[5]).toMatchObject({
      '*ContactName': 'Cedar Books',
      '*CreditNoteDate': usDate(today),
      '*Description': `'=Make-good for missed slots (credit on ${book.cedar.invoice.number})`,
      '*Quantity': '1',
    });
    for (const api of [goodwill, birchVoid, cedar]) {
      const mine = rows.filter((r) => r['*CreditNoteNumber'] === api.number);
      expect(sum(mine.map((r) => cents(r['*UnitAmount']!) + cents(r.TaxAmount!)))).toBe(apiCents(api.amount));
      expect(sum(mine.map((r) => cents(r.TaxAmount!)))).toBe(apiCents(api.tax));
    }
  });
});

describe('the journal', () => {
  it('balanced entries for every invoice, credit note, payment and refund, per account as worked out by hand', async () => {
    const batch = await made('journal');
    expect(batch).toMatchObject({
      format: 'journal',
      documentCount: 11,
      documents: { invoices: 3, creditNotes: 3, payments: 4, creditRefunds: 1 },
      total: 3478.96,
      tax: null,
    });
    const rows = await rowsOf(batch);
    expect(Object.keys(rows[0]!)).toEqual(['Date', 'Account', 'Description', 'Debit', 'Credit', 'Reference']);
    for (const row of rows) {
      expect(row.Date).toBe(today);
      // Each row is a debit or a credit, never both.
      expect([row.Debit === '', row.Credit === ''].sort()).toEqual([false, true]);
    }
    const debit = (r: Record<string, string>) => (r.Debit ? cents(r.Debit) : 0);
    const credit = (r: Record<string, string>) => (r.Credit ? cents(r.Credit) : 0);
    expect(sum(rows.map(debit))).toBe(3478_96);
    expect(sum(rows.map(credit))).toBe(3478_96);

    // Every entry (its reference and description) balances on its own.
    const entries = new Map<string, number>();
    for (const r of rows) {
      const key = `${r.Reference}|${r.Description}`;
      entries.set(key, (entries.get(key) ?? 0) + debit(r) - credit(r));
    }
    expect(entries.size).toBe(11);
    for (const [entry, balance] of entries) expect(balance, entry).toBe(0);

    const perAccount: Record<string, [number, number]> = {};
    for (const r of rows) {
      const [d, c] = perAccount[r.Account!] ?? [0, 0];
      perAccount[r.Account!] = [d + debit(r), c + credit(r)];
    }
    // [debits, credits] per account.
    expect(perAccount).toEqual({
      '1100': [2243_98, 1159_98], // receivables: invoices and the refund / credit notes and payments
      '4010': [56_82, 875_00],
      '4020': [16_23, 250_00],
      '4030': [199_99, 199_99],
      '4040': [50_00, 100_00],
      '4050': [2_60, 40_00],
      '4900': [24_35, 375_00],
      '2200': [35_00, 184_00],
      '1000': [610_00, 20_00], // bank: check and wire in, the credit refund out
      '1050': [219_99, 219_99], // card clearing: Birch's card payment and its refund
      '2300': [20_00, 55_00], // customer credit: Cedar's credit, of which $20.00 refunded
    });
    // What receivables still holds is what the API says is due.
    const due = sum([book.acme.invoice, book.birch.invoice, book.cedar.invoice].map((i) => apiCents(i.amountDue)));
    expect(perAccount['1100']![0] - perAccount['1100']![1]).toBe(due);
    expect(rows.find((r) => r.Account === '2300' && r.Debit)).toMatchObject({
      Description: 'Credit balance refunded by check · Cedar Books',
      Reference: 'Check 1042',
    });
  });
});

describe('a batch never changes', () => {
  it('is listed newest first with who made it, and downloads as the same bytes every time', async () => {
    const list = await ctx.injectAs('finance', { method: 'GET', url: '/api/accounting/exports?limit=2' });
    expect(list.statusCode).toBe(200);
    expect(list.headers['x-total-count']).toBe('4');
    const batches = list.json() as AccountingExport[];
    expect(batches.map((b) => b.format)).toEqual(['journal', 'xero-credit-notes']);
    expect(batches.map((b) => b.number.slice(-6))).toEqual(['000004', '000003']);

    for (const batch of batches) {
      const first = (await download(batch)).rawPayload;
      const again = (await download(batch)).rawPayload;
      expect(again.equals(first)).toBe(true);
      expect(createHash('sha256').update(first).digest('hex')).toBe(batch.sha256);
      const one = await ctx.injectAs('admin', { method: 'GET', url: `/api/accounting/exports/${batch.id}` });
      expect(one.json()).toEqual(batch);
    }
  });

  it('marks the documents it exported: the invoice and credit note answers name their batches', async () => {
    const batches = (
      await ctx.injectAs('finance', { method: 'GET', url: '/api/accounting/exports' })
    ).json() as AccountingExport[];
    const numberOf = (format: string) => batches.find((b) => b.format === format)!.number;
    const acme = await invoice(book.acme.invoice.id);
    expect(acme.exports.map((e) => [e.number, e.format])).toEqual([
      [numberOf('xero-invoices'), 'xero-invoices'],
      [numberOf('quickbooks-invoices'), 'quickbooks-invoices'],
      [numberOf('journal'), 'journal'],
    ]);
    expect(acme.creditNotes[0]!.exports.map((e) => e.format)).toEqual(['xero-credit-notes', 'journal']);
    const note = await ctx.injectAs('finance', { method: 'GET', url: `/api/credit-notes/${book.notes.cedar.id}` });
    expect((note.json() as CreditNote).exports.map((e) => e.number)).toEqual([
      numberOf('xero-credit-notes'),
      numberOf('journal'),
    ]);
    // The earlier invoice, outside the range, was exported by none.
    expect((await invoice(book.earlier.id)).exports).toEqual([]);
  });
});

describe('a later batch', () => {
  it('holds only what is new in its format: a credit note issued after the first batch', async () => {
    const later = (
      await ctx.injectAs('finance', {
        method: 'POST',
        url: `/api/invoices/${book.acme.invoice.id}/credit-notes`,
        payload: { amount: '22.00', reason: 'Second goodwill' },
      })
    ).json() as CreditNote;

    const notes = await made('xero-credit-notes');
    expect(notes).toMatchObject({ documentCount: 1, documents: { creditNotes: 1 }, total: 22, tax: 2 });
    const rows = await rowsOf(notes);
    expect(rows.map((r) => [r['*CreditNoteNumber'], cents(r['*UnitAmount']!), cents(r.TaxAmount!)])).toEqual([
      [later.number, 11_36, 1_14],
      [later.number, 3_25, 32],
      [later.number, 4_87, 49],
      [later.number, 52, 5],
    ]);

    // The journal takes it too, as one balanced entry; the invoices were exported already in their formats.
    const journal = await made('journal');
    expect(journal).toMatchObject({ documentCount: 1, documents: { creditNotes: 1 }, total: 22 });
    const entry = await rowsOf(journal);
    expect(entry.map((r) => [r.Account, r.Debit, r.Credit])).toEqual([
      ['4010', '11.36', ''],
      ['4020', '3.25', ''],
      ['4900', '4.87', ''],
      ['4050', '0.52', ''],
      ['2200', '2.00', ''],
      ['1100', '', '22.00'],
    ]);

    for (const format of ['xero-invoices', 'quickbooks-invoices']) {
      const again = await exportAs('finance', { from: today, to: today, format });
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toMatch(/^Nothing to export: no invoices from .* earlier .* batch/);
    }
  });

  it('of another range takes what that range holds, by the day each was issued', async () => {
    const earlier = await made('xero-invoices', { from: addDays(today, -90), to: addDays(today, -1) });
    expect(earlier).toMatchObject({ documentCount: 1, total: 88 });
    const rows = await rowsOf(earlier);
    expect(rows.map((r) => [r['*InvoiceNumber'], r['*InvoiceDate']])).toEqual([
      [book.earlier.number, usDate(addDays(today, -60))],
    ]);
  });
});

describe('bad input changes nothing', () => {
  const tooLong = { from: addDays(today, -366), to: today, format: 'journal' };
  it.each([
    ['a range over a year', tooLong, 400, 'The range cannot be longer than 1 year (366 days)'],
    ['To before From', { from: today, to: addDays(today, -1), format: 'journal' }, 400, 'To must be on or after From'],
    ['an unknown format', { from: today, to: today, format: 'sage' }, 400, 'Choose a format'],
    ['no date', { to: today, format: 'journal' }, 400, 'From is required'],
    ['a day that does not exist', { from: '2026-02-30', to: today, format: 'journal' }, 400, null],
  ])('%s: 400', async (_name, payload, status, message) => {
    const before = await ctx.db.select().from(accountingExportDocuments);
    const response = await exportAs('finance', payload);
    expect(response.statusCode).toBe(status);
    if (message) expect(response.json().message).toBe(message);
    expect(await ctx.db.select().from(accountingExportDocuments)).toHaveLength(before.length);
  });

  it('a full year of 366 days is taken', async () => {
    const response = await exportAs('finance', { from: addDays(today, -365), to: today, format: 'xero-invoices' });
    // Everything in it was exported already: nothing new (409), not a refused range.
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toMatch(/^Nothing to export/);
  });

  it('a code the file needs and not set: 409 naming it, nothing kept, the number given back', async () => {
    const lastNumber = (
      (await ctx.injectAs('finance', { method: 'GET', url: '/api/accounting/exports?limit=1' })).json() as {
        number: string;
      }[]
    )[0]!.number;
    await ctx.injectAs('admin', {
      method: 'PUT',
      url: '/api/accounting/settings',
      payload: { ...CODES, revenueAccounts: { ...CODES.revenueAccounts, banner: '' }, receivablesAccount: null },
    });
    await ctx.injectAs('finance', {
      method: 'POST',
      url: `/api/invoices/${book.acme.invoice.id}/credit-notes`,
      payload: { amount: '1.00', reason: 'A cent or two' },
    });
    const response = await exportAs('finance', { from: today, to: today, format: 'journal' });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe(
      'This export needs account codes that are not set: Revenue: Banner Ad, Receivables. An admin sets them in Settings › Accounting.',
    );
    await ctx.injectAs('admin', { method: 'PUT', url: '/api/accounting/settings', payload: CODES });
    const next = await made('journal');
    expect(Number(next.number.slice(-6))).toBe(Number(lastNumber.slice(-6)) + 1);
  });

  it.each([
    ['sales', 403],
    ['sales_manager', 403],
    ['client', 403],
  ] as const)('%s may not export: %d', async (role, status) => {
    expect((await exportAs(role, { from: today, to: today, format: 'journal' })).statusCode).toBe(status);
    expect((await ctx.injectAs(role, { method: 'GET', url: '/api/accounting/exports' })).statusCode).toBe(status);
  });

  it("an unknown batch is 404; a client's invoice answer names no batch", async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect(
      (await ctx.injectAs('finance', { method: 'GET', url: `/api/accounting/exports/${unknown}` })).statusCode,
    ).toBe(404);
    expect(
      (await ctx.injectAs('finance', { method: 'GET', url: `/api/accounting/exports/${unknown}/file` })).statusCode,
    ).toBe(404);
    const client = await ctx.signIn(await createTestUser(ctx.db, { role: 'client', customerId: book.acme.customerId }));
    const seen = await ctx.injectAs(client, { method: 'GET', url: `/api/invoices/${book.acme.invoice.id}` });
    expect(seen.statusCode).toBe(200);
    expect((seen.json() as Invoice).exports).toEqual([]);
    expect((seen.json() as Invoice).creditNotes.map((n) => n.exports)).toEqual([[], [], []]);
  });
});

describe('the date format', () => {
  const settingsNow = async () =>
    (await ctx.injectAs('finance', { method: 'GET', url: '/api/accounting/settings' })).json() as AccountingSettings;

  it('an unknown format is refused with 400 and its message, and nothing changes', async () => {
    const before = await ctx.db.select().from(auditEvents);
    const response = await ctx.injectAs('admin', {
      method: 'PUT',
      url: '/api/accounting/settings',
      payload: { ...CODES, dateFormat: 'DD.MM.YYYY' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors).toEqual({
      dateFormat: ['Choose a date format: MM/DD/YYYY, DD/MM/YYYY, YYYY-MM-DD'],
    });
    expect((await settingsNow()).dateFormat).toBe('MM/DD/YYYY');
    expect(await ctx.db.select().from(auditEvents)).toHaveLength(before.length);
  });

  it('is saved (audited), kept by a client that does not send it, and used by the next Xero file', async () => {
    const saved = await ctx.injectAs('admin', {
      method: 'PUT',
      url: '/api/accounting/settings',
      payload: { ...CODES, dateFormat: 'DD/MM/YYYY' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ dateFormat: 'DD/MM/YYYY' });
    // A client from before the setting sends the codes only: the format stays as set.
    const { dateFormat: _left, ...withoutFormat } = CODES;
    const codesOnly = await ctx.injectAs('admin', {
      method: 'PUT',
      url: '/api/accounting/settings',
      payload: withoutFormat,
    });
    expect(codesOnly.statusCode, codesOnly.body).toBe(200);
    expect((await settingsNow()).dateFormat).toBe('DD/MM/YYYY');

    const note = (
      await ctx.injectAs('finance', {
        method: 'POST',
        url: `/api/invoices/${book.cedar.invoice.id}/credit-notes`,
        payload: { amount: '1.10', reason: 'Rounding' },
      })
    ).json() as CreditNote;
    // The batch takes it and the earlier "A cent or two" note, which no Xero credit notes batch held yet.
    const batch = await made('xero-credit-notes');
    const rows = await rowsOf(batch);
    const day = `${today.slice(8, 10)}/${today.slice(5, 7)}/${today.slice(0, 4)}`;
    expect(rows.map((r) => r['*CreditNoteNumber'])).toContain(note.number);
    expect(new Set(rows.map((r) => r['*CreditNoteDate']))).toEqual(new Set([day]));
    await ctx.injectAs('admin', { method: 'PUT', url: '/api/accounting/settings', payload: CODES });
  });
});
