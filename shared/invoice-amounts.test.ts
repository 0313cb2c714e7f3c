import { describe, expect, it } from 'vitest';
import { amountDueCents, isPayable } from './invoice-amounts';

// What is due, worked out by hand for each status.
describe('amountDueCents', () => {
  it.each([
    ['pending', 100_00, 0, 100_00],
    ['pending', 100_00, 40_00, 60_00],
    ['failed', 100_00, 0, 100_00],
    ['failed', 100_00, 99_99, 1],
    ['pending', 100_00, 100_00, 0],
    ['pending', 100_00, 120_00, 0], // never below zero
    ['paid', 100_00, 100_00, 0],
    ['paid', 100_00, 0, 0],
    ['void', 100_00, 40_00, 0],
    ['void', 100_00, 0, 0],
  ])('a %s invoice of %i cents with %i paid: %i due', (status, totalCents, amountPaidCents, due) => {
    expect(amountDueCents({ status, totalCents, amountPaidCents })).toBe(due);
  });
});

describe('isPayable', () => {
  it.each([
    ['pending', true],
    ['failed', true],
    ['paid', false],
    ['void', false],
    ['draft', false],
  ])('%s: %s', (status, payable) => {
    expect(isPayable(status)).toBe(payable);
  });
});
