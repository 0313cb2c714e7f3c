import { describe, expect, it } from 'vitest';
import { formatDocumentDate, formatDocumentInstant } from './document-date';

describe('the documents’ dates', () => {
  it.each([
    ['2026-12-15', 'Dec 15, 2026'],
    ['2026-12-08', 'Dec 8, 2026'],
    ['2027-01-01', 'Jan 1, 2027'],
    ['2028-02-29', 'Feb 29, 2028'],
    ['2026-06-30T23:59:59.000Z', 'Jun 30, 2026'],
  ])('writes %s as %s', (value, expected) => {
    expect(formatDocumentDate(value)).toBe(expected);
  });

  it('writes a moment to the second, in UTC', () => {
    expect(formatDocumentInstant('2026-12-15T14:03:27.512Z')).toBe('Dec 15, 2026, 14:03:27 UTC');
    expect(formatDocumentInstant(new Date('2027-03-01T00:00:05Z'))).toBe('Mar 1, 2027, 00:00:05 UTC');
  });
});
