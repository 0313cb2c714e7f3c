import { describe, expect, it } from 'vitest';
import { countLabel, formatTimeAgo } from './format';

describe('countLabel', () => {
  it.each([
    [0, false, '0 invoices'],
    [1, false, '1 invoice'],
    [2, false, '2 invoices'],
    [999, false, '999 invoices'],
    [1000, true, '1,000+ invoices'],
    [1050, true, '1,050+ invoices'],
    [1, true, '1+ invoices'],
  ])('%i (lower bound: %s) reads "%s"', (total, lowerBound, text) => {
    expect(countLabel(total, lowerBound, 'invoice', 'invoices')).toBe(text);
  });
});

describe('formatTimeAgo', () => {
  // Worked out by hand: seconds from now, rounded to the largest whole unit of at least one.
  const now = Date.parse('2026-03-10T12:00:00Z');
  it.each([
    ['2026-03-10T12:00:00Z', 'just now'],
    ['2026-03-10T11:59:01Z', 'just now'],
    ['2026-03-10T11:59:00Z', '1 minute ago'],
    ['2026-03-10T11:58:30Z', '1 minute ago'],
    ['2026-03-10T11:58:01Z', '2 minutes ago'],
    ['2026-03-10T11:57:00Z', '3 minutes ago'],
    ['2026-03-10T11:00:00Z', '1 hour ago'],
    ['2026-03-10T09:00:00Z', '3 hours ago'],
    ['2026-03-09T12:01:00Z', '24 hours ago'],
    ['2026-03-09T12:00:00Z', 'yesterday'],
    ['2026-03-07T12:00:00Z', '3 days ago'],
    ['2026-02-08T12:00:00Z', '30 days ago'],
    ['2026-03-10T12:05:00Z', 'in 5 minutes'],
    ['2026-03-11T12:00:00Z', 'tomorrow'],
  ])('%s reads "%s"', (instant, text) => {
    expect(formatTimeAgo(instant, now)).toBe(text);
  });
});
