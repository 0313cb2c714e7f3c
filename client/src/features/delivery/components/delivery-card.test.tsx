import type { Contract } from '@shared/contracts/contract-responses';
import type { DeliveryPeriod } from '@shared/contracts/delivery';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { deliveryPeriodSample as period } from '@/lib/delivery-sample';
import { contractDeliveryKey } from '../api/get-contract-delivery';
import { DeliveryCard, groupByLine, hasCpmLine } from './delivery-card';
import { toDeliveryBody } from './record-delivery-dialog';

const line = (id: string, name: string, priceMetric: 'cpm' | 'monthly', quantity = 150) =>
  ({ id, priceMetric, quantity, product: { id: `p-${id}`, name } }) as unknown as Contract['lineItems'][number];

const contract = {
  id: 'c-1',
  underDeliveryRemedy: 'credit' as const,
  lineItems: [line('l-1', 'Pre-roll Impressions (15s, CPM)', 'cpm'), line('l-2', 'Homepage Banner', 'monthly')],
};

const periods: DeliveryPeriod[] = [
  period({
    month: '2026-05',
    periodStart: '2026-05-01',
    periodEnd: '2026-05-31',
    ended: false,
    status: 'reported',
    delivered: 52_000,
  }),
  period({ month: '2026-04', periodStart: '2026-04-01', periodEnd: '2026-04-30', ended: false, makegood: 5_000 }),
  period({
    month: '2026-03',
    status: 'settled',
    remedy: 'credit',
    delivered: 120_000,
    clicks: 2_400,
    shortfall: 30_000,
    creditNote: { id: 'cn-1', number: 'CN-2026-000004', amount: 300 },
    recordedAt: '2026-04-02T09:00:00.000Z',
    recordedByName: 'Sam Sales',
  }),
  period({
    month: '2026-02',
    periodStart: '2026-02-01',
    periodEnd: '2026-02-28',
    status: 'delivered',
    delivered: 151_000,
  }),
  period({ month: '2026-01', periodStart: '2026-01-01', periodEnd: '2026-01-31' }),
];

function render(canWrite: boolean, rows = periods) {
  const client = new QueryClient();
  client.setQueryData(contractDeliveryKey(contract.id), { rows, total: rows.length, totalIsLowerBound: false });
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <DeliveryCard contract={contract} canWrite={canWrite} />
    </QueryClientProvider>,
  );
}

describe('groupByLine', () => {
  it("keeps the contract's CPM lines in order, each with its periods, and a line no longer on it last", () => {
    const groups = groupByLine(contract, [...periods, period({ lineId: 'gone', productName: 'Old CPM line' })]);
    expect(groups.map((g) => [g.productName, g.bookedPerMonth, g.periods.length])).toEqual([
      ['Pre-roll Impressions (15s, CPM)', 150_000, 5],
      ['Old CPM line', null, 1],
    ]);
  });

  it('knows a contract with a CPM line', () => {
    expect(hasCpmLine(contract)).toBe(true);
    expect(hasCpmLine({ lineItems: [line('l-2', 'Banner', 'monthly')] })).toBe(false);
  });
});

describe('DeliveryCard', () => {
  it('shows each period with its pacing and outcome, and the remedy of the contract', () => {
    const html = render(true);
    expect(html).toContain('Under-delivery is settled by: <span');
    expect(html).toContain('Credit note</span>');
    expect(html).toContain('150,000 impressions booked a month');
    expect(html).toContain('Credit note CN-2026-000004 $300.00');
    expect(html).toContain('incl. 5,000 makegood');
    expect(html).toContain('Period running until Apr 30, 2026');
    expect(html).toContain('Delivered in full');
    expect(html).toContain('Awaiting figures');
    // Figures an ad server pushed for a running period: reported so far, not settled, nothing to correct yet.
    expect(html).toContain('data-status="reported"');
    expect(html).toContain('Reported so far');
    expect(html).toContain('52,000');
    expect(html).toContain('80.0%');
    expect(html).toContain('below 90% of booked');
    expect(html).toContain('Recorded Apr 2, 2026 by Sam Sales');
  });

  it('offers Record and Correct on ended periods not settled, to those who may write only', () => {
    const html = render(true);
    expect(html).toContain('aria-label="Record delivery of Pre-roll Impressions (15s, CPM) for January 2026"');
    expect(html).toContain('aria-label="Correct delivery of Pre-roll Impressions (15s, CPM) for February 2026"');
    expect(html).not.toContain('for March 2026"');
    expect(html).not.toContain('for April 2026"');
    expect(html).not.toContain('for May 2026"');
    expect(render(false)).not.toContain('delivery of Pre-roll');
  });

  it('says when a CPM line has no billed period yet', () => {
    expect(render(true, [])).toContain('No billed periods yet');
  });
});

describe('toDeliveryBody', () => {
  it('sends whole numbers, and no clicks for an empty field', () => {
    expect(toDeliveryBody({ impressions: '120000', clicks: '' })).toEqual({ impressions: 120_000, clicks: null });
    expect(toDeliveryBody({ impressions: '0', clicks: '35' })).toEqual({ impressions: 0, clicks: 35 });
  });
});
