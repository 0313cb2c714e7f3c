import { describe, expect, it } from 'vitest';
import { importErrors, importSummary } from './import-summary';

describe('importSummary', () => {
  it('counts the rows and what was settled', () => {
    expect(importSummary({ rows: 12, recorded: 10, unchanged: 2, credits: 1, makegoods: 1 })).toBe(
      '12 rows: 10 recorded, 2 unchanged; 1 credit note, 1 makegood',
    );
    expect(importSummary({ rows: 1, recorded: 1, unchanged: 0, credits: 2, makegoods: 0 })).toBe(
      '1 row: 1 recorded, 0 unchanged; 2 credit notes, 0 makegoods',
    );
    expect(importSummary({ rows: 2000, recorded: 0, unchanged: 2000, credits: 0, makegoods: 0 })).toBe(
      '2,000 rows: 0 recorded, 2,000 unchanged; nothing to settle',
    );
  });
});

describe('importErrors', () => {
  it('lists every message in row order, the file-wide ones first', () => {
    expect(
      importErrors({
        'row 10': ['Unknown line Banner'],
        'row 2': ['Unknown contract abc', 'Impressions must be a whole number'],
        file: ['The file has more than 50,000 rows'],
      }),
    ).toEqual([
      'The file has more than 50,000 rows',
      'Row 2: Unknown contract abc',
      'Row 2: Impressions must be a whole number',
      'Row 10: Unknown line Banner',
    ]);
    expect(importErrors(undefined)).toEqual([]);
  });
});
