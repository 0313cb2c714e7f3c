import { describe, expect, it } from 'vitest';
import { monthsFrom, spreadOverMonths } from './forecast';

describe('spreadOverMonths', () => {
  // Worked by hand: days of the flight in each month, share = amount x days / flight days, remainders last.
  it.each([
    // Jan 20 - Feb 10: 12 + 10 = 22 days; 2,200.00 -> 1,200.00 and 1,000.00.
    [220_000, '2027-01-20', '2027-02-10', { '2027-01': 120_000, '2027-02': 100_000 }],
    // Jan 1 - Mar 31 (90 days: 31, 28, 31) of 100.00: 34.444 -> 34.44, 31.111 -> 31.11, 34.444 -> 34.44, the
    // cent left over to the largest remainder (January's and March's are equal: the first, January).
    [10_000, '2027-01-01', '2027-03-31', { '2027-01': 3_445, '2027-02': 3_111, '2027-03': 3_444 }],
    // A leap February: Feb 15 - Mar 14, 2028 = 15 + 14 = 29 days of 29.00.
    [2_900, '2028-02-15', '2028-03-14', { '2028-02': 1_500, '2028-03': 1_400 }],
    // One day, and an end before the start: all in the start's month.
    [5_000, '2027-06-30', '2027-06-30', { '2027-06': 5_000 }],
    [5_000, '2027-06-30', '2027-06-01', { '2027-06': 5_000 }],
    // Across a year: Dec 17 - Jan 15 = 15 + 15 days of 0.01: the one cent goes to December.
    [1, '2026-12-17', '2027-01-15', { '2026-12': 1, '2027-01': 0 }],
  ])('%i cents over %s to %s', (cents, start, end, expected) => {
    expect(Object.fromEntries(spreadOverMonths(cents, start, end))).toEqual(expected);
  });
});

describe('monthsFrom', () => {
  it('counts months across a year', () => {
    expect(monthsFrom('2026-11', 4)).toEqual(['2026-11', '2026-12', '2027-01', '2027-02']);
  });
});
