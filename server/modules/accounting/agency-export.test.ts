import type { AccountingExport, AccountingSettings } from '@shared/contracts/accounting';
import type { CreditNote } from '@shared/contracts/credit-notes';
import { parse } from 'csv-parse/sync';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoices } from '../../db/schema';
import { businessToday } from '../../lib/business-day';
import { buildTestApp, type TestContext } from '../../test/app';
import { createBillableContract, setTaxSettings } from '../../test/billing-factories';
import { createTestCustomer, createTestProduct } from '../../test/catalog-factories';
import { runBilling } from '../billing/billing-run';

/**
 * The accounting export of agency billing (product.md section 20, decision 060): the contact of an invoice, its
 * credit notes and payments is the bill-to (the agency), the advertiser named in the Reference, the description
 * or the memo; a net-billed invoice's commission line is its own negative line on the agency commission account;
 * a gross-billed invoice's commission, once the invoice is paid, is a journal entry of its own: agency commission
 * debited, agency commissions payable credited. Tax 10% added; figures worked by hand (cents):
 *
 *   Cardinal Media (agency, 15%) is billed for
 *     Bella Notte Trattoria, net:  banner 1,000.00; commission -150.00; tax on 850.00 = 85.00 (100.00 on the
 *                                  banner, -15.00 on the commission: the tax spread over the lines); total 935.00.
 *                                  A credit note of 55.00 (5.00 tax): all on the banner's revenue.
 *     Olive Grove, gross:          pre-roll 400.00; tax 40.00; total 440.00; commission 60.00 owed once paid.
 *                                  Paid 200.00 by check, then 240.00 by wire: the second pays it in full.
 */

let ctx: TestContext;
const today = businessToday();
const BASE_URL = 'https://crm.example.test';

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
  dateFormat: 'YYYY-MM-DD',
};

let bellaNumber: string;
let oliveNumber: string;
let creditNumber: string;

const post = async (url: string, payload: object, who: 'finance' | 'admin' = 'finance') => {
  const response = await ctx.injectAs(who, { method: 'POST', url, payload });
  expect(response.statusCode, response.body).toBeLessThan(300);
  return response.json();
};
const putCodes = async (payload: object) => {
  const response = await ctx.injectAs('admin', { method: 'PUT', url: '/api/accounting/settings', payload });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as AccountingSettings;
};
async function exported(format: string): Promise<Record<string, string>[]> {
  const batch = (await post('/api/accounting/exports', { from: today, to: today, format })) as AccountingExport;
  const file = await ctx.injectAs('finance', { method: 'GET', url: `/api/accounting/exports/${batch.id}/file` });
  expect(file.statusCode).toBe(200);
  return parse(file.body, { columns: true, skip_empty_lines: true });
}

beforeAll(async () => {
  ctx = await buildTestApp({ config: { PUBLIC_URL: BASE_URL } });
  await setTaxSettings(ctx.db, { defaultTaxRate: 10, taxIncluded: false, taxLabel: 'Sales tax' });
  const banner = await createTestProduct(ctx.db, { adType: 'banner', name: 'Homepage banner' });
  const preRoll = await createTestProduct(ctx.db, { adType: 'pre_roll', name: 'Pre-roll 15s' });
  const cardinal = await createTestCustomer(ctx.db, {
    name: 'Cardinal Media',
    email: 'ap@cardinal.test',
    address: '12 Market St',
    city: 'Springfield',
    state: 'IL',
    zipCode: '62701',
    country: 'US',
    kind: 'agency',
    agencyCommissionBp: 1500,
  });
  const bella = await createTestCustomer(ctx.db, { name: 'Bella Notte Trattoria', email: 'owner@bella.test' });
  const olive = await createTestCustomer(ctx.db, { name: 'Olive Grove', email: 'hello@olive.test' });
  const issue = async (options: Parameters<typeof createBillableContract>[1]) => {
    const { contract } = await createBillableContract(ctx.db, options);
    await runBilling(ctx.db, { contractId: contract.id, asOf: today, baseUrl: BASE_URL });
    const [invoice] = await ctx.db.select().from(invoices).where(eq(invoices.contractId, contract.id));
    return invoice!;
  };
  const bellaInvoice = await issue({
    startDate: today,
    customerId: bella.id,
    title: 'Bella spring',
    lines: [{ productId: banner.id, unitPriceCents: 1000_00 }],
    billToCustomerId: cardinal.id,
    agencyCommissionBp: 1500,
    agencyBillingMode: 'net',
  });
  const oliveInvoice = await issue({
    startDate: today,
    customerId: olive.id,
    title: 'Olive launch',
    lines: [{ productId: preRoll.id, unitPriceCents: 400_00 }],
    billToCustomerId: cardinal.id,
    agencyCommissionBp: 1500,
    agencyBillingMode: 'gross',
  });
  expect([bellaInvoice, oliveInvoice].map((i) => [i.billToCustomerId, i.totalCents, i.agencyCommissionCents])).toEqual([
    [cardinal.id, 935_00, 150_00],
    [cardinal.id, 440_00, 60_00],
  ]);
  bellaNumber = bellaInvoice.number;
  oliveNumber = oliveInvoice.number;
  const note = (await post(`/api/invoices/${bellaInvoice.id}/credit-notes`, {
    amount: '55.00',
    reason: 'Goodwill',
  })) as CreditNote;
  creditNumber = note.number;
  await post(`/api/invoices/${oliveInvoice.id}/payments`, { amount: '200.00', method: 'check', reference: 'Chk 1' });
  await post(`/api/invoices/${oliveInvoice.id}/payments`, { amount: '240.00', method: 'wire', reference: 'Wire 2' });
});
afterAll(() => ctx.close());

