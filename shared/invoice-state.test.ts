import { describe, expect, it } from 'vitest';
import { invoiceState } from './invoice-state';

// Each row worked out by hand: status, total, paid, credited, due date -> state and words on 2026-03-10.
describe('invoiceState', () => {
  it.each([
    ['pending', 100_00, 0, 0, '2026-03-10', 'open', '$100.00 due'],
    ['pending', 100_00, 0, 0, '2026-03-09', 'overdue', 'Overdue'],
    ['failed', 100_00, 0, 0, '2026-03-01', 'overdue', 'Overdue'],
    ['pending', 100_00, 40_00, 0, '2026-03-12', 'partly_paid', 'Partly paid, $60.00 due'],
    ['pending', 100_00, 40_00, 0, '2026-03-02', 'overdue', 'Overdue · Partly paid, $60.00 due'],
    ['pending', 100_00, 40_00, 25_00, '2026-03-12', 'partly_paid', 'Partly paid, $35.00 due'],
    ['pending', 100_00, 0, 25_00, '2026-03-12', 'partly_credited', 'Partly credited, $75.00 due'],
    ['paid', 100_00, 100_00, 0, '2026-03-02', 'paid', 'Paid'],
    ['paid', 100_00, 60_00, 40_00, '2026-03-02', 'paid', 'Paid'],
    ['paid', 100_00, 0, 100_00, '2026-03-02', 'credited', 'Credited'],
    ['pending', 100_00, 0, 100_00, '2026-03-02', 'credited', 'Credited'],
    ['void', 100_00, 40_00, 60_00, '2026-03-02', 'void', 'Void'],
    ['void', 100_00, 0, 0, '2026-03-20', 'void', 'Void'],
  ])('%s total %i paid %i credited %i due %s: %s', (status, total, paid, credited, dueDate, state, label) => {
    expect(
      invoiceState(
        { status, totalCents: total, amountPaidCents: paid, creditedCents: credited, dueDate },
        '2026-03-10',
      ),
    ).toEqual({ state, label });
  });
});
