import { describe, expect, it } from 'vitest';
import { scaledSeasonalPrice } from './seasonal-price';

describe('scaledSeasonalPrice: in-season x new price / old price, to the cent, half away from zero', () => {
  // [in season, old price, new price, scaled], in cents, worked out by hand.
  const table: [number, number, number, number | null][] = [
    [32_00, 24_00, 12_00, 16_00], // the $12 CPM line: $32 x 12/24
    [32_00, 24_00, 24_00, 32_00], // unchanged price
    [50_00, 100_00, 0, 0], // a free line
    [35_00, 25_00, 20_00, 28_00],
    [10_00, 3_00, 1_00, 3_33], // 3.333... down
    [20_00, 3_00, 1_00, 6_67], // 6.666... up
    [1_00, 8_00, 1_00, 13], // 12.5 cents: half away from zero, up
    [3, 2_00, 1_00, 2], // 1.5 cents: up
    [1, 2_00, 1_00, 1], // 0.5 cent: up
    [1, 3_00, 1_00, 0], // 0.333 cent: down
    [32_00, 12_00, 36_00, 96_00], // a price raised
    [9_000_000_000_00, 9_999_999_99, 9_999_999_98, 8_999_999_991_00], // x x new passes 2^53: exact
    [32_00, 0, 12_00, null], // nothing to scale from
    [32_00, 24_00, -1, null],
  ];
  it.each(table)('%i at %i, price now %i -> %s', (seasonal, oldPrice, newPrice, expected) => {
    expect(scaledSeasonalPrice(seasonal, oldPrice, newPrice)).toBe(expected);
  });
});
