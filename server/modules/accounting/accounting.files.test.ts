import { DEFAULT_ACCOUNTING_SETTINGS } from '@shared/contracts/accounting-vocabulary';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/errors';
import { type Documents, exportFile, text, xeroDiscount } from './accounting.files';
import type { InvoiceDoc, LineDoc } from './accounting.repo';
import { creditShares, lineShares } from './accounting.shares';

/**
 * The files' rules on documents written out by hand (the API suites reconcile real ones): tax included turned
 * tax exclusive, whole quantities kept, discounts and prorations in Xero's Discount column, the contact's
 * address, date formats, untaxed invoices, negative lines, formulas, missing codes, and the split into parts
 * within each format's limits. Expected figures are literal cents and literal file text.
 */

const settings = {
  ...DEFAULT_ACCOUNTING_SETTINGS,
  revenueAccounts: {
    ...DEFAULT_ACCOUNTING_SETTINGS.revenueAccounts,
    banner: '4010',
    pre_roll: '4020',
    mid_roll: '4030',
    overlay: '4040',
  },
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
    seasonal: false,
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
    customerAddress: { street: null, city: null, state: null, zip: null, country: null },
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
/** The only file of a batch that fits in one. */
const single = (file: ReturnType<typeof exportFile>) => {
  expect(file.parts).toHaveLength(1);
  return file.parts[0]!.content;
};

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
    const content = single(file);
    expect(
      rows(content).map((r) => [r['*Quantity'], r['*UnitAmount'], r.Discount, r.TaxAmount, r['*AccountCode']]),
    ).toEqual([
      ['1', '300.00', '', '30.00', '4010'],
      ['1', '50.00', '', '5.00', '4020'],
    ]);
    expect(rows(content)[1]!['*Description']).toBe(
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
    const [row] = rows(single(exportFile('quickbooks-invoices', only([added]), settings)));
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
    const content = single(exportFile('xero-invoices', only([untaxed]), settings));
    expect(rows(content).map((r) => [r['*UnitAmount'], r['*AccountCode'], r['*TaxType'], r.TaxAmount])).toEqual([
      ['100.00', '4010', 'Tax Exempt', '0.00'],
      ['-30.00', '4900', 'Tax Exempt', '0.00'],
    ]);
    // Quoted as CSV needs (the comma in the name), never as a formula; CRLF line ends; no address, empty cells.
    expect(content.split('\r\n')[1]).toMatch(/^"Frost & Pine, Inc\.",ap@frost\.test,,,,,,INV-2026-000010,/);
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

/**
 * Xero's own arithmetic, done here by the digits of the file's cells (BigInt, never floats): quantity x unit
 * amount x (100 - discount) / 100, rounded half up to the cent. The file is right when this gives each line's
 * amount as billed.
 */
function xeroLineCents(quantity: string, unitAmount: string, discount: string): bigint {
  const hundredths = (value: string) => {
    const [whole, fraction = ''] = value.split('.');
    return BigInt(whole!) * 100n + BigInt(fraction.padEnd(2, '0'));
  };
  const scaled = BigInt(quantity) * hundredths(unitAmount) * (10_000n - (discount ? hundredths(discount) : 0n));
  return (scaled + 5_000n) / 10_000n;
}

describe("Xero's Discount column", () => {
  it.each([
    // [gross, net, discount in hundredths of a percent]
    [100_000, 90_000, 1_000], // 2 x $500.00 less $100.00: 10.00%
    [9_000, 2_903, 6_774], // $90.00 prorated 10 of 31 days ($29.03): 67.74%
    [10_000, 3_333, 6_667], // $100.00 to $33.33: 66.67%
    [9_999, 1, 9_999], // $99.99 to $0.01: 99.99%
    [5_000, 5_000, 0],
    [5_000, 0, 10_000], // all of it off
    [100_000, 32_258, null], // $1,000.00 prorated 10 of 31 days ($322.58): 67.74% gives $322.60, 67.75% $322.50
    [0, 0, null],
    [5_000, 6_000, null], // more than the gross is no discount
    [5_000, -1, null],
  ])('%d to %d cents: %s', (gross, net, hundredths) => {
    expect(xeroDiscount(gross, net)).toBe(hundredths);
  });

  it('always finds one that lands on the cent when the gross is at most $100.00', () => {
    for (let gross = 1; gross <= 10_000; gross += 37) {
      for (let net = 0; net <= gross; net += Math.max(1, Math.floor(gross / 97))) {
        const found = xeroDiscount(gross, net);
        expect(found, `${gross} -> ${net}`).not.toBeNull();
        const cell = `${Math.floor(found! / 100)}.${String(found! % 100).padStart(2, '0')}`;
        const unit = `${Math.floor(gross / 100)}.${String(gross % 100).padStart(2, '0')}`;
        expect(xeroLineCents('1', unit, cell), `${gross} -> ${net} with ${cell}%`).toBe(BigInt(net));
      }
    }
  });
});

describe('a Xero invoice: the address, the Discount column and the date format, as a literal file', () => {
  // December 2026 (in season), 10% tax added. Lines: 2 x $500.00 less $100.00 ($900.00); $90.00 prorated 10 of
  // 31 days ($29.03); 3 x $150.00 at the in-season price ($450.00); $1,000.00 prorated 10 of 31 days ($322.58).
  // Subtotal $1,701.61, tax $170.16 spread in proportion: $90.00, $2.90, $45.00, $32.26.
  const december = invoiceDoc({
    issuedAt: new Date('2026-12-01T15:00:00Z'),
    dueDate: '2026-12-15',
    contractTitle: 'Frost winter campaign',
    customerAddress: {
      street: '200 Harbor Way\nSuite 4',
      city: 'Portland',
      state: 'OR',
      zip: '97201',
      country: 'United States',
    },
    taxRateBp: 1000,
    subtotalCents: 1701_61,
    taxCents: 170_16,
    totalCents: 1871_77,
    lines: [
      line({
        description: 'Homepage banner',
        quantity: 2,
        unitPriceCents: 500_00,
        discountCents: 100_00,
        amountCents: 900_00,
        priceMetric: 'monthly',
        coversStart: '2026-12-01',
        coversEnd: '2026-12-31',
      }),
      line({
        adType: 'pre_roll',
        description: 'Pre-roll 15s',
        unitPriceCents: 90_00,
        amountCents: 29_03,
        priceMetric: 'monthly',
        coversStart: '2026-12-22',
        coversEnd: '2026-12-31',
        proratedDays: 10,
        periodDays: 31,
      }),
      line({
        adType: 'overlay',
        description: 'Lower-third overlay',
        quantity: 3,
        unitPriceCents: 150_00,
        seasonal: true,
        amountCents: 450_00,
        priceMetric: 'monthly',
        coversStart: '2026-12-01',
        coversEnd: '2026-12-31',
      }),
      line({
        adType: 'mid_roll',
        description: 'Mid-roll 30s',
        unitPriceCents: 1000_00,
        amountCents: 322_58,
        priceMetric: 'monthly',
        coversStart: '2026-12-22',
        coversEnd: '2026-12-31',
        proratedDays: 10,
        periodDays: 31,
      }),
    ],
  });
  const contact =
    '"Frost & Pine, Inc.",ap@frost.test,"200 Harbor Way, Suite 4",Portland,OR,97201,United States,INV-2026-000010,Frost winter campaign';

  it('is exactly this text, with DD/MM/YYYY dates', () => {
    const content = single(exportFile('xero-invoices', only([december]), { ...settings, dateFormat: 'DD/MM/YYYY' }));
    expect(content).toBe(
      [
        '*ContactName,EmailAddress,POAddressLine1,POCity,PORegion,POPostalCode,POCountry,*InvoiceNumber,Reference,*InvoiceDate,*DueDate,*Description,*Quantity,*UnitAmount,Discount,*AccountCode,*TaxType,TaxAmount,Currency',
        `${contact},01/12/2026,15/12/2026,"Homepage banner (Per Month · Dec 1, 2026 – Dec 31, 2026 · 2 × $500.00 less $100.00 discount)",2,500.00,10.00,4010,Tax on Sales,90.00,USD`,
        `${contact},01/12/2026,15/12/2026,"Pre-roll 15s (Per Month · Dec 22, 2026 – Dec 31, 2026 · prorated 10 of 31 days)",1,90.00,67.74,4020,Tax on Sales,2.90,USD`,
        `${contact},01/12/2026,15/12/2026,"Lower-third overlay (Per Month · Dec 1, 2026 – Dec 31, 2026 · in-season price)",3,150.00,,4040,Tax on Sales,45.00,USD`,
        `${contact},01/12/2026,15/12/2026,"Mid-roll 30s (Per Month · Dec 22, 2026 – Dec 31, 2026 · prorated 10 of 31 days)",1,322.58,,4030,Tax on Sales,32.26,USD`,
        '',
      ].join('\r\n'),
    );
  });

  it("gives each line's amount to the cent by Xero's own arithmetic, and the invoice's total with the tax", () => {
    const parsed = rows(single(exportFile('xero-invoices', only([december]), settings)));
    const amounts = parsed.map((r) => xeroLineCents(r['*Quantity']!, r['*UnitAmount']!, r.Discount!));
    expect(amounts).toEqual([900_00n, 29_03n, 450_00n, 322_58n]);
    const tax = parsed.map((r) => xeroLineCents('1', r.TaxAmount!, ''));
    expect([...amounts, ...tax].reduce((a, b) => a + b, 0n)).toBe(1871_77n);
  });

  it.each([
    ['MM/DD/YYYY', '12/01/2026', '12/15/2026'],
    ['DD/MM/YYYY', '01/12/2026', '15/12/2026'],
    ['YYYY-MM-DD', '2026-12-01', '2026-12-15'],
  ] as const)(
    '%s: the Xero and QuickBooks files write %s and %s; the journal its own YYYY-MM-DD',
    (format, issued, due) => {
      const chosen = { ...settings, dateFormat: format };
      const [xero] = rows(single(exportFile('xero-invoices', only([december]), chosen)));
      expect([xero!['*InvoiceDate'], xero!['*DueDate']]).toEqual([issued, due]);
      const [quickbooks] = rows(single(exportFile('quickbooks-invoices', only([december]), chosen)));
      expect([quickbooks!['Invoice date'], quickbooks!['Due date']]).toEqual([issued, due]);
      const [journal] = rows(single(exportFile('journal', only([december]), chosen)));
      expect(journal!.Date).toBe('2026-12-01');
    },
  );
});

describe('parts: what one file may hold', () => {
  /** `count` invoices numbered from 1, each of `lines` $10.00 banner lines, untaxed. */
  const invoices = (count: number, lines = 1, from = 1) =>
    Array.from({ length: count }, (_, i) =>
      invoiceDoc({
        id: `inv-${from + i}`,
        number: `INV-2026-${String(from + i).padStart(6, '0')}`,
        subtotalCents: lines * 10_00,
        totalCents: lines * 10_00,
        lines: Array.from({ length: lines }, () => line({ unitPriceCents: 10_00, amountCents: 10_00 })),
      }),
    );
  /** Each part: how many invoices, how many rows, and its invoices' numbers (each once). */
  const shape = (file: ReturnType<typeof exportFile>) =>
    file.parts.map((part) => {
      const parsed = rows(part.content);
      const numbers = new Set(parsed.map((r) => r['Invoice no.'] ?? r['*InvoiceNumber'] ?? r.Reference));
      expect(part.rows).toBe(parsed.length);
      expect(part.documents.map((ref) => ref.id).sort()).toEqual(
        [...numbers].map((n) => `inv-${Number(n!.slice(-6))}`).sort(),
      );
      return [numbers.size, parsed.length];
    });

  it('QuickBooks: 250 invoices make 3 parts of 100, 100 and 50, none twice, every one once', () => {
    const file = exportFile('quickbooks-invoices', only(invoices(250)), settings);
    expect(shape(file)).toEqual([
      [100, 100],
      [100, 100],
      [50, 50],
    ]);
    const held = file.parts.flatMap((part) => part.documents.map((ref) => ref.id));
    expect(new Set(held).size).toBe(250);
    expect(held).toEqual(invoices(250).map((i) => i.id));
    // Each part is a whole file: its own header row first.
    for (const part of file.parts) expect(part.content.split('\r\n')[0]).toMatch(/^Invoice no\.,Customer,/);
    expect(file.totalCents).toBe(2500_00);
  });

  it('QuickBooks: an invoice whose rows would pass 1,000 starts the next part; 1,000 exactly stays', () => {
    // 90 invoices of 11 lines are 990 rows: an invoice of 11 more would make 1,001.
    expect(shape(exportFile('quickbooks-invoices', only(invoices(91, 11)), settings))).toEqual([
      [90, 990],
      [1, 11],
    ]);
    // ... and one of 10 more makes exactly 1,000: one file.
    expect(
      shape(exportFile('quickbooks-invoices', only([...invoices(90, 11), ...invoices(1, 10, 91)]), settings)),
    ).toEqual([[91, 1000]]);
  });

  it('QuickBooks: an invoice of more than 1,000 lines alone cannot be exported (409)', () => {
    expect(() => exportFile('quickbooks-invoices', only(invoices(1, 1001)), settings)).toThrow(
      new AppError(
        'CONFLICT',
        'QuickBooks Online imports at most 1,000 rows a file, and invoice INV-2026-000001 alone makes 1,001: it cannot be exported as QuickBooks invoices. Choose another format for it.',
      ),
    );
  });

  it('Xero: 500 invoices a file, 501 make two parts', () => {
    expect(shape(exportFile('xero-invoices', only(invoices(500)), settings))).toEqual([[500, 500]]);
    expect(shape(exportFile('xero-invoices', only(invoices(501, 2)), settings))).toEqual([
      [500, 1000],
      [1, 2],
    ]);
  });

  it('the journal: 10,000 rows a file, an entry never split, each part balanced', () => {
    // An untaxed one-line invoice is an entry of 2 rows: receivables debited, revenue credited.
    const file = exportFile('journal', only(invoices(5001)), settings);
    expect(file.parts.map((part) => [part.documents.length, part.rows])).toEqual([
      [5000, 10_000],
      [1, 2],
    ]);
    for (const part of file.parts) {
      const parsed = rows(part.content);
      const debits = parsed.filter((r) => r.Debit).length * 10_00;
      const credits = parsed.filter((r) => r.Credit).length * 10_00;
      expect(debits).toBe(credits);
    }
  });
});
