import type { PerformanceEntry } from '@shared/contracts/performance';
import { clickThroughRate, formatMonth } from '@shared/contracts/performance-vocabulary';
import type { ReactNode } from 'react';
import { type Column, DataTable } from '@/components/ui/data-table';

const number = new Intl.NumberFormat('en-US');
const rate = (entry: PerformanceEntry) => (entry.impressions > 0 ? entry.clicks / entry.impressions : null);

/**
 * Figures by month (and contract, when several): impressions, clicks, views and the click-through rate,
 * newest month first. `sortable`: every month is on hand, so the headers sort by any figure.
 */
export function FiguresTable({
  entries,
  caption,
  contractName,
  actions,
  sortable = false,
  loading = false,
  empty,
}: {
  entries: PerformanceEntry[];
  caption: string;
  /** Shows a Contract column. */
  contractName?: (entry: PerformanceEntry) => string;
  actions?: (entry: PerformanceEntry) => ReactNode;
  sortable?: boolean;
  loading?: boolean;
  empty?: ReactNode;
}) {
  const columns: Column<PerformanceEntry>[] = [
    {
      id: 'month',
      header: 'Month',
      rowHeader: true,
      cellClassName: 'whitespace-nowrap',
      cell: (entry) => formatMonth(entry.month),
      sortValue: (entry) => entry.month,
    },
    ...(contractName
      ? [
          {
            id: 'contract',
            header: 'Contract',
            cell: contractName,
            sortValue: contractName,
          } as Column<PerformanceEntry>,
        ]
      : []),
    {
      id: 'impressions',
      header: 'Impressions',
      align: 'right',
      cell: (entry) => number.format(entry.impressions),
      sortValue: (entry) => entry.impressions,
    },
    {
      id: 'clicks',
      header: 'Clicks',
      align: 'right',
      cell: (entry) => number.format(entry.clicks),
      sortValue: (entry) => entry.clicks,
    },
    {
      id: 'views',
      header: 'Views',
      align: 'right',
      cell: (entry) => number.format(entry.views),
      sortValue: (entry) => entry.views,
    },
    { id: 'ctr', header: 'CTR', align: 'right', cell: clickThroughRate, sortValue: rate },
    ...(actions
      ? [
          {
            id: 'actions',
            header: 'Actions',
            hideHeader: true,
            align: 'right',
            cell: (entry) => <div className="flex justify-end gap-2">{actions(entry)}</div>,
          } as Column<PerformanceEntry>,
        ]
      : []),
  ];
  return (
    <DataTable
      caption={caption}
      columns={columns}
      rows={entries}
      rowKey={(entry) => `${entry.contractId}-${entry.month}`}
      className="min-w-[34rem]"
      sortable={sortable}
      loading={loading}
      loadingRows={2}
      empty={empty}
    />
  );
}
