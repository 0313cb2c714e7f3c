import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeContractTotals } from './contract-totals';

const MAX_PRICE = 10_000_000_00; // $10 million per unit keeps every sum far inside safe integers

const line = fc
  .record({
    quantity: fc.integer({ min: 1, max: 1000 }),
    unitPriceCents: fc.integer({ min: 0, max: MAX_PRICE }),
    discountCents: fc.integer({ min: 0, max: MAX_PRICE }),
    seasonalPriceCents: fc.option(fc.integer({ min: 0, max: MAX_PRICE }), { nil: null }),
  })
  // A discount above the line amount is refused by validation; totals are computed only for valid lines.
  .filter((l) => l.discountCents <= l.quantity * l.unitPriceCents);

const input = fc.record({
  lineItems: fc.array(line, { maxLength: 30 }),
  packagePriceCents: fc.integer({ min: 0, max: MAX_PRICE }),
  setupFeeCents: fc.integer({ min: 0, max: MAX_PRICE }),
});

describe('computeContractTotals', () => {
  it('adds up a worked example (ui-spec.md section 9)', () => {
    const totals = computeContractTotals({
      lineItems: [
        { quantity: 2, unitPriceCents: 150_00, discountCents: 25_50 },
        { quantity: 1, unitPriceCents: 99_99, discountCents: 0, seasonalPriceCents: 149_99 },
      ],
      packagePriceCents: 500_00,
      setupFeeCents: 100_00,
    });
    expect(totals).toEqual({
      lineTotals: [274_50, 99_99],
      seasonalLineTotals: [274_50, 149_99],
      lineItemsTotal: 374_49,
      packagePrice: 500_00,
      setupFee: 100_00,
      total: 974_49,
    });
  });

  it("keeps ui-spec.md's total whatever the metrics (what each bills is shared/contract-figures.ts's)", () => {
    const totals = computeContractTotals({
      lineItems: [
        // 250 thousand impressions a month at $12.00 per 1,000 = $3,000.00; in season $15.00 = $3,750.00
        { quantity: 250, unitPriceCents: 12_00, discountCents: 0, seasonalPriceCents: 15_00 },
        // A holiday special: $500.00 - $50.00; in season $650.00 - $50.00
        { quantity: 1, unitPriceCents: 500_00, discountCents: 50_00, seasonalPriceCents: 650_00 },
        { quantity: 2, unitPriceCents: 40_00, discountCents: 0 },
      ],
      packagePriceCents: 0,
      setupFeeCents: 25_00,
    });
    expect(totals).toEqual({
      lineTotals: [3_000_00, 450_00, 80_00],
      seasonalLineTotals: [3_750_00, 600_00, 80_00],
      lineItemsTotal: 3_530_00,
      packagePrice: 0,
      setupFee: 25_00,
      // ui-spec.md's contract total keeps its formula: every line + package + setup fee.
      total: 3_555_00,
    });
  });

  it('has all zeros for nothing', () => {
    const totals = computeContractTotals({ lineItems: [], packagePriceCents: 0, setupFeeCents: 0 });
    expect(totals.total).toBe(0);
    expect(totals.lineTotals).toEqual([]);
  });

  it('never drifts by a cent: the parts add up to every total', () => {
    fc.assert(
      fc.property(input, (i) => {
        const t = computeContractTotals(i);
        const lines = t.lineTotals.reduce((a, b) => a + b, 0);
        expect(t.lineItemsTotal).toBe(lines);
        expect(t.total).toBe(lines + i.packagePriceCents + i.setupFeeCents);
        for (const value of [t.total, ...t.lineTotals, ...t.seasonalLineTotals]) {
          expect(Number.isSafeInteger(value)).toBe(true);
        }
      }),
    );
  });

  it('computes each line as quantity x unit price - discount, never below zero', () => {
    fc.assert(
      fc.property(input, (i) => {
        const t = computeContractTotals(i);
        i.lineItems.forEach((l, n) => {
          expect(t.lineTotals[n]).toBe(l.quantity * l.unitPriceCents - l.discountCents);
          expect(t.lineTotals[n]).toBeGreaterThanOrEqual(0);
          expect(t.seasonalLineTotals[n]).toBeGreaterThanOrEqual(0);
        });
      }),
    );
  });

  it('keeps a line total at zero even when handed a discount above its amount', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100 }), fc.integer({ min: 0, max: 10_000 }), (quantity, price) => {
        const t = computeContractTotals({
          lineItems: [{ quantity, unitPriceCents: price, discountCents: quantity * price + 1 }],
          packagePriceCents: 0,
          setupFeeCents: 0,
        });
        expect(t.lineTotals[0]).toBe(0);
      }),
    );
  });

  it('uses the seasonal price only for lines whose product has one', () => {
    fc.assert(
      fc.property(input, (i) => {
        const t = computeContractTotals(i);
        i.lineItems.forEach((l, n) => {
          if (l.seasonalPriceCents === null) expect(t.seasonalLineTotals[n]).toBe(t.lineTotals[n]);
          else expect(t.seasonalLineTotals[n]).toBe(Math.max(0, l.quantity * l.seasonalPriceCents - l.discountCents));
        });
      }),
    );
  });

  it('refuses amounts that are not whole cents', () => {
    expect(() => computeContractTotals({ lineItems: [], packagePriceCents: 10.5, setupFeeCents: 0 })).toThrow(
      RangeError,
    );
    expect(() =>
      computeContractTotals({
        lineItems: [{ quantity: 1.5, unitPriceCents: 100, discountCents: 0 }],
        packagePriceCents: 0,
        setupFeeCents: 0,
      }),
    ).toThrow(RangeError);
  });
});
