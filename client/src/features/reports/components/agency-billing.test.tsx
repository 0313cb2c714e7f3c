import type { Report } from '@shared/contracts/reports';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { AgencyBilling } from './agency-billing';

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
const byTestId = (html: string, id: string) =>
  text(new RegExp(`data-testid="${id}"[^>]*>(.*?)</(?:dd|p)>`).exec(html)?.[1] ?? '');
const rowsOf = (html: string) =>
  [...html.matchAll(/<tr[^>]*data-testid="agency-row"[^>]*>(.*?)<\/tr>/g)].map((m) =>
    [...m[1]!.matchAll(/<td[^>]*>(.*?)<\/td>/g)].map((cell) => text(cell[1]!)),
  );

const render = (figures: Report['agencies']) =>
  renderToStaticMarkup(
    <Router ssrPath="/reports">
      <AgencyBilling agencies={figures} />
    </Router>,
  );

const agencies = (figures: Partial<Report['agencies']> = {}): Report['agencies'] => ({
  invoices: 3,
  gross: 3500,
  commission: 610,
  net: 2890,
  deductedCommission: 150,
  owedCommission: 460,
  agencyCount: 2,
  byAgency: [
    { agencyId: 'h', name: 'Harbor Agency', advertisers: 1, invoices: 1, gross: 2000, commission: 400, net: 1600 },
    { agencyId: 'c', name: 'Cardinal Media', advertisers: 2, invoices: 2, gross: 1500, commission: 210, net: 1290 },
  ],
  ...figures,
});

describe('AgencyBilling', () => {
  it('shows gross, commission and net, and each agency by net', () => {
    const html = render(agencies());
    expect(text(html)).toContain('Agency Commission');
    expect(text(html)).toContain('Revenue by Agency');
    expect(byTestId(html, 'agency-gross')).toBe('$3,500.00');
    expect(byTestId(html, 'agency-commission')).toBe('−$610.00');
    expect(byTestId(html, 'agency-net')).toBe('$2,890.00');
    expect(byTestId(html, 'agency-commission-detail')).toBe(
      '3 invoices billed to agencies, before tax · $150.00 deducted on net-billed invoices · $460.00 owed on gross-billed ones',
    );
    expect(rowsOf(html)).toEqual([
      ['Harbor Agency', '1', '1', '$2,000.00', '$400.00', '$1,600.00'],
      ['Cardinal Media', '2', '2', '$1,500.00', '$210.00', '$1,290.00'],
    ]);
    expect(html).toContain('href="/customers/h"');
    expect(html).not.toContain('agency-more');
  });

  it('says when more agencies were billed than it lists', () => {
    const html = render(agencies({ agencyCount: 12 }));
    expect(byTestId(html, 'agency-more')).toBe('The top 2 of 12 agencies by net revenue.');
  });

  it('shows nothing when no invoice was billed to an agency in the range', () => {
    const none = agencies({
      invoices: 0,
      gross: 0,
      commission: 0,
      net: 0,
      deductedCommission: 0,
      owedCommission: 0,
      agencyCount: 0,
      byAgency: [],
    });
    expect(render(none)).toBe('');
  });
});