describe('the agency accounts in the settings', () => {
  it('are left out until set (their defaults apply), then kept by a client that does not send them', async () => {
    const first = await putCodes(CODES);
    expect(first).toEqual(CODES);
    expect(first).not.toHaveProperty('agencyCommissionAccount');
  });
});

describe('Xero invoices of an agency', () => {
  it('names the agency as the contact, the advertiser in the Reference, and the commission as its own line', async () => {
    const rows = (await exported('xero-invoices')).map((r) => [
      r['*ContactName'],
      r.EmailAddress,
      r.POCity,
      r['*InvoiceNumber'],
      r.Reference,
      r['*Description'],
      r['*Quantity'],
      r['*UnitAmount'],
      r['*AccountCode'],
      r.TaxAmount,
    ]);
    const desc = (i: number) => rows[i]![5]!;
    expect(desc(1)).toBe('Agency commission 15%');
    expect(rows).toEqual([
      [
        'Cardinal Media',
        'ap@cardinal.test',
        'Springfield',
        bellaNumber,
        'Bella spring · Advertiser: Bella Notte Trattoria',
        desc(0),
        '1',
        '1000.00',
        '4010',
        '100.00',
      ],
      // The settings never named the account: its default.
      [
        'Cardinal Media',
        'ap@cardinal.test',
        'Springfield',
        bellaNumber,
        'Bella spring · Advertiser: Bella Notte Trattoria',
        'Agency commission 15%',
        '1',
        '-150.00',
        'Agency commission',
        '-15.00',
      ],
      [
        'Cardinal Media',
        'ap@cardinal.test',
        'Springfield',
        oliveNumber,
        'Olive launch · Advertiser: Olive Grove',
        desc(2),
        '1',
        '400.00',
        '4020',
        '40.00',
      ],
    ]);
  });
});

describe('Xero credit notes of an agency', () => {
  it('names the agency, the advertiser in the description, all on revenue (the commission takes no share)', async () => {
    const rows = (await exported('xero-credit-notes')).map((r) => [
      r['*ContactName'],
      r['*CreditNoteNumber'],
      r.Reference,
      r['*Description'],
      r['*UnitAmount'],
      r['*AccountCode'],
      r.TaxAmount,
    ]);
    expect(rows).toEqual([
      [
        'Cardinal Media',
        creditNumber,
        bellaNumber,
        `Goodwill (credit on ${bellaNumber}) · Advertiser: Bella Notte Trattoria`,
        '50.00',
        '4010',
        '5.00',
      ],
    ]);
  });
});

