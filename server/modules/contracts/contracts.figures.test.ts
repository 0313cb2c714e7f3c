import type { BillableLine } from '@shared/billing';
import { describe, expect, it } from 'vitest';
import { storedFigures } from './contracts.figures';

/**
 * The stored figures of one three-month contract (January to March 2027), worked out by hand:
 * - A: monthly, 2 x $100.00 - $10.00 = $190.00 a month, all term;
 * - B: flat, $300.00 once, its flight in February;
 * - C: monthly, $80.00 ($120.00 in season), January only;
 * - package $500.00 a month, setup fee $50.00 on the first invoice.
 * The term bills January 190 + 80 + 500 + 50 = 820, February 190 + 300 + 500 = 990, March 190 + 500 = 690.
 */
const line = (fields: Partial<BillableLine>): BillableLine => ({
  description: '',
  productId: null,
  priceMetric: 'monthly',
  quantity: 1,
  unitPriceCents: 0,
  discountCents: 0,
  seasonalPriceCents: null,
  flightStart: '2027-01-01',
  flightEnd: null,
  ...fields,
});

const LINES = [
  line({ quantity: 2, unitPriceCents: 100_00, discountCents: 10_00 }),
  line({ priceMetric: 'flat', unitPriceCents: 300_00, flightStart: '2027-02-01', flightEnd: '2027-02-28' }),
  line({ unitPriceCents: 80_00, seasonalPriceCents: 120_00, flightEnd: '2027-01-31' }),
];

const contract = (status: string) => ({
  startDate: '2027-01-01',
  autoStopDate: '2027-04-01',
  status,
  packageId: 'package',
  packagePriceCents: 500_00,
  setupFeeCents: 50_00,
});

describe('storedFigures', () => {
  it('a contract as sold counts every line, and its monthly amounts from its start', () => {
    expect(storedFigures(contract('draft'), LINES, { today: '2026-12-15', count: 'every line' })).toEqual({
      packagePriceCents: 500_00,
      lineItemsTotalCents: 190_00 + 300_00 + 80_00,
      monthlyAmountCents: 190_00 + 80_00 + 500_00,
      seasonalMonthlyAmountCents: 190_00 + 120_00 + 500_00,
      termValueCents: 820_00 + 990_00 + 690_00,
      setupFeeCents: 50_00,
      totalCents: 570_00 + 500_00 + 50_00,
    });
  });

  it('after an amendment, the totals count only the lines still running from the next period', () => {
    // Active, February invoiced: the reference day is March 1, when B and C have ended.
    const running = { today: '2027-02-10', lastInvoicedIndex: 1 } as const;
    expect(storedFigures(contract('active'), LINES, { ...running, count: 'lines still running' })).toEqual({
      packagePriceCents: 500_00,
      lineItemsTotalCents: 190_00,
      monthlyAmountCents: 190_00 + 500_00,
      seasonalMonthlyAmountCents: 190_00 + 500_00,
      termValueCents: 820_00 + 990_00 + 690_00,
      setupFeeCents: 50_00,
      totalCents: 190_00 + 500_00 + 50_00,
    });
    expect(storedFigures(contract('active'), LINES, { ...running, count: 'every line' }).lineItemsTotalCents).toBe(
      570_00,
    );
  });

  it('an indefinite contract has no term value', () => {
    const figures = storedFigures(
      { ...contract('draft'), autoStopDate: null, packageId: null, packagePriceCents: 0 },
      LINES,
      {
        today: '2026-12-15',
        count: 'every line',
      },
    );
    expect(figures.termValueCents).toBeNull();
    expect(figures.monthlyAmountCents).toBe(190_00 + 80_00);
  });
});
