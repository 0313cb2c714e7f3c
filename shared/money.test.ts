import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  allocateCents,
  applyRate,
  centsToAmount,
  divideRound,
  formatCents,
  lineTotalCents,
  MAX_CENTS,
  parseMoney,
  plainAmount,
} from './money';

const cents = fc.integer({ min: -MAX_CENTS, max: MAX_CENTS });

describe('parseMoney', () => {
  it.each([
    ['1234.5', 123450],
    ['1,234.50', 123450],
    ['$12', 1200],
    [' 0.07 ', 7],
    ['-3.00', -300],
    ['10.', 1000],
    [1234.5, 123450],
    [0.1, 10],
    [19.99, 1999],
  ] as const)('%j is %d cents', (input, expected) => {
    expect(parseMoney(input)).toBe(expected);
  });

  it.each(['', 'abc', '1.234', '1e3', '12.3.4', '--1', Number.NaN, Number.POSITIVE_INFINITY, 1e21, 0.001])(
    'refuses %j',
    (input) => {
      expect(parseMoney(input)).toBeNull();
    },
  );

  it('round-trips with formatCents', () => {
    fc.assert(
      fc.property(cents, (c) => {
        expect(parseMoney(formatCents(c).replace('-$', '-'))).toBe(c);
      }),
    );
  });

  it('round-trips with centsToAmount (the JSON number) and its text', () => {
    fc.assert(
      fc.property(cents, (c) => {
        expect(parseMoney(centsToAmount(c))).toBe(c);
        expect(parseMoney(String(centsToAmount(c)))).toBe(c);
      }),
    );
  });
});

describe('formatCents', () => {
  it.each([
    [0, '$0.00'],
    [5, '$0.05'],
    [123456, '$1,234.56'],
    [-300, '-$3.00'],
    [100_000_000_00, '$100,000,000.00'],
  ])('%d is %s', (c, text) => {
    expect(formatCents(c)).toBe(text);
  });

  it('always shows two decimals and groups thousands', () => {
    fc.assert(
      fc.property(cents, (c) => {
        expect(formatCents(c)).toMatch(/^-?\$\d{1,3}(,\d{3})*\.\d{2}$/);
      }),
    );
  });
});

describe('divideRound', () => {
  it.each([
    [5, 2, 3],
    [-5, 2, -3],
    [5, -2, -3],
    [-5, -2, 3],
    [4, 3, 1],
    [-4, 3, -1],
    [1, 3, 0],
    [15, 10, 2],
    [-15, 10, -2],
    [0, 7, 0],
  ])('%d / %d rounds half away from zero to %d', (n, d, expected) => {
    expect(divideRound(n, d)).toBe(expected);
  });

  it('is within half of the exact quotient, rounds halves away from zero, and is symmetric', () => {
    const int = fc.integer({ min: -1_000_000_000, max: 1_000_000_000 });
    const nonZero = fc.integer({ min: -100_000, max: 100_000 }).filter((d) => d !== 0);
    fc.assert(
      fc.property(int, nonZero, (n, d) => {
        const q = divideRound(n, d);
        // |q*d - n| <= |d|/2, compared in integers: 2|q*d - n| <= |d|
        const error2 = 2 * Math.abs(q * d - n);
        expect(error2).toBeLessThanOrEqual(Math.abs(d));
        if (error2 === Math.abs(d)) expect(Math.abs(q * d)).toBeGreaterThan(Math.abs(n)); // a tie goes outwards
        expect(divideRound(-n, d) + 0).toBe(-q + 0);
      }),
    );
  });

  it('refuses a zero denominator and non-integers', () => {
    expect(() => divideRound(1, 0)).toThrow(RangeError);
    expect(() => divideRound(1.5, 2)).toThrow(RangeError);
  });

  it('applies rates in basis points', () => {
    expect(applyRate(10_000, 550)).toBe(550);
    expect(applyRate(1, 5000)).toBe(1); // half a cent rounds away from zero
    expect(applyRate(-1, 5000)).toBe(-1);
  });
});

describe('lineTotalCents', () => {
  it('is quantity x unit price - discount and never below zero', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000 }),
        fc.integer({ min: 0, max: 1_000_000_00 }),
        fc.integer({ min: 0, max: 1_000_000_00 }),
        (quantity, unitPriceCents, discountCents) => {
          const total = lineTotalCents({ quantity, unitPriceCents, discountCents });
          expect(total).toBe(Math.max(0, quantity * unitPriceCents - discountCents));
          expect(total).toBeGreaterThanOrEqual(0);
        },
      ),
    );
  });
});

describe('plainAmount', () => {
  it.each([
    [1250.5, '1250.50'],
    [0, '0.00'],
    [0.07, '0.07'],
    [-0.5, '-0.50'],
    [-0.07, '-0.07'],
    [-12.3, '-12.30'],
    [1_000_000, '1000000.00'],
  ])('%d -> %s', (amount, text) => {
    expect(plainAmount(amount)).toBe(text);
  });
});

describe('allocateCents', () => {
  it.each([
    [100, [1, 1, 1], [34, 33, 33]],
    [10, [50, 30, 20], [5, 3, 2]],
    [1, [1, 1], [1, 0]],
    [825, [100_00, 50_00, -20_00], [635, 317, -127]],
    [0, [0, 0], [0, 0]],
    [0, [5, -5, 10], [0, 0, 0]],
    [-7, [1, 1], [-3, -4]],
    [999, [0, 3], [0, 999]],
  ] as const)('%d over %j is %j', (total, weights, expected) => {
    expect(allocateCents(total, weights)).toEqual(expected);
  });

  it('refuses weights that add up to zero when there is something to split', () => {
    expect(() => allocateCents(5, [1, -1])).toThrow(RangeError);
  });

  it('always adds up to the total, each share within a cent of its exact part', () => {
    const weight = fc.integer({ min: -1_000_000_00, max: 1_000_000_00 });
    fc.assert(
      fc.property(
        fc.integer({ min: -1_000_000_00, max: 1_000_000_00 }),
        fc.array(weight, { minLength: 1, maxLength: 12 }),
        (total, weights) => {
          const sum = weights.reduce((a, b) => a + b, 0);
          fc.pre(sum !== 0);
          const shares = allocateCents(total, weights);
          expect(shares.reduce((a, b) => a + b, 0)).toBe(total);
          shares.forEach((share, i) => {
            const exact = (total * weights[i]!) / sum;
            expect(Math.abs(share - exact)).toBeLessThan(1 + 1e-6 * Math.abs(exact));
          });
        },
      ),
    );
  });
});
