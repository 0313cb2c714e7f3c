import { describe, expect, it } from 'vitest';
import { emailAddress, isoDate } from './common';

describe('isoDate', () => {
  const schema = isoDate('Start date is required');
  it.each(['2026-01-31', '2024-02-29', '2026-11-21T10:00:00.000Z'])('accepts %s', (value) => {
    expect(schema.safeParse(value).success).toBe(true);
  });
  it.each([
    ['', 'Start date is required'],
    ['31/01/2026', 'Enter a valid date (YYYY-MM-DD)'],
    ['next monday', 'Enter a valid date (YYYY-MM-DD)'],
    ['2026-02-30', 'Enter a valid date (YYYY-MM-DD)'],
    ['2025-02-29', 'Enter a valid date (YYYY-MM-DD)'],
  ])('refuses %j with %s, without throwing', (value, message) => {
    const result = schema.safeParse(value);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0].message).toBe(message);
  });
});

describe('emailAddress', () => {
  const schema = emailAddress('Valid email is required');
  it.each([
    'admin@localhost',
    'someone@example.com',
    'first.last+tag@mail.example.co.uk',
    "o'brien@host-name.internal",
  ])('accepts %s', (value) => {
    expect(schema.safeParse(value).success).toBe(true);
  });
  it('trims the address', () => {
    expect(schema.parse('  admin@localhost ')).toBe('admin@localhost');
  });
  it.each([
    '',
    'not-an-email',
    'admin@',
    '@localhost',
    'two@@signs',
    'a b@example.com',
    'admin@-host',
    'admin@host.',
    'admin@.host',
    `${'a'.repeat(250)}@b.test`,
  ])('refuses %j with the given message', (value) => {
    const result = schema.safeParse(value);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message)).toEqual(['Valid email is required']);
  });
});