describe('the journal of agency billing', () => {
  it('books the commission line, and the payable of a gross invoice when it is paid in full', async () => {
    const saved = await putCodes({ ...CODES, agencyCommissionAccount: '5100', agencyPayableAccount: '2400' });
    expect(saved).toMatchObject({ agencyCommissionAccount: '5100', agencyPayableAccount: '2400' });
    // A client that does not send them keeps them.
    expect(await putCodes(CODES)).toMatchObject({ agencyCommissionAccount: '5100', agencyPayableAccount: '2400' });

    const rows = (await exported('journal')).map((r) => [r.Account, r.Description, r.Debit, r.Credit, r.Reference]);
    expect(rows).toEqual([
      [
        '1100',
        `Invoice ${bellaNumber} · Cardinal Media · Advertiser: Bella Notte Trattoria`,
        '935.00',
        '',
        bellaNumber,
      ],
      [
        '4010',
        `Invoice ${bellaNumber} · Cardinal Media · Advertiser: Bella Notte Trattoria`,
        '',
        '1000.00',
        bellaNumber,
      ],
      [
        '5100',
        `Invoice ${bellaNumber} · Cardinal Media · Advertiser: Bella Notte Trattoria`,
        '150.00',
        '',
        bellaNumber,
      ],
      ['2200', `Invoice ${bellaNumber} · Cardinal Media · Advertiser: Bella Notte Trattoria`, '', '85.00', bellaNumber],
      ['1100', `Invoice ${oliveNumber} · Cardinal Media · Advertiser: Olive Grove`, '440.00', '', oliveNumber],
      ['4020', `Invoice ${oliveNumber} · Cardinal Media · Advertiser: Olive Grove`, '', '400.00', oliveNumber],
      ['2200', `Invoice ${oliveNumber} · Cardinal Media · Advertiser: Olive Grove`, '', '40.00', oliveNumber],
      [
        '4010',
        `Credit note ${creditNumber} on ${bellaNumber} · Cardinal Media · Advertiser: Bella Notte Trattoria`,
        '50.00',
        '',
        creditNumber,
      ],
      [
        '2200',
        `Credit note ${creditNumber} on ${bellaNumber} · Cardinal Media · Advertiser: Bella Notte Trattoria`,
        '5.00',
        '',
        creditNumber,
      ],
      [
        '1100',
        `Credit note ${creditNumber} on ${bellaNumber} · Cardinal Media · Advertiser: Bella Notte Trattoria`,
        '',
        '55.00',
        creditNumber,
      ],
      // The first payment leaves 240.00 due: nothing owed to the agency yet.
      [
        '1000',
        `Payment of ${oliveNumber} by check · Cardinal Media · Advertiser: Olive Grove`,
        '200.00',
        '',
        oliveNumber,
      ],
      [
        '1100',
        `Payment of ${oliveNumber} by check · Cardinal Media · Advertiser: Olive Grove`,
        '',
        '200.00',
        oliveNumber,
      ],
      [
        '1000',
        `Payment of ${oliveNumber} by wire transfer · Cardinal Media · Advertiser: Olive Grove`,
        '240.00',
        '',
        oliveNumber,
      ],
      [
        '1100',
        `Payment of ${oliveNumber} by wire transfer · Cardinal Media · Advertiser: Olive Grove`,
        '',
        '240.00',
        oliveNumber,
      ],
      // Paid in full: 15% of 400.00 is owed to Cardinal Media.
      [
        '5100',
        `Agency commission on ${oliveNumber} owed to Cardinal Media · Advertiser: Olive Grove`,
        '60.00',
        '',
        oliveNumber,
      ],
      [
        '2400',
        `Agency commission on ${oliveNumber} owed to Cardinal Media · Advertiser: Olive Grove`,
        '',
        '60.00',
        oliveNumber,
      ],
    ]);
    const amount = (text: string) => (text ? Math.round(Number(text) * 100) : 0);
    const debits = rows.reduce((sum, r) => sum + amount(r[2]!), 0);
    const credits = rows.reduce((sum, r) => sum + amount(r[3]!), 0);
    expect(debits).toBe(credits);
    expect(debits).toBe(935_00 + 150_00 + 440_00 + 55_00 + 200_00 + 240_00 + 60_00);
  });
});

describe('QuickBooks invoices of an agency', () => {
  it('names the agency as the customer and the advertiser in each line description', async () => {
    const rows = (await exported('quickbooks-invoices')).map((r) => [
      r['Invoice no.'],
      r.Customer,
      r['Item(Product/Service)'],
      r['Item description'],
      r['Item amount'],
      r['Item tax amount'],
    ]);
    expect(rows.map((r) => r.slice(0, 3).concat(r.slice(4)))).toEqual([
      [bellaNumber, 'Cardinal Media', '4010', '1000.00', '100.00'],
      [bellaNumber, 'Cardinal Media', '5100', '-150.00', '-15.00'],
      [oliveNumber, 'Cardinal Media', '4020', '400.00', '40.00'],
    ]);
    expect(rows[1]![3]).toBe('Agency commission 15% · Advertiser: Bella Notte Trattoria');
    expect(rows[2]![3]).toMatch(/^Pre-roll 15s.* · Advertiser: Olive Grove$/);
  });
});
