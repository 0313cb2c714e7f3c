import { describe, expect, it } from 'vitest';
import { type BookedLine, bookedValueCents } from './booked-value';

/**
 * What a booking line bills for a span of days (the Inventory screen's booked value of a month), held to sums
 * worked out by hand: each billed amount spread evenly over the days it covers.
 */

const line = (overrides: Partial<BookedLine>): BookedLine => ({
  priceMetric: 'monthly',
  quantity: 1,
  unitPriceCents: 0,
  discountCents: 0,
  seasonalPriceCents: null,
  flightStart: '2026-10-01',
  flightEnd: '2026-10-31',
  contractStartDate: '2026-10-01',
  ...overrides,
});

describe('bookedValueCents', () => {
  it('a whole period of a monthly line, and its days', () => {
    const october = line({ unitPriceCents: 310_000 });
    expect(bookedValueCents(october, '2026-10-01', '2026-10-31')).toBe(310_000);
    // 310,000 x 10 / 31 = 100,000.
    expect(bookedValueCents(october, '2026-10-01', '2026-10-10')).toBe(100_000);
    expect(bookedValueCents(october, '2026-11-01', '2026-11-30')).toBe(0);
    expect(bookedValueCents(october, '2026-09-01', '2026-09-30')).toBe(0);
  });

  it('quantity and discount as the invoice bills them', () => {
    // 3 x 10,000 - 3,000 = 27,000 for February; 14 of its 28 days: 13,500.
    const february = line({
      quantity: 3,
      unitPriceCents: 10_000,
      discountCents: 3_000,
      contractStartDate: '2026-02-01',
      flightStart: '2026-02-01',
      flightEnd: '2026-02-28',
    });
    expect(bookedValueCents(february, '2026-02-01', '2026-02-28')).toBe(27_000);
    expect(bookedValueCents(february, '2026-02-01', '2026-02-14')).toBe(13_500);
  });

  it('prorated periods across months, the in-season one at its in-season price', () => {
    // Periods from Sep 15: Sep 15-Oct 14 (30 days, regular: $1,000) and Oct 15-Nov 14 (31 days, in season: $2,000).
    // The flight Sep 20-Oct 19 bills 100,000 x 25 / 30 = 83,333 (Sep 20-Oct 14) and 200,000 x 5 / 31 = 32,258
    // (Oct 15-19).
    const straddling = line({
      unitPriceCents: 100_000,
      seasonalPriceCents: 200_000,
      contractStartDate: '2026-09-15',
      flightStart: '2026-09-20',
      flightEnd: '2026-10-19',
    });
    // September: 11 of the first amount's 25 days: 83,333 x 11 / 25 = 36,666.52 -> 36,667.
    expect(bookedValueCents(straddling, '2026-09-01', '2026-09-30')).toBe(36_667);
    // October: 14 of 25 days of the first (46,666.48 -> 46,666) and all of the second (32,258).
    expect(bookedValueCents(straddling, '2026-10-01', '2026-10-31')).toBe(78_924);
    // The whole flight: both amounts.
    expect(bookedValueCents(straddling, '2026-09-01', '2026-10-31')).toBe(115_591);
  });

  it('a flat line: its one charge over its flight, at the price of the period it starts in', () => {
    // Billed in the period Dec 1-31 (in season): $1,200 over Dec 30-Jan 2 (4 days), 2 days in each month.
    const flat = line({
      priceMetric: 'flat',
      unitPriceCents: 90_000,
      seasonalPriceCents: 120_000,
      contractStartDate: '2026-11-01',
      flightStart: '2026-12-30',
      flightEnd: '2027-01-02',
    });
    expect(bookedValueCents(flat, '2026-12-01', '2026-12-31')).toBe(60_000);
    expect(bookedValueCents(flat, '2027-01-01', '2027-01-31')).toBe(60_000);
    expect(bookedValueCents(flat, '2027-02-01', '2027-02-28')).toBe(0);
    // A flight starting before its contract bills nothing (no period carries it).
    expect(bookedValueCents({ ...flat, contractStartDate: '2027-01-01' }, '2026-12-01', '2026-12-31')).toBe(0);
  });

  it('days before the contract starts bill nothing', () => {
    const early = line({ unitPriceCents: 300_000, contractStartDate: '2026-10-11', flightStart: '2026-10-01' });
    // Period Oct 11-Nov 10 (31 days): the flight covers Oct 11-31, 21 days: 300,000 x 21 / 31 = 203,225.8 -> 203,226.
    expect(bookedValueCents(early, '2026-10-01', '2026-10-31')).toBe(203_226);
  });
});
