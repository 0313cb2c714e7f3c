import { describe, expect, it } from 'vitest';
import type { BillableLine } from './billing';
import { contractFigures, type FiguresContract, figuresReferenceDay } from './contract-figures';

/**
 * The figures shown before billing, held to amounts worked out by hand (each comment shows the sum), so that
 * what the form, the contract page, the lists and the e-mail say is what the first invoices will charge.
 */

const line = (overrides: Partial<BillableLine>): BillableLine => ({
  description: 'Banner',
  productId: null,
  priceMetric: 'monthly',
  quantity: 1,
  unitPriceCents: 0,
  discountCents: 0,
  seasonalPriceCents: null,
  flightStart: '2026-12-01',
  flightEnd: null,
  ...overrides,
});

const contract = (overrides: Partial<FiguresContract>): FiguresContract => ({
  startDate: '2026-12-01',
  autoStopDate: null,
  lines: [],
  packageName: null,
  packagePriceCents: 0,
  setupFeeCents: 0,
  ...overrides,
});

describe('contractFigures', () => {
  // A CPM line of $3,000.00 a month and two flat lines of $2,500.00 (in season $3,500.00) and $1,800.00,
  // from December 1 for 3 months: the form once said "one-time $4,300, Total $7,300" while December bills
  // $8,300.00.
  const holiday = contract({
    autoStopDate: '2027-03-01',
    lines: [
      line({ description: 'Pre-roll (CPM)', priceMetric: 'cpm', quantity: 250, unitPriceCents: 12_00 }),
      line({
        description: 'Homepage Takeover',
        priceMetric: 'flat',
        unitPriceCents: 2_500_00,
        seasonalPriceCents: 3_500_00,
        flightEnd: '2026-12-07',
      }),
      line({ description: 'Holiday Pre-roll', priceMetric: 'flat', unitPriceCents: 1_800_00, flightEnd: '2026-12-14' }),
    ],
  });

  it('bills the flat line at its in-season price on the first invoice: $8,300.00 on December 1', () => {
    const figures = contractFigures(holiday, { from: '2026-12-01' });
    expect(figures.firstInvoice).toEqual({
      periodStart: '2026-12-01',
      periodEnd: '2026-12-31',
      dueDate: '2026-12-08',
      subtotalCents: 8_300_00, // 3,000 + 3,500 + 1,800
      taxCents: 0,
      totalCents: 8_300_00,
    });
    expect(figures.monthlyCents).toBe(3_000_00);
    expect(figures.seasonalMonthlyCents).toBe(3_000_00); // the CPM line has no in-season price
    expect(figures.oneTimeCharges).toEqual([
      { kind: 'flat', description: 'Homepage Takeover', amountCents: 3_500_00, billedOn: '2026-12-01', seasonal: true },
      { kind: 'flat', description: 'Holiday Pre-roll', amountCents: 1_800_00, billedOn: '2026-12-01', seasonal: false },
    ]);
    expect(figures.oneTimeCents).toBe(5_300_00);
    // December 8,300 + January 3,000 + February 3,000
    expect(figures.termValueCents).toBe(14_300_00);
    expect(figures.termPeriods).toBe(3);
  });

  it('adds the tax of the rule to the first invoice only', () => {
    const added = contractFigures(holiday, { from: '2026-12-01', tax: { rateBp: 1000, included: false } });
    expect(added.firstInvoice).toMatchObject({ subtotalCents: 8_300_00, taxCents: 830_00, totalCents: 9_130_00 });
    expect(added.termValueCents).toBe(14_300_00);
    // 830,000 cents x 825 / 10,825 = 63,256.35 -> $632.56 of tax inside the price
    const included = contractFigures(holiday, { from: '2026-12-01', tax: { rateBp: 825, included: true } });
    expect(included.firstInvoice).toMatchObject({ taxCents: 632_56, totalCents: 8_300_00 });
  });

  it('prorates a first period the flight covers in part, while the monthly amount stays the rate', () => {
    // $310.00 a month, running December 12-31: 20 of 31 days = $200.00
    const figures = contractFigures(
      contract({ lines: [line({ unitPriceCents: 310_00, flightStart: '2026-12-12' })] }),
      { from: '2026-12-01' },
    );
    expect(figures.firstInvoice.subtotalCents).toBe(200_00);
    expect(figures.monthlyCents).toBe(310_00);
    expect(figures.termValueCents).toBeNull();
  });

  it('leaves a line that has ended out of the monthly amounts', () => {
    const lines = [
      line({ unitPriceCents: 1_000_00, seasonalPriceCents: 1_200_00, flightStart: '2026-10-01' }),
      line({ description: 'Overlay', unitPriceCents: 500_00, flightStart: '2026-10-01', flightEnd: '2026-11-27' }),
    ];
    const running = contract({ startDate: '2026-10-01', lines });
    // From December 1 (the next period of a running contract on November 27) the overlay no longer bills.
    expect(contractFigures(running, { from: '2026-12-01' })).toMatchObject({
      monthlyCents: 1_000_00,
      seasonalMonthlyCents: 1_200_00,
    });
    // Seen from October 1 it still runs: 1,000 + 500 (in season 1,200 + 500).
    expect(contractFigures(running, { from: '2026-10-01' })).toMatchObject({
      monthlyCents: 1_500_00,
      seasonalMonthlyCents: 1_700_00,
    });
  });

  it('bills a flat line once, on the invoice of the period its flight starts in, at the price of that period', () => {
    // Periods of a contract from December 15: Dec 15-Jan 14, Jan 15-Feb 14, ... A flight from February 1 is
    // billed on the invoice of January 15, at the regular price (January is not in season).
    const figures = contractFigures(
      contract({
        startDate: '2026-12-15',
        autoStopDate: '2027-03-15',
        setupFeeCents: 100_00,
        packageName: 'Holiday Bundle',
        packagePriceCents: 200_00,
        lines: [
          line({
            description: 'Valentine special',
            priceMetric: 'flat',
            unitPriceCents: 900_00,
            seasonalPriceCents: 1_500_00,
            flightStart: '2027-02-01',
          }),
        ],
      }),
      { from: '2026-12-15' },
    );
    expect(figures.oneTimeCharges).toEqual([
      {
        kind: 'setup_fee',
        description: 'Setup fee (one-time)',
        amountCents: 100_00,
        billedOn: '2026-12-15',
        seasonal: false,
      },
      { kind: 'flat', description: 'Valentine special', amountCents: 900_00, billedOn: '2027-01-15', seasonal: false },
    ]);
    // First invoice: package 200 + setup fee 100; monthly: the package alone.
    expect(figures.firstInvoice.subtotalCents).toBe(300_00);
    expect(figures.monthlyCents).toBe(200_00);
    // Dec 15: 200 + 100; Jan 15: 200 + 900; Feb 15: 200
    expect(figures.termValueCents).toBe(1_600_00);
    expect(figures.oneTimeCents).toBe(1_000_00);
  });

  it('names as the first invoice the first period that bills something (no invoice is issued before it)', () => {
    // A banner of $400.00 a month whose flight starts February 10, on a contract from December 1: December and
    // January bill nothing; February bills 19 of 28 days, 400 x 19 / 28 = 271.43.
    const later = contract({
      autoStopDate: '2027-06-01',
      lines: [line({ unitPriceCents: 400_00, flightStart: '2027-02-10' })],
    });
    expect(contractFigures(later, { from: '2026-12-01' }).firstInvoice).toEqual({
      periodStart: '2027-02-01',
      periodEnd: '2027-02-28',
      dueDate: '2027-02-08',
      subtotalCents: 271_43,
      taxCents: 0,
      totalCents: 271_43,
    });
    // A flight that starts after the term bills nothing within it: the first period is shown, at $0.00.
    const outside = contract({ autoStopDate: '2027-01-01', lines: [line({ flightStart: '2027-02-10' })] });
    expect(contractFigures(outside, { from: '2026-12-01' }).firstInvoice).toMatchObject({
      periodStart: '2026-12-01',
      totalCents: 0,
    });
  });

  it('has nothing to bill for a contract without lines, package or fee', () => {
    const figures = contractFigures(contract({ autoStopDate: '2027-12-01' }), { from: '2026-12-01' });
    expect(figures).toMatchObject({ monthlyCents: 0, oneTimeCents: 0, termValueCents: 0, termPeriods: 12 });
    expect(figures.firstInvoice.totalCents).toBe(0);
  });
});

