import { Link } from 'wouter';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/feedback';
import { paths } from '@/lib/paths';
import { usePayouts } from '../api/get-payouts';
import { formatDate, formatMoney } from './format';
import { PayoutStatusBadge } from './status-badges';

/** Recent payout requests: the first 5, newest first, with their status. */
export function RecentPayouts({
  repId,
  showRep,
  reviewLink,
}: {
  repId?: string;
  showRep: boolean;
  reviewLink: boolean;
}) {
  const payouts = usePayouts({ repId, pageSize: 5 });
  const rows = payouts.data?.rows ?? [];
  return (
    <Card>
      <CardHeader className="flex-row items-center justify-between gap-2">
        <CardTitle>Recent Payout Requests</CardTitle>
        {reviewLink && (
          <Link href={paths.payouts} className="text-sm font-medium text-primary hover:underline">
            Review payouts
          </Link>
        )}
      </CardHeader>
      <CardContent>
        {payouts.isLoading ? (
          <div className="grid gap-3" aria-busy="true">
            {Array.from({ length: 3 }, (_, i) => (
              <Skeleton key={i} className="h-12" />
            ))}
          </div>
        ) : rows.length === 0 ? (
          <p className="py-6 text-center text-sm text-muted-foreground">No payout requests yet.</p>
        ) : (
          <ul className="divide-y" data-testid="recent-payouts">
            {rows.map((payout) => (
              <li
                key={payout.id}
                className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 py-3"
                data-testid="recent-payout"
              >
                <div className="min-w-0">
                  <p className="font-medium tabular-nums text-slate-900">
                    {formatMoney(payout.requestedAmount)}
                    {payout.approvedAmount !== null && payout.approvedAmount !== payout.requestedAmount && (
                      <span className="ml-2 text-sm font-normal text-muted-foreground">
                        ({formatMoney(payout.approvedAmount)} approved)
                      </span>
                    )}
                  </p>
                  <p className="truncate text-xs text-muted-foreground">
                    {showRep && payout.repName ? `${payout.repName} · ` : ''}Requested {formatDate(payout.requestedAt)}
                    {payout.status === 'disbursed' && payout.disbursedAt && ` · Paid ${formatDate(payout.disbursedAt)}`}
                    {payout.status === 'rejected' && payout.rejectReason && ` · ${payout.rejectReason}`}
                  </p>
                </div>
                <PayoutStatusBadge status={payout.status} />
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
