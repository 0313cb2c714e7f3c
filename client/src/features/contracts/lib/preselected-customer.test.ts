import { describe, expect, it } from 'vitest';
import { preselectedCustomerId } from './preselected-customer';

describe('preselectedCustomerId', () => {
  it.each([
    ['?customerId=5b0f3c1e-7a2d-4c8e-9f10-2a3b4c5d6e7f', '5b0f3c1e-7a2d-4c8e-9f10-2a3b4c5d6e7f'],
    ['?customerId=5B0F3C1E-7A2D-4C8E-9F10-2A3B4C5D6E7F&x=1', '5b0f3c1e-7a2d-4c8e-9f10-2a3b4c5d6e7f'],
    ['', undefined],
    ['?customerId=', undefined],
    ['?customerId=acme', undefined],
    ['?customerId=5b0f3c1e-7a2d-4c8e-9f10-2a3b4c5d6e7f0', undefined],
    ['?customer=5b0f3c1e-7a2d-4c8e-9f10-2a3b4c5d6e7f', undefined],
  ])('%s -> %s', (search, expected) => {
    expect(preselectedCustomerId(search)).toBe(expected);
  });
});