describe('figuresReferenceDay', () => {
  const TABLE: [string, { startDate: string; status: string }, string, string][] = [
    ['a draft counts from its start', { startDate: '2027-01-10', status: 'draft' }, '2026-11-27', '2027-01-10'],
    [
      'a sent contract that started already, too',
      { startDate: '2026-11-01', status: 'sent' },
      '2026-11-27',
      '2026-11-01',
    ],
    ['an active contract not started yet', { startDate: '2026-12-05', status: 'active' }, '2026-11-27', '2026-12-05'],
    ['an active contract: its next period', { startDate: '2026-10-01', status: 'active' }, '2026-11-27', '2026-12-01'],
    [
      'on the first day of a period: the one after',
      { startDate: '2026-10-01', status: 'active' },
      '2026-11-01',
      '2026-12-01',
    ],
    [
      'a start on the 31st: Jan 31 -> Feb 28',
      { startDate: '2027-01-31', status: 'paused' },
      '2027-02-10',
      '2027-02-28',
    ],
  ];
  it.each(TABLE)('%s', (_name, contract, today, expected) => {
    expect(figuresReferenceDay(contract, today)).toBe(expected);
  });

  it('never counts from before the period after the last one invoiced', () => {
    const contract = { startDate: '2028-03-01', status: 'active' };
    // Periods 0 and 1 (March, April) invoiced: from May 1, even seen from long before.
    expect(figuresReferenceDay(contract, '2026-11-27', 1)).toBe('2028-05-01');
    // A canceled or completed contract: what it billed when it stopped (its last invoiced period), or its start.
    expect(figuresReferenceDay({ startDate: '2026-05-01', status: 'canceled' }, '2026-11-27', 5)).toBe('2026-10-01');
    expect(figuresReferenceDay({ startDate: '2026-05-01', status: 'completed' }, '2026-11-27')).toBe('2026-05-01');
    // A later "today" wins over an older invoice.
    expect(figuresReferenceDay({ startDate: '2026-01-01', status: 'active' }, '2026-11-27', 3)).toBe('2026-12-01');
  });
});
