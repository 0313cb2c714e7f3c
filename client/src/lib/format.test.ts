import { describe, expect, it } from 'vitest';
import { countLabel } from './format';

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
