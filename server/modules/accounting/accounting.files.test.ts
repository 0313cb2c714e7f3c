import { DEFAULT_ACCOUNTING_SETTINGS } from '@shared/contracts/accounting-vocabulary';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/errors';
import { assertWithinLimits, type Documents, exportFile, text, usDate } from './accounting.files';
import type { InvoiceDoc, LineDoc } from './accounting.repo';
import { creditShares, lineShares } from './accounting.shares';

/**
 * The files' rules on documents written out by hand (the API suite reconciles real ones): tax included turned
 * tax exclusive, whole quantities kept, untaxed invoices, negative lines, formulas, missing codes. Expected
 * figures are literal cents.
 */

const settings = {
  ...DEFAULT_ACCOUNTING_SETTINGS,
  revenueAccounts: { ...DEFAULT_ACCOUNTING_SETTINGS.revenueAccounts, banner: '4010', pre_roll: '4020' },
  otherRevenueAccount: '4900',
  taxAccount: '2200',
  receivablesAccount: '1100',
  bankAccount: '1000',
  cardClearingAccount: '1050',
  customerCreditAccount: '2300',
};

function line(fields: Partial<LineDoc>): LineDoc {
  return {
    invoiceId: 'inv-1',
    kind: 'product',
    description: 'Banner',
    quantity: 1,
    unitPriceCents: 0,
    discountCents: 0,
    amountCents: 0,
    priceMetric: null,
    coversStart: null,
    coversEnd: null,
    proratedDays: null,
    periodDays: null,
    impressions: null,
    adType: 'banner',
    ...fields,
  };
}

function invoiceDoc(fields: Partial<InvoiceDoc>): InvoiceDoc {
  return {
    id: 'inv-1',
    number: 'INV-2026-000010',
    issuedAt: new Date('2026-03-05T15:00:00Z'),
    dueDate: '2026-03-12',
    customerName: 'Frost & Pine, Inc.',
    customerEmail: 'ap@frost.test',
    contractTitle: null,
    subtotalCents: 0,
    taxCents: 0,
    totalCents: 0,
    taxRateBp: 0,
    taxIncluded: false,
    lines: [],
    ...fields,
  };
}

const only = (invoices: InvoiceDoc[]): Documents => ({ invoices, creditNotes: [], payments: [], creditRefunds: [] });
const rows = (content: string) => parse(content, { columns: true }) as Record<string, string>[];

describe('invoice lines', () => {
  // 3 x $110.00 (tax included, 10%) and $55.00 prorated: $385.00 in all, of which $35.00 tax.
  const included = invoiceDoc({
    taxIncluded: true,
    taxRateBp: 1000,
    subtotalCents: 385_00,
    taxCents: 35_00,
    totalCents: 385_00,
    lines: [
      line({ quantity: 3, unitPriceCents: 110_00, amountCents: 330_00 }),
      line({
        adType: 'pre_roll',
        description: 'Pre-roll',
        unitPriceCents: 110_00,
        amountCents: 55_00,
        proratedDays: 15,
        periodDays: 30,
        priceMetric: 'monthly',
        coversStart: '2026-03-16',
        coversEnd: '2026-03-31',
      }),
    ],
  });

  it('with tax included: one unit of each net amount, the tax beside it, adding up to the total', () => {
    const file = exportFile('xero-invoices', only([included]), settings);
    expect(file).toMatchObject({ totalCents: 385_00, taxCents: 35_00 });
    expect(
      rows(file.content).map((r) => [r['*Quantity'], r['*UnitAmount'], r.TaxAmount, r['*AccountCode'], r['*TaxType']]),
    ).toEqual([
      ['1', '300.00', '30.00', '4010', 'Tax on Sales'],
      ['1', '50.00', '5.00', '4020', 'Tax on Sales'],
    ]);
    expect(rows(file.content)[1]!['*Description']).toBe(
      'Pre-roll (Per Month · Mar 16, 2026 – Mar 31, 2026 · prorated 15 of 30 days)',
    );
  });

  it('with tax added: a whole quantity stays as billed', () => {
    const added = invoiceDoc({
      taxRateBp: 1000,
      subtotalCents: 330_00,
      taxCents: 33_00,
      totalCents: 363_00,
      lines: [line({ quantity: 3, unitPriceCents: 110_00, amountCents: 330_00 })],
    });
    const [row] = rows(exportFile('quickbooks-invoices', only([added]), settings).content);
    expect(row).toMatchObject({
      'Item quantity': '3',
      'Item rate': '110.00',
      'Item amount': '330.00',
      'Item tax amount': '33.00',
      'Item tax code': 'TAX',
      'Invoice date': '03/05/2026',
      'Due date': '03/12/2026',
    });
  });

  it('an untaxed invoice names the tax-free rate; a negative line stays negative', () => {
    const untaxed = invoiceDoc({
      subtotalCents: 70_00,
      totalCents: 70_00,
      lines: [
        line({ amountCents: 100_00, unitPriceCents: 100_00 }),
        line({ kind: 'adjustment', amountCents: -30_00, unitPriceCents: -30_00, adType: null }),
      ],
    });
    const content = exportFile('xero-invoices', only([untaxed]), settings).content;
    expect(rows(content).map((r) => [r['*UnitAmount'], r['*AccountCode'], r['*TaxType'], r.TaxAmount])).toEqual([
      ['100.00', '4010', 'Tax Exempt', '0.00'],
      ['-30.00', '4900', 'Tax Exempt', '0.00'],
    ]);
    // Quoted as CSV needs (the comma in the name), never as a formula; CRLF line ends.
    expect(content.split('\r\n')[1]).toMatch(/^"Frost & Pine, Inc\.",ap@frost\.test,INV-2026-000010,/);
  });

  it('spreads tax over lines in proportion to the cent, the shares adding up to the invoice', () => {
    const shares = lineShares({
      taxCents: 10_01,
      taxRateBp: 1000,
      taxIncluded: false,
      lines: [line({ amountCents: 33_33 }), line({ amountCents: 33_33 }), line({ amountCents: 33_44 })],
    });
    expect(shares.map((s) => s.taxCents)).toEqual([3_33, 3_33, 3_35]);
    expect(
      creditShares(
        { amountCents: 11_00, taxCents: 1_00 },
        { taxCents: 0, taxRateBp: 0, taxIncluded: false, lines: [] },
      ),
    ).toEqual([{ key: 'other', netCents: 10_00, taxCents: 1_00 }]);
  });
});

