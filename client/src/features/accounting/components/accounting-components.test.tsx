import { DEFAULT_ACCOUNTING_SETTINGS } from '@shared/contracts/accounting-vocabulary';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { CodesNotice } from './codes-notice';
import { lastMonth } from './export-form';
import { documentsText } from './exports-table';

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
