import { INVENTORY_MESSAGES } from '@shared/contracts/inventory';
import { describe, expect, it } from 'vitest';
import { checkRange } from './range';

describe('checkRange', () => {
  it('accepts a range of days, both included', () => {
    expect(checkRange('2026-10-01', '2026-12-31')).toEqual({
      range: { from: '2026-10-01', to: '2026-12-31' },
      errors: null,
    });
    expect(checkRange('2026-12-20', '2026-12-20').errors).toBeNull();
  });

  it.each([
    ['', '2026-12-31', { from: INVENTORY_MESSAGES.fromRequired }],
    ['2026-10-01', '', { to: INVENTORY_MESSAGES.toRequired }],
    ['2026-02-30', '2026-12-31', { from: INVENTORY_MESSAGES.fromNotDate }],
    ['2026-12-31', '2026-10-01', { to: INVENTORY_MESSAGES.toBeforeFrom }],
    ['2026-01-01', '2027-02-05', { to: INVENTORY_MESSAGES.rangeTooLong }],
  ])('refuses %j to %j with the API message', (from, to, errors) => {
    expect(checkRange(from, to)).toEqual({ range: null, errors });
  });
});
