import { describe, expect, it } from 'vitest';
import {
  amountDueCents,
  creditableCents,
  isPayable,
  isVoidable,
  refundableCents,
  settles,
  uncreditedCents,
} from './invoice-amounts';

// Each rule worked out by hand, row by row (server/db/invoice-amounts.test.ts holds the SQL twins to a table
// of its own).

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

describe('creditableCents and uncreditedCents', () => {
  it.each([
    // status, total, credited, creditable, uncredited
    ['pending', 100_00, 0, 100_00, 100_00],
    ['pending', 100_00, 30_00, 70_00, 70_00],
    ['failed', 100_00, 99_99, 1, 1],
    ['paid', 100_00, 0, 100_00, 100_00], // a paid invoice can still be credited (to the balance)
    ['paid', 100_00, 25_00, 75_00, 75_00],
    ['paid', 100_00, 100_00, 0, 0], // fully credited
    ['void', 100_00, 30_00, 0, 70_00], // nothing more on a void invoice; 70.00 is what its void note credited
    ['void', 100_00, 100_00, 0, 0],
    ['pending', 0, 0, 0, 0],
  ])(
    'a %s invoice of %i cents with %i credited: %i creditable, %i uncredited',
    (status, totalCents, creditedCents, creditable, uncredited) => {
      expect(creditableCents({ status, totalCents, creditedCents })).toBe(creditable);
      expect(uncreditedCents({ totalCents, creditedCents })).toBe(uncredited);
    },
  );
});

describe('refundableCents', () => {
  it.each([
    // total, paid, credited, refunded by a void
    [100_00, 0, 0, 0], // nothing paid: nothing back
    [100_00, 40_00, 0, 40_00], // partly paid: what was paid
    [100_00, 100_00, 0, 100_00],
    [100_00, 100_00, 30_00, 70_00], // decision 024: paid $100, credited $30 to the balance, void gives $70
    [100_00, 40_00, 30_00, 40_00], // credited within what was due: all that was paid
    [100_00, 40_00, 80_00, 20_00], // the credit settled it and 20.00 went to the balance: 20.00 back
    [100_00, 100_00, 100_00, 0], // fully credited before: all of it is on the balance already
  ])('total %i, paid %i, credited %i: %i refunded', (totalCents, amountPaidCents, creditedCents, refunded) => {
    expect(refundableCents({ totalCents, amountPaidCents, creditedCents })).toBe(refunded);
  });
});

describe('settles', () => {
  it.each([
    // total, paid, credited, settled
    [100_00, 0, 0, false],
    [100_00, 99_99, 0, false],
    [100_00, 100_00, 0, true],
    [100_00, 60_00, 39_99, false],
    [100_00, 60_00, 40_00, true],
    [100_00, 0, 100_00, true], // credited in full
    [100_00, 40_00, 80_00, true], // beyond the total
    [0, 0, 0, true], // a $0.00 invoice is paid as issued
  ])('total %i, paid %i, credited %i: %s', (totalCents, amountPaidCents, creditedCents, settled) => {
    expect(settles({ totalCents, amountPaidCents, creditedCents })).toBe(settled);
  });
});

describe('isPayable and isVoidable', () => {
  it.each([
    ['pending', true, true],
    ['failed', true, true],
    ['paid', false, true],
    ['void', false, false],
    ['draft', false, false],
  ])('%s: payable %s, voidable %s', (status, payable, voidable) => {
    expect(isPayable(status)).toBe(payable);
    expect(isVoidable(status)).toBe(voidable);
  });
});