describe('text cells', () => {
  it.each([
    ['=HYPERLINK("x")', `'=HYPERLINK("x")`],
    ['+1 555', `'+1 555`],
    ['-rebate', `'-rebate`],
    ['@home', `'@home`],
    ['Acme', 'Acme'],
    [null, ''],
  ])('%j is written as %j', (value, written) => {
    expect(text(value)).toBe(written);
  });

  it('dates as a US organisation reads them', () => {
    expect(usDate('2026-12-01')).toBe('12/01/2026');
  });
});

describe('account codes', () => {
  it('a file that needs codes not set is refused with 409, naming each once', () => {
    const twoBanners = invoiceDoc({
      subtotalCents: 20_00,
      totalCents: 20_00,
      lines: [line({ amountCents: 10_00 }), line({ amountCents: 10_00 })],
    });
    const bare = {
      ...settings,
      revenueAccounts: { ...settings.revenueAccounts, banner: null },
      receivablesAccount: null,
    };
    expect(() => exportFile('xero-invoices', only([twoBanners]), bare)).toThrow(
      new AppError(
        'CONFLICT',
        'This export needs account codes that are not set: Revenue: Banner Ad. An admin sets them in Settings › Accounting.',
      ),
    );
    expect(() => exportFile('journal', only([twoBanners]), bare)).toThrow(/not set: Receivables, Revenue: Banner Ad\./);
  });
});

describe('what one file may hold', () => {
  it.each([
    ['xero-invoices', 500, undefined, null],
    [
      'xero-invoices',
      501,
      undefined,
      'Xero imports at most 500 invoices a file; this range has 501 new ones. Choose a shorter range.',
    ],
    [
      'xero-credit-notes',
      501,
      undefined,
      'Xero imports at most 500 credit notes a file; this range has 501 new ones. Choose a shorter range.',
    ],
    ['quickbooks-invoices', 100, 1000, null],
    [
      'quickbooks-invoices',
      101,
      undefined,
      'QuickBooks Online imports at most 100 invoices a file; this range has 101 new ones. Choose a shorter range.',
    ],
    [
      'quickbooks-invoices',
      90,
      1001,
      'QuickBooks Online imports at most 1,000 rows a file; these 90 invoices make 1,001. Choose a shorter range.',
    ],
    ['journal', 50_000, 200_000, null],
  ] as const)('%s: %d documents, %s rows', (format, documents, rows, message) => {
    const check = () => assertWithinLimits(format, documents, rows);
    if (message === null) expect(check).not.toThrow();
    else expect(check).toThrow(new AppError('CONFLICT', message));
  });
});
