import { DEFAULT_ACCOUNTING_SETTINGS } from '@shared/contracts/accounting-vocabulary';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { CodesNotice } from './codes-notice';
import { lastMonth } from './export-form';
import { documentsText, filesText, partItemText } from './exports-table';

const render = (node: ReactNode) => renderToStaticMarkup(<Router ssrPath="/accounting">{node}</Router>);

describe('lastMonth', () => {
  it.each([
    ['2026-03-15', '2026-02-01', '2026-02-28'],
    ['2028-03-01', '2028-02-01', '2028-02-29'],
    ['2026-01-31', '2025-12-01', '2025-12-31'],
  ])('from %s: %s to %s', (today, from, to) => {
    expect(lastMonth(today)).toEqual({ from, to });
  });
});

describe('documentsText', () => {
  it('names each kind a batch holds', () => {
    expect(documentsText({ invoices: 3, creditNotes: 1, payments: 2, creditRefunds: 0 })).toBe(
      '3 invoices, 1 credit note, 2 payments and refunds',
    );
  });
});

describe("a batch's files", () => {
  const part = (n: number, documentCount: number) => ({
    part: n,
    fileName: `EXP-2026-000004-quickbooks-invoices-part-${n}-of-3.csv`,
    sha256: 'x',
    documentCount,
  });
  const three = { format: 'quickbooks-invoices' as const, parts: [part(1, 100), part(2, 100), part(3, 50)] };

  it('one file, or how many parts and what each holds', () => {
    expect(filesText({ parts: [part(1, 12)] })).toEqual({ count: '1 file', split: null });
    expect(filesText(three)).toEqual({ count: '3 parts', split: '100 · 100 · 50' });
  });

  it('names each part in the Download menu with what it holds', () => {
    expect(partItemText(three, three.parts[2]!)).toBe('Part 3 of 3 · 50 invoices');
    expect(partItemText({ format: 'journal', parts: three.parts }, part(1, 1))).toBe('Part 1 of 3 · 1 document');
    expect(partItemText({ format: 'xero-credit-notes', parts: three.parts }, part(2, 2))).toBe(
      'Part 2 of 3 · 2 credit notes',
    );
  });
});

describe('CodesNotice', () => {
  const some = {
    ...DEFAULT_ACCOUNTING_SETTINGS,
    revenueAccounts: Object.fromEntries(
      Object.keys(DEFAULT_ACCOUNTING_SETTINGS.revenueAccounts).map((adType) => [adType, '4000']),
    ) as typeof DEFAULT_ACCOUNTING_SETTINGS.revenueAccounts,
    receivablesAccount: '1100',
  };

  it('tells an admin where to set the codes, and finance to ask an admin', () => {
    const admin = render(<CodesNotice settings={DEFAULT_ACCOUNTING_SETTINGS} canEdit />);
    expect(admin).toContain('No account codes are set yet');
    expect(admin).toContain('href="/settings?tab=accounting"');
    const finance = render(<CodesNotice settings={some} canEdit={false} />);
    expect(finance).toContain('Not set: Other revenue, Sales tax, Bank, Card clearing, Customer credit.');
    expect(finance).toContain('Ask an admin to set them in Settings › Accounting.');
    expect(finance).not.toContain('href=');
  });

  it('says nothing once every code is set', () => {
    const all = {
      ...some,
      otherRevenueAccount: '4900',
      taxAccount: '2200',
      bankAccount: '1000',
      cardClearingAccount: '1050',
      customerCreditAccount: '2300',
    };
    expect(render(<CodesNotice settings={all} canEdit />)).toBe('');
  });
});
