import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CHECKOUT_MESSAGES,
  cardBrand,
  cardPaymentSchema,
  expiryIsPast,
  formatCardNumber,
  formatExpiry,
  luhnValid,
  parseExpiry,
} from './checkout';

/** Card numbers published by the networks and Stripe as valid test numbers (the oracle: a literal list). */
const VALID = [
  '4242424242424242',
  '4000000000000002',
  '4000056655665556',
  '5555555555554444',
  '2223003122003222',
  '378282246310005',
  '371449635398431',
  '6011111111111117',
  '79927398713',
];
const INVALID = ['4242424242424241', '4000000000000001', '5555555555554445', '378282246310006', '1234567812345678'];

describe('luhnValid', () => {
  it.each(VALID)('accepts %s', (number) => expect(luhnValid(number)).toBe(true));
  it.each(INVALID)('refuses %s', (number) => expect(luhnValid(number)).toBe(false));

  it('refuses every single-digit change of a valid number', () => {
    fc.assert(
      fc.property(fc.constantFrom(...VALID), fc.nat(), fc.integer({ min: 1, max: 9 }), (number, at, delta) => {
        const i = at % number.length;
        const changed = `${number.slice(0, i)}${(Number(number[i]) + delta) % 10}${number.slice(i + 1)}`;
        expect(luhnValid(changed)).toBe(false);
      }),
    );
  });

  it('refuses non-digits', () => expect(luhnValid('4242-4242')).toBe(false));
});

describe('cardBrand and formatting', () => {
  it.each([
    ['4242424242424242', 'visa'],
    ['5555555555554444', 'mastercard'],
    ['2223003122003222', 'mastercard'],
    ['378282246310005', 'amex'],
    ['6011111111111117', 'discover'],
    ['9999', 'unknown'],
  ])('%s is %s', (number, brand) => expect(cardBrand(number)).toBe(brand));

  it('groups numbers as printed on the card', () => {
    expect(formatCardNumber('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('4242 42x42')).toBe('4242 4242');
    expect(formatCardNumber('378282246310005')).toBe('3782 822463 10005');
  });

  it('formats the expiry while typing', () => {
    expect(formatExpiry('1')).toBe('1');
    expect(formatExpiry('3')).toBe('03');
    expect(formatExpiry('12')).toBe('12');
    expect(formatExpiry('123')).toBe('12 / 3');
    expect(formatExpiry('12 / 345')).toBe('12 / 34');
  });
});

describe('expiry', () => {
  it('reads MM/YY, MM / YY, MMYY and MM/YYYY', () => {
    expect(parseExpiry('04/29')).toEqual({ month: 4, year: 2029 });
    expect(parseExpiry('04 / 29')).toEqual({ month: 4, year: 2029 });
    expect(parseExpiry('0429')).toEqual({ month: 4, year: 2029 });
    expect(parseExpiry('4/2031')).toEqual({ month: 4, year: 2031 });
    expect(parseExpiry('04/2')).toBeNull();
  });

  it('a card is good through the end of its month', () => {
    const today = new Date(2026, 4, 31); // May 31, 2026
    expect(expiryIsPast({ month: 5, year: 2026 }, today)).toBe(false);
    expect(expiryIsPast({ month: 4, year: 2026 }, today)).toBe(true);
    expect(expiryIsPast({ month: 12, year: 2025 }, today)).toBe(true);
    expect(expiryIsPast({ month: 1, year: 2027 }, today)).toBe(false);
  });
});

describe('cardPaymentSchema', () => {
  const nextYear = String((new Date().getFullYear() + 1) % 100).padStart(2, '0');
  const good = { cardNumber: '4242 4242 4242 4242', expiry: `12 / ${nextYear}`, cvc: '123', name: 'Ada Lovelace' };

  it('keeps the digits of the card number', () => {
    expect(cardPaymentSchema.parse(good).cardNumber).toBe('4242424242424242');
  });

  it.each([
    [{ cardNumber: '' }, 'cardNumber', CHECKOUT_MESSAGES.cardNumberRequired],
    [{ cardNumber: '4242 4242' }, 'cardNumber', CHECKOUT_MESSAGES.cardNumberIncomplete],
    [{ cardNumber: '4242 4242 4242 4241' }, 'cardNumber', CHECKOUT_MESSAGES.cardNumberInvalid],
    [{ cardNumber: '4242 4242 4242 4242 4242' }, 'cardNumber', CHECKOUT_MESSAGES.cardNumberInvalid],
    [{ expiry: '' }, 'expiry', CHECKOUT_MESSAGES.expiryRequired],
    [{ expiry: '12' }, 'expiry', CHECKOUT_MESSAGES.expiryIncomplete],
    [{ expiry: `13 / ${nextYear}` }, 'expiry', CHECKOUT_MESSAGES.expiryInvalidMonth],
    [{ expiry: '01 / 20' }, 'expiry', CHECKOUT_MESSAGES.expiryPast],
    [{ cvc: '12' }, 'cvc', CHECKOUT_MESSAGES.cvcIncomplete],
    [{ cvc: '12345' }, 'cvc', CHECKOUT_MESSAGES.cvcIncomplete],
    [{ name: '  ' }, 'name', CHECKOUT_MESSAGES.nameRequired],
  ])('%o -> %s: %s', (change, field, message) => {
    const result = cardPaymentSchema.safeParse({ ...good, ...change });
    expect(result.success).toBe(false);
    const issues = result.error!.issues.filter((issue) => issue.path[0] === field).map((issue) => issue.message);
    expect(issues).toEqual([message]);
  });

  it('accepts a four-digit CVC', () => {
    expect(cardPaymentSchema.safeParse({ ...good, cardNumber: '378282246310005', cvc: '1234' }).success).toBe(true);
  });
});
