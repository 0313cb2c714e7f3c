import { describe, expect, it } from 'vitest';
import { fileNameFromDisposition } from './download';

// The headers our routes send (commissions, reports, invoice and credit-note PDFs, creatives) and broken ones.
describe('the name a download is saved under', () => {
  it.each([
    ['attachment; filename="commissions-all-2026-03-01.csv"', 'commissions-all-2026-03-01.csv'],
    ['attachment; filename="report-last_3_months-2026-01-01.csv"', 'report-last_3_months-2026-01-01.csv'],
    ['attachment; filename="INV-2026-000123.pdf"', 'INV-2026-000123.pdf'],
    [`attachment; filename="Sp_t _1_.mp4"; filename*=UTF-8''Sp%C3%B6t%20%281%29.mp4`, 'Spöt (1).mp4'],
    [`attachment; filename*=utf-8''banner%20final.png`, 'banner final.png'],
    [`attachment; filename="safe.png"; filename*=UTF-8''%E0%A4%A.png`, 'fallback.bin'],
    ['attachment', 'fallback.bin'],
    ['', 'fallback.bin'],
    [null, 'fallback.bin'],
  ])('%s -> %s', (header, name) => {
    expect(fileNameFromDisposition(header, 'fallback.bin')).toBe(name);
  });
});
