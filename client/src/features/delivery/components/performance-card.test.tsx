import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { deliveryPeriodSample as period } from '@/lib/delivery-sample';
import { clientPerformanceKey } from '../api/get-client-performance';
import { monthTotals, PerformanceCard } from './performance-card';

const name = (contract: { id: string; title: string | null }) => contract.title ?? `Contract #${contract.id}`;

function render(rows: ReturnType<typeof period>[]) {
  const client = new QueryClient();
  client.setQueryData(clientPerformanceKey, { rows, total: rows.length, totalIsLowerBound: false });
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <PerformanceCard contractName={name} />
    </QueryClientProvider>,
  );
}

describe('monthTotals', () => {
  it('adds up booked and delivered, and clicks only where reported', () => {
    expect(
      monthTotals([
        { booked: 100_000, delivered: 90_000, clicks: null },
        { booked: 50_000, delivered: 60_000, clicks: 1_200 },
      ]),
    ).toEqual({ booked: 150_000, delivered: 150_000, clicks: 1_200 });
    expect(monthTotals([{ booked: 1, delivered: 1, clicks: null }]).clicks).toBeNull();
  });
});

describe('PerformanceCard', () => {
  it("shows the latest month's totals and every line and month, with the remedy", () => {
    const html = render([
      period({
        month: '2026-03',
        status: 'settled',
        remedy: 'makegood',
        delivered: 120_000,
        clicks: 3_000,
        shortfall: 30_000,
      }),
      period({ month: '2026-02', contractId: 'c-2', contractTitle: 'Spring', status: 'delivered', delivered: 150_000 }),
    ]);
    expect(html).toContain('data-testid="performance-card"');
    expect(html).toContain('Latest reported month: March 2026');
    expect(html).toContain('120,000');
    expect(html).toContain('80.0%');
    expect(html).toContain('3,000 (2.5%)');
    expect(html).toContain('Makegood: 30,000 impressions on the next invoice');
    expect(html).toContain('Delivered in full');
    // Two contracts: the Contract column names them.
    expect(html).toContain('Spring');
  });

  it('says plainly when nothing was reported', () => {
    expect(render([])).toContain('No delivery reported yet');
  });
});
