import { describe, expect, it } from 'vitest';
import { currentMonths, monthEnd, monthStart, sellThroughPercent, shiftRange } from './inventory-vocabulary';

describe('the Inventory screen range', () => {
  it.each([
    ['2026-11-27', { from: '2026-11-01', to: '2027-01-31' }],
    ['2026-01-31', { from: '2026-01-01', to: '2026-03-31' }],
    ['2027-12-01', { from: '2027-12-01', to: '2028-02-29' }],
  ])('starts at the current month of %s, three whole months', (today, range) => {
    expect(currentMonths(today)).toEqual(range);
  });

  it('knows the first and last days of a month', () => {
    expect([monthStart('2026-03-31'), monthStart('2026-03-31', -3), monthStart('2026-12-05', 1)]).toEqual([
      '2026-03-01',
      '2025-12-01',
      '2027-01-01',
    ]);
    expect([monthEnd('2028-02-10'), monthEnd('2026-02-01'), monthEnd('2026-12-31')]).toEqual([
      '2028-02-29',
      '2026-02-28',
      '2026-12-31',
    ]);
  });

  it.each([
    ['whole months by months', { from: '2026-11-01', to: '2027-01-31' }, -1, { from: '2026-08-01', to: '2026-10-31' }],
    ['whole months by months', { from: '2026-11-01', to: '2027-01-31' }, 1, { from: '2027-02-01', to: '2027-04-30' }],
    ['one month', { from: '2026-01-01', to: '2026-01-31' }, 1, { from: '2026-02-01', to: '2026-02-28' }],
    ['other ranges by days', { from: '2026-12-20', to: '2026-12-26' }, 1, { from: '2026-12-27', to: '2027-01-02' }],
    ['other ranges by days', { from: '2026-03-02', to: '2026-03-31' }, -1, { from: '2026-01-31', to: '2026-03-01' }],
  ] as const)('steps %s', (_, range, direction, expected) => {
    expect(shiftRange(range, direction)).toEqual(expected);
  });
});

describe('sellThroughPercent', () => {
  it.each([
    [1, 3, 33.3],
    [2, 3, 66.7],
    [26, 93, 28],
    [5, 120, 4.2],
    [0, 93, 0],
    [93, 93, 100],
    [0, 0, 0],
  ])('%d of %d unit-days is %d %', (booked, capacity, percent) => {
    expect(sellThroughPercent(booked, capacity)).toBe(percent);
  });
});
