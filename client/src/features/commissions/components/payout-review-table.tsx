import type { Payout } from '@shared/contracts/commissions';
import { Check, CircleDollarSign, X } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { type Column, DataTable } from '@/components/ui/data-table';
import { formatDate, formatMoney } from './format';
import type { ReviewAction } from './payout-review-dialogs';
import { PayoutStatusBadge } from './status-badges';

/**
 * Payouts with the review actions their status allows: approve or reject a pending one, disburse an approved
 * one. The rows are a page of the server's, in its order.
 */
export function PayoutReviewTable({
  rows,
  loading,
  busy,
  empty,
  onAction,
}: {
  rows: Payout[];
  loading: boolean;
  busy: boolean;
  empty: ReactNode;
  onAction: (action: ReviewAction) => void;
}) {
  const columns: Column<Payout>[] = [
    {
      id: 'requested',
      header: 'Requested',
      cellClassName: 'whitespace-nowrap tabular-nums',
      cell: (payout) => formatDate(payout.requestedAt),
    },
    {
      id: 'rep',
      header: 'Sales Rep',
      role: 'identity',
      cellClassName: 'whitespace-nowrap font-medium text-slate-900',
      cell: (payout) => payout.repName ?? '—',
    },
    {
      id: 'amount',
      header: 'Amount',
      role: 'amount',
      align: 'right',
      cellClassName: 'whitespace-nowrap',
      cell: (payout) => formatMoney(payout.requestedAmount),
    },
    {
      id: 'approved',
      header: 'Approved',
      align: 'right',
      cellClassName: 'whitespace-nowrap',
      cell: (payout) => (payout.approvedAmount === null ? '—' : formatMoney(payout.approvedAmount)),
    },
    {
      id: 'status',
      header: 'Status',
      cell: (payout) => (
        <>
          <PayoutStatusBadge status={payout.status} />
          {payout.status === 'rejected' && payout.rejectReason && (
            <span className="mt-1 block max-w-[16rem] truncate text-xs text-muted-foreground">
              {payout.rejectReason}
            </span>
          )}
        </>
      ),
    },
    {
      id: 'reviewed',
      header: 'Reviewed',
      cellClassName: 'whitespace-nowrap text-xs text-muted-foreground',
      cell: (payout) =>
        payout.reviewedAt ? (
          <>
            {formatDate(payout.reviewedAt)}
            {payout.reviewedByName && <span className="block">by {payout.reviewedByName}</span>}
          </>
        ) : (
          '—'
        ),
    },
    {
      id: 'actions',
      header: 'Actions',
      align: 'right',
      cellClassName: 'whitespace-nowrap py-2',
      placeholder: null,
      cell: (payout) => (
        <div className="flex justify-end gap-2">
          {payout.status === 'pending' && (
            <>
              <Button size="sm" onClick={() => onAction({ kind: 'approve', payout })}>
                <Check aria-hidden /> Approve
              </Button>
              <Button size="sm" variant="outline" onClick={() => onAction({ kind: 'reject', payout })}>
                <X aria-hidden /> Reject
              </Button>
            </>
          )}
          {payout.status === 'approved' && (
            <Button size="sm" onClick={() => onAction({ kind: 'disburse', payout })}>
              <CircleDollarSign aria-hidden /> Mark Disbursed
            </Button>
          )}
        </div>
      ),
    },
  ];
  return (
    <DataTable
      caption="Payout requests"
      columns={columns}
      rows={rows}
      rowKey={(payout) => payout.id}
      rowProps={(payout) => ({ 'data-testid': 'payout-row', 'data-payout-id': payout.id })}
      rowClassName={() => 'align-middle'}
      loading={loading}
      loadingRows={4}
      busy={busy}
      empty={empty}
      frame="card"
    />
  );
}
