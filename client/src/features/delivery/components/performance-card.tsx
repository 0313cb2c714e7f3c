import type { DeliveryPeriod } from '@shared/contracts/delivery';
import { clickThroughRate, DELIVERY_MESSAGES, formatMonth, pacingText } from '@shared/contracts/delivery-vocabulary';
import { BarChart3 } from 'lucide-react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { type Column, DataTable } from '@/components/ui/data-table';
import { ErrorState, Skeleton } from '@/components/ui/feedback';
import { BookedImpressions } from '@/lib/booked-impressions';
import { deliveryOutcome, formatImpressions } from '@/lib/delivery-text';
import { useClientPerformance } from '../api/get-client-performance';
import { Pacing } from './pacing';

/** A month's figures summed over its lines: impressions delivered and booked, and the clicks reported. */
export function monthTotals(periods: Pick<DeliveryPeriod, 'booked' | 'delivered' | 'clicks'>[]) {
  let booked = 0;
  let delivered = 0;
  let clicks: number | null = null;
  for (const period of periods) {
    booked += period.booked;
    delivered += period.delivered ?? 0;
    if (period.clicks !== null) clicks = (clicks ?? 0) + period.clicks;
  }
  return { booked, delivered, clicks };
}

/**
 * The portal's performance card: the delivery our team recorded for the client's CPM campaigns, per line and
 * month, with the latest month's totals first and how a shortfall was made good; or the plain statement that
 * none was reported yet.
 */
export function PerformanceCard({
  contractName,
}: {
  contractName: (contract: { id: string; title: string | null }) => string;
}) {
  const { data, isLoading, error } = useClientPerformance();
  const rows = data?.rows ?? [];
  const latestMonth = rows[0]?.month;
  const totals = monthTotals(rows.filter((row) => row.month === latestMonth));
  const several = new Set(rows.map((row) => row.contractId)).size > 1;

  const columns: Column<DeliveryPeriod>[] = [
    ...(several
      ? [
          {
            id: 'contract',
            header: 'Contract',
            cell: (row) => contractName({ id: row.contractId, title: row.contractTitle }),
            sortValue: (row) => contractName({ id: row.contractId, title: row.contractTitle }),
          } satisfies Column<DeliveryPeriod>,
        ]
      : []),
    {
      id: 'line',
      header: 'Line',
      rowHeader: true,
      className: 'min-w-36',
      cell: (row) => row.productName,
      sortValue: (row) => row.productName,
    },
    {
      id: 'month',
      header: 'Month',
      cellClassName: 'whitespace-nowrap',
      cell: (row) => formatMonth(row.month),
      sortValue: (row) => row.month,
    },
    {
      id: 'booked',
      header: 'Booked',
      align: 'right',
      cellClassName: 'whitespace-nowrap',
      cell: (row) => <BookedImpressions period={row} />,
      sortValue: (row) => row.booked,
    },
    {
      id: 'delivered',
      header: 'Delivered',
      align: 'right',
      cellClassName: 'whitespace-nowrap',
      cell: (row) => (row.delivered === null ? '—' : formatImpressions(row.delivered)),
      sortValue: (row) => row.delivered,
    },
    {
      id: 'pacing',
      header: 'Pacing',
      align: 'right',
      cellClassName: 'whitespace-nowrap',
      cell: (row) => <Pacing period={row} />,
      sortValue: (row) => (row.delivered === null || row.booked <= 0 ? null : row.delivered / row.booked),
    },
    {
      id: 'clicks',
      header: 'Clicks',
      align: 'right',
      cellClassName: 'whitespace-nowrap',
      cell: (row) => (row.clicks === null ? '—' : formatImpressions(row.clicks)),
      sortValue: (row) => row.clicks,
    },
    { id: 'remedy', header: 'Remedy', className: 'min-w-44', cell: (row) => deliveryOutcome(row) },
  ];

  return (
    <Card className="min-w-0" data-testid="performance-card">
      <CardHeader>
        <CardTitle>Campaign Performance</CardTitle>
        <CardDescription>Delivery of your CPM campaigns, per line and month</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {isLoading && <Skeleton className="h-24 rounded-lg" />}
        {error && !data && <ErrorState title="Could not load the figures">Reload the page to try again.</ErrorState>}
        {data && rows.length === 0 && (
          <p className="flex flex-col items-center gap-2 py-6 text-center text-sm text-muted-foreground">
            <BarChart3 className="size-8" aria-hidden />
            {DELIVERY_MESSAGES.none}
          </p>
        )}
        {latestMonth && (
          <>
            <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4" aria-label={`Totals for ${formatMonth(latestMonth)}`}>
              {[
                ['Impressions delivered', formatImpressions(totals.delivered)],
                ['Booked', formatImpressions(totals.booked)],
                ['Delivery rate', pacingText(totals.booked, totals.delivered)],
                [
                  'Clicks (CTR)',
                  totals.clicks === null
                    ? '—'
                    : `${formatImpressions(totals.clicks)} (${clickThroughRate({ impressions: totals.delivered, clicks: totals.clicks })})`,
                ],
              ].map(([label, value]) => (
                <div key={label} className="min-w-0 rounded-lg bg-muted/50 px-3 py-2.5">
                  <dt className="text-xs text-muted-foreground">{label}</dt>
                  <dd className="break-words text-lg font-semibold tabular-nums text-slate-900">{value}</dd>
                </div>
              ))}
            </dl>
            <p className="-mt-2 text-xs text-muted-foreground">Latest reported month: {formatMonth(latestMonth)}</p>
            <DataTable
              caption="Delivery by line and month"
              columns={columns}
              rows={rows}
              rowKey={(row) => `${row.lineId}-${row.month}`}
              rowProps={() => ({ 'data-testid': 'performance-row' })}
              density="compact"
              sortable={data !== undefined && data.total <= rows.length}
              className={several ? 'min-w-[54rem]' : 'min-w-[46rem]'}
            />
          </>
        )}
      </CardContent>
    </Card>
  );
}
