import type { Payout } from '@shared/contracts/commissions';
import { Check, CircleDollarSign, X } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/feedback';
import { formatDate, formatMoney } from './format';
import type { ReviewAction } from './payout-review-dialogs';
import { PayoutStatusBadge } from './status-badges';

const HEADERS = ['Requested', 'Sales Rep', 'Amount', 'Approved', 'Status', 'Reviewed'];

/** Payouts with the review actions their status allows: approve or reject a pending one, disburse an approved one. */
export function PayoutReviewTable({
  rows,
  loading,
  busy,
  onAction,
}: {
  rows: Payout[];
  loading: boolean;
  busy: boolean;
  onAction: (action: ReviewAction) => void;
}) {
  return (
    <div className="overflow-x-auto rounded-xl border bg-white shadow-sm">
      <table className="w-full text-sm" aria-busy={loading || busy}>
        <caption className="sr-only">Payout requests</caption>
        <thead className="bg-muted/60 text-left text-xs uppercase tracking-wide text-muted-foreground">
          <tr>
            {HEADERS.map((h) => (
              <th
                key={h}
                scope="col"
                className={`whitespace-nowrap px-4 py-3 font-medium ${h === 'Amount' || h === 'Approved' ? 'text-right' : ''}`}
              >
                {h}
              </th>
            ))}
            <th scope="col" className="px-4 py-3 text-right font-medium">
              Actions
            </th>
          </tr>
        </thead>
        <tbody className={busy ? 'opacity-70 transition-opacity' : undefined}>
          {loading
            ? Array.from({ length: 4 }, (_, i) => (
                <tr key={i} className="border-t">
                  {[...HEADERS, 'actions'].map((h) => (
                    <td key={h} className="px-4 py-3">
                      <Skeleton className="h-4 w-20" />
                    </td>
                  ))}
                </tr>
              ))
            : rows.map((payout) => (
                <tr
                  key={payout.id}
                  className="border-t align-middle hover:bg-muted/40"
                  data-testid="payout-row"
                  data-payout-id={payout.id}
                >
                  <td className="whitespace-nowrap px-4 py-3 tabular-nums">{formatDate(payout.requestedAt)}</td>
                  <td className="whitespace-nowrap px-4 py-3 font-medium text-slate-900">{payout.repName ?? '—'}</td>
                  <td className="whitespace-nowrap px-4 py-3 text-right tabular-nums">
                    {formatMoney(payout.requestedAmount)}
                  </td>
                  <td className="whitespace-nowrap px-4 py-3 text-right tabular-nums">
                    {payout.approvedAmount === null ? '—' : formatMoney(payout.approvedAmount)}
                  </td>
                  <td className="px-4 py-3">
                    <PayoutStatusBadge status={payout.status} />
                    {payout.status === 'rejected' && payout.rejectReason && (
                      <span className="mt-1 block max-w-[16rem] truncate text-xs text-muted-foreground">
                        {payout.rejectReason}
                      </span>
                    )}
                  </td>
                  <td className="whitespace-nowrap px-4 py-3 text-xs text-muted-foreground">
                    {payout.reviewedAt ? (
                      <>
                        {formatDate(payout.reviewedAt)}
                        {payout.reviewedByName && <span className="block">by {payout.reviewedByName}</span>}
                      </>
                    ) : (
                      '—'
                    )}
                  </td>
                  <td className="whitespace-nowrap px-4 py-2 text-right">
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
                  </td>
                </tr>
              ))}
        </tbody>
      </table>
    </div>
  );
}
