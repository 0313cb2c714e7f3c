import { describe, expect, it } from 'vitest';
import { afterSignIn } from './paths';

describe('afterSignIn', () => {
  it.each([
    ['', '/'],
    ['?next=/invoices', '/invoices'],
    ['?next=%2Fcontracts%2Fabc%3Fstatus%3Dactive', '/contracts/abc?status=active'],
    ['?next=/login', '/'],
    ['?next=/login?next=/invoices', '/'],
    ['?next=//evil.example/x', '/'],
    ['?next=/\\evil.example', '/'],
    ['?next=https://evil.example/', '/'],
    ['?next=invoices', '/'],
    ['?other=1', '/'],
  ])('after signing in at /login%s goes to %s', (search, expected) => {
    expect(afterSignIn(search)).toBe(expected);
  });
});
