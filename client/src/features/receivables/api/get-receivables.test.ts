import { describe, expect, it } from 'vitest';
import { withQuery } from '@/lib/api-client';
import { type ReceivablesFilter, receivablesParams } from './get-receivables';

const none: ReceivablesFilter = {
  q: '',
  bucket: 'all',
  stage: 'all',
  credit: false,
  autopayFailed: false,
  sort: 'balance',
};

describe('receivablesParams', () => {
  it('asks the server for autopay=failed only when "Autopay failed" is on', () => {
    expect(withQuery('/api/receivables', receivablesParams({ ...none, autopayFailed: true }))).toBe(
      '/api/receivables?autopay=failed&sort=balance',
    );
    expect(withQuery('/api/receivables', receivablesParams(none))).toBe('/api/receivables?sort=balance');
  });
});
