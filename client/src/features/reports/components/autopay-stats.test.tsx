import type { Report } from '@shared/contracts/reports';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { AutopayStats } from './autopay-stats';

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
const byTestId = (html: string, id: string) =>
  text(new RegExp(`data-testid="${id}"[^>]*>(.*?)</(?:dd|p)>`).exec(html)?.[1] ?? '');

const autopay = (figures: Partial<Report['autopay']> = {}): Report['autopay'] => ({
  paidInvoices: 3,
  autopayInvoices: 2,
  autopayShare: 66.7,
  autopayAmount: 270,
  recoveredInvoices: 1,
  recoveredAmount: 1200.5,
  ...figures,
});

describe('AutopayStats', () => {
  it('shows the share paid by autopay with what it collected, and what retries recovered', () => {
    const html = renderToStaticMarkup(<AutopayStats autopay={autopay()} />);
    expect(text(html)).toContain('Paid by autopay');
    expect(byTestId(html, 'autopay-share')).toBe('66.7%');
    expect(byTestId(html, 'autopay-paid')).toBe('2 of 3 paid invoices · $270.00 collected');
    expect(text(html)).toContain('Recovered by retries');
    expect(byTestId(html, 'autopay-recovered')).toBe('$1,200.50');
    expect(byTestId(html, 'autopay-recovered-invoices')).toBe('1 invoice paid on a retry');
    expect(html).toContain('style="width:66.7%"');
  });

  it('says one paid invoice and no retries in words, and a whole share with its decimal', () => {
    const html = renderToStaticMarkup(
      <AutopayStats
        autopay={autopay({
          paidInvoices: 1,
          autopayInvoices: 1,
          autopayShare: 100,
          autopayAmount: 99.99,
          recoveredInvoices: 0,
          recoveredAmount: 0,
        })}
      />,
    );
    expect(byTestId(html, 'autopay-share')).toBe('100.0%');
    expect(byTestId(html, 'autopay-paid')).toBe('1 of 1 paid invoice · $99.99 collected');
    expect(byTestId(html, 'autopay-recovered')).toBe('$0.00');
    expect(byTestId(html, 'autopay-recovered-invoices')).toBe('0 invoices paid on a retry');
  });

  it('says so when no invoice was paid in the range', () => {
    const html = renderToStaticMarkup(
      <AutopayStats
        autopay={autopay({
          paidInvoices: 0,
          autopayInvoices: 0,
          autopayShare: null,
          autopayAmount: 0,
          recoveredInvoices: 0,
          recoveredAmount: 0,
        })}
      />,
    );
    expect(byTestId(html, 'autopay-empty')).toBe('No invoices paid in this range.');
    expect(html).not.toContain('autopay-share');
  });
});
