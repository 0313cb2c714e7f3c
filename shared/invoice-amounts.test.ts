import { describe, expect, it } from 'vitest';
import { amountDueCents, isPayable } from './invoice-amounts';

// What is due, worked out by hand for each status.
describe('amountDueCents', () => {
  it.each([
    ['pending', 100_00, 0, 0, 100_00],
    ['pending', 100_00, 40_00, 0, 60_00],
    ['failed', 100_00, 0, 0, 100_00],
    ['failed', 100_00, 99_99, 0, 1],
    ['pending', 100_00, 100_00, 0, 0],
    ['pending', 100_00, 120_00, 0, 0], // never below zero
    ['pending', 100_00, 0, 30_00, 70_00], // a credit note lowers what is due
    ['pending', 100_00, 40_00, 30_00, 30_00],
    ['failed', 100_00, 50_00, 80_00, 0], // credited beyond what was due: nothing due
    ['paid', 100_00, 100_00, 0, 0],
    ['paid', 100_00, 0, 0, 0],
    ['void', 100_00, 40_00, 60_00, 0],
    ['void', 100_00, 0, 0, 0],
  ])(
    'a %s invoice of %i cents with %i paid and %i credited: %i due',
    (status, totalCents, amountPaidCents, creditedCents, due) => {
      expect(amountDueCents({ status, totalCents, amountPaidCents, creditedCents })).toBe(due);
    },
  );
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
