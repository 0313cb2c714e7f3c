import {
  COMMISSION_STATUS_LABELS,
  COMMISSION_STATUSES,
  type CommissionStatus,
} from '@shared/contracts/commission-vocabulary';
import type { Commission } from '@shared/contracts/commissions';
import { Download, Receipt } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { type Column, DataTable } from '@/components/ui/data-table';
import { EmptyState, ErrorState } from '@/components/ui/feedback';
import { Label } from '@/components/ui/label';
import { Pagination } from '@/components/ui/pagination';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { paths } from '@/lib/paths';
import { cn } from '@/lib/utils';
import { useExportCommissions } from '../api/export-commissions';
import { useCommissions } from '../api/get-commissions';
import { COMMISSIONS_PAGE_SIZE } from '../api/keys';
import { formatDate, formatMoney, ratePercent } from './format';
import { CommissionStatusBadge } from './status-badges';

type StatusFilter = CommissionStatus | 'all';

/** The history's columns; Sales Rep only for those who see several reps. A page of the server's, in its order. */
const COLUMNS: Column<Commission>[] = [
  {
    id: 'date',
    header: 'Date',
    cellClassName: 'whitespace-nowrap tabular-nums',
    cell: (c) => formatDate(c.createdAt),
  },
  {
    id: 'contract',
    header: 'Contract',
    role: 'identity',
    cell: (c) => (
      <>
        <Link
          href={paths.contract(c.contractId)}
          className="font-mono text-xs font-medium text-primary hover:underline"
          aria-label={`Contract ${c.contractShortId}`}
        >
          {c.contractShortId}
        </Link>
        {c.contractTitle && (
          <span
            className="block max-w-[10rem] truncate text-xs text-muted-foreground 2xl:max-w-[14rem]"
            title={c.contractTitle}
          >
            {c.contractTitle}
          </span>
        )}
      </>
    ),
  },
  {
    id: 'customer',
    header: 'Customer',
    cell: (c) => (
      <span className="block max-w-[10rem] truncate 2xl:max-w-[14rem]" title={c.customerName ?? 'Unknown Customer'}>
        {c.customerName ?? 'Unknown Customer'}
      </span>
    ),
  },
  {
    id: 'invoice',
    header: 'Invoice',
    cellClassName: 'whitespace-nowrap font-mono text-xs',
    cell: (c) => c.invoiceNumber ?? '—',
  },
  { id: 'rep', header: 'Sales Rep', cellClassName: 'whitespace-nowrap', cell: (c) => c.repName ?? '—' },
  {
    id: 'rate',
    header: 'Rate',
    align: 'right',
    // Below 1536 px the rate is left out (the amount says what was earned); it stays on a phone's card.
    className: 'hidden 2xl:table-cell',
    cellClassName: 'whitespace-nowrap',
    cell: (c) => ratePercent(c.rate),
  },
  {
    id: 'amount',
    header: 'Amount',
    role: 'amount',
    align: 'right',
    cellClassName: (c) => cn('whitespace-nowrap font-medium', c.amount < 0 && 'text-red-700'),
    cell: (c) => formatMoney(c.amount),
  },
  { id: 'status', header: 'Status', cell: (c) => <CommissionStatusBadge status={c.status} /> },
];

/** Commission history: status filter (All, Available, Requested, Disbursed, Adjusted), Export, paged table. */
export function CommissionHistory({ repId, showRep }: { repId?: string; showRep: boolean }) {
  const [status, setStatus] = useState<StatusFilter>('all');
  const [page, setPage] = useState(0);
  const { data, isLoading, isFetching, error } = useCommissions({ status, repId, page });
  const exporter = useExportCommissions();

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new filter starts from the first page
  useEffect(() => setPage(0), [status, repId]);

  const pages = data ? Math.max(1, Math.ceil(data.total / COMMISSIONS_PAGE_SIZE)) : 1;
  return (
    <Card>
      <CardHeader className="gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <CardTitle>Commission History</CardTitle>
          <p className="mt-1.5 text-sm text-muted-foreground" aria-live="polite" data-testid="history-count">
            {data ? `${data.total} ${data.total === 1 ? 'entry' : 'entries'}` : 'Loading...'}
          </p>
        </div>
        <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
          <Label htmlFor="commission-status-filter" className="sr-only">
            Filter by status
          </Label>
          <Select value={status} onValueChange={(v) => setStatus(v as StatusFilter)}>
            <SelectTrigger id="commission-status-filter" aria-label="Filter by status" className="sm:w-44">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value="all">All</SelectItem>
              {COMMISSION_STATUSES.map((s) => (
                <SelectItem key={s} value={s}>
                  {COMMISSION_STATUS_LABELS[s]}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
          <Button variant="outline" disabled={exporter.isPending} onClick={() => exporter.mutate({ status, repId })}>
            <Download aria-hidden /> {exporter.isPending ? 'Exporting...' : 'Export'}
          </Button>
        </div>
      </CardHeader>
      <CardContent>
        {error && !data ? (
          <ErrorState title="Could not load the commission history">Reload the page to try again.</ErrorState>
        ) : (
          <>
            <DataTable
              caption="Commission history"
              columns={showRep ? COLUMNS : COLUMNS.filter((column) => column.id !== 'rep')}
              rows={data?.rows ?? []}
              rowKey={(commission) => commission.id}
              rowProps={() => ({ 'data-testid': 'commission-row' })}
              loading={!data}
              busy={isFetching && !isLoading}
              density="snug"
              empty={
                <EmptyState icon={<Receipt />} title="No commissions found">
                  {status === 'all'
                    ? 'Commission appears here when invoices of your contracts are paid.'
                    : `No ${COMMISSION_STATUS_LABELS[status].toLowerCase()} commissions.`}
                </EmptyState>
              }
            />
            {data?.rows.length !== 0 && (
              <Pagination page={page} pages={pages} onPageChange={setPage} className="mt-4" />
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}
