import {
  COMMISSION_STATUS_LABELS,
  COMMISSION_STATUSES,
  type CommissionStatus,
} from '@shared/contracts/commission-vocabulary';
import { Download, Receipt } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState, ErrorState, Skeleton } from '@/components/ui/feedback';
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

/** Commission history: status filter (All, Available, Requested, Disbursed, Adjusted), Export, paged table. */
export function CommissionHistory({ repId, showRep }: { repId?: string; showRep: boolean }) {
  const [status, setStatus] = useState<StatusFilter>('all');
  const [page, setPage] = useState(0);
  const { data, isLoading, isFetching, error } = useCommissions({ status, repId, page });
  const exporter = useExportCommissions();

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new filter starts from the first page
  useEffect(() => setPage(0), [status, repId]);

  const pages = data ? Math.max(1, Math.ceil(data.total / COMMISSIONS_PAGE_SIZE)) : 1;
  const headers = [
    'Date',
    'Contract',
    'Customer',
    'Invoice',
    ...(showRep ? ['Sales Rep'] : []),
    'Rate',
    'Amount',
    'Status',
  ];

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
        ) : data && data.rows.length === 0 ? (
          <EmptyState icon={<Receipt />} title="No commissions found">
            {status === 'all'
              ? 'Commission appears here when invoices of your contracts are paid.'
              : `No ${COMMISSION_STATUS_LABELS[status].toLowerCase()} commissions.`}
          </EmptyState>
        ) : (
          <>
            <div className="overflow-x-auto rounded-lg border">
              <table className="w-full text-sm" aria-busy={isLoading || isFetching}>
                <caption className="sr-only">Commission history</caption>
                <thead className="bg-muted/60 text-left text-xs uppercase tracking-wide text-muted-foreground">
                  <tr>
                    {headers.map((h) => (
                      <th
                        key={h}
                        scope="col"
                        className={cn(
                          'whitespace-nowrap px-4 py-3 font-medium',
                          (h === 'Amount' || h === 'Rate') && 'text-right',
                        )}
                      >
                        {h}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody className={isFetching && !isLoading ? 'opacity-70 transition-opacity' : undefined}>
                  {isLoading
                    ? Array.from({ length: 5 }, (_, i) => (
                        <tr key={i} className="border-t">
                          {headers.map((h) => (
                            <td key={h} className="px-4 py-3">
                              <Skeleton className="h-4 w-20" />
                            </td>
                          ))}
                        </tr>
                      ))
                    : data?.rows.map((c) => (
                        <tr key={c.id} className="border-t align-top hover:bg-muted/40" data-testid="commission-row">
                          <td className="whitespace-nowrap px-4 py-3 tabular-nums">{formatDate(c.createdAt)}</td>
                          <td className="px-4 py-3">
                            <Link
                              href={paths.contract(c.contractId)}
                              className="font-mono text-xs font-medium text-primary hover:underline"
                              aria-label={`Contract ${c.contractShortId}`}
                            >
                              {c.contractShortId}
                            </Link>
                            {c.contractTitle && (
                              <span className="block max-w-[14rem] truncate text-xs text-muted-foreground">
                                {c.contractTitle}
                              </span>
                            )}
                          </td>
                          <td className="max-w-[14rem] truncate px-4 py-3">{c.customerName ?? 'Unknown Customer'}</td>
                          <td className="whitespace-nowrap px-4 py-3 font-mono text-xs">{c.invoiceNumber ?? '—'}</td>
                          {showRep && <td className="whitespace-nowrap px-4 py-3">{c.repName ?? '—'}</td>}
                          <td className="whitespace-nowrap px-4 py-3 text-right tabular-nums">{ratePercent(c.rate)}</td>
                          <td
                            className={cn(
                              'whitespace-nowrap px-4 py-3 text-right font-medium tabular-nums',
                              c.amount < 0 && 'text-red-700',
                            )}
                          >
                            {formatMoney(c.amount)}
                          </td>
                          <td className="px-4 py-3">
                            <CommissionStatusBadge status={c.status} />
                          </td>
                        </tr>
                      ))}
                </tbody>
              </table>
            </div>
            <Pagination page={page} pages={pages} onPageChange={setPage} className="mt-4" />
          </>
        )}
      </CardContent>
    </Card>
  );
}
