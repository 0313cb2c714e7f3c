import { PAYOUT_STATUS_LABELS, PAYOUT_STATUSES, type PayoutFilter } from '@shared/contracts/commission-vocabulary';
import { can } from '@shared/permissions';
import { HandCoins, Wallet } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { Button } from '@/components/ui/button';
import { AccessDenied, EmptyState, ErrorState } from '@/components/ui/feedback';
import { Label } from '@/components/ui/label';
import { lazyWhen } from '@/components/ui/lazy-when';
import { PageHeader } from '@/components/ui/page-header';
import { Pagination } from '@/components/ui/pagination';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { useCurrentUser } from '@/features/auth/api/me';
import { usePayouts } from '@/features/commissions/api/get-payouts';
import type { ReviewAction } from '@/features/commissions/components/payout-review-dialogs';
import { PayoutReviewTable } from '@/features/commissions/components/payout-review-table';
import { RepFilter } from '@/features/commissions/components/rep-filter';
import { paths } from '@/lib/paths';

const PayoutReviewDialog = lazyWhen(
  () => import('@/features/commissions/components/payout-review-dialogs').then((m) => m.PayoutReviewDialog),
  (props) => props.action !== null,
);

const PAGE_SIZE = 20;
type StatusFilter = PayoutFilter | 'all';

const FILTER_LABELS: Record<StatusFilter, string> = {
  open: 'Open (pending and approved)',
  ...PAYOUT_STATUS_LABELS,
  all: 'All',
};

/** ?status=pending: the Reports screen's "payouts awaiting review" alert opens the pending requests. */
function statusFromUrl(): StatusFilter {
  const value = new URLSearchParams(window.location.search).get('status');
  return (Object.keys(FILTER_LABELS) as StatusFilter[]).find((status) => status === value) ?? 'open';
}

/** Payout review (finance and admin-level): approve (amount editable), reject with a reason, mark disbursed. */
export default function PayoutsPage() {
  const { user } = useCurrentUser();
  const allowed = can(user, 'payout:review');
  const [status, setStatus] = useState<StatusFilter>(statusFromUrl);
  const [repId, setRepId] = useState<string | undefined>();
  const [page, setPage] = useState(0);
  const [action, setAction] = useState<ReviewAction | null>(null);
  const { data, isLoading, isFetching, error } = usePayouts({ status, repId, page, pageSize: PAGE_SIZE });

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new filter starts from the first page
  useEffect(() => setPage(0), [status, repId]);
  // A page emptied by reviews (an approved payout leaves the Pending filter) steps back.
  useEffect(() => {
    if (data && data.rows.length === 0 && page > 0) setPage(Math.max(0, Math.ceil(data.total / PAGE_SIZE) - 1));
  }, [data, page]);

  if (!allowed) return <AccessDenied message="You don't have permission to review payouts" />;

  const pages = data ? Math.max(1, Math.ceil(data.total / PAGE_SIZE)) : 1;

  return (
    <>
      <PageHeader
        title="Payouts"
        description="Payout requests of the sales team: approve (all or part), reject, and mark approved ones disbursed."
        actions={
          <Button variant="outline" asChild>
            <Link href={paths.commissions}>
              <HandCoins aria-hidden /> View Commissions
            </Link>
          </Button>
        }
      />

      <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-center">
        <div className="w-full sm:w-64">
          <Label htmlFor="payout-status-filter" className="sr-only">
            Filter by status
          </Label>
          <Select value={status} onValueChange={(v) => setStatus(v as StatusFilter)}>
            <SelectTrigger id="payout-status-filter" aria-label="Filter by status">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {(['open', ...PAYOUT_STATUSES, 'all'] as StatusFilter[]).map((s) => (
                <SelectItem key={s} value={s}>
                  {FILTER_LABELS[s]}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <RepFilter id="payout-rep-filter" value={repId} onChange={setRepId} />
      </div>

      <h2 className="mb-3 text-base font-semibold text-slate-900" aria-live="polite" data-testid="payouts-count">
        {data ? `${data.total} ${data.total === 1 ? 'payout' : 'payouts'}` : 'Loading payouts...'}
      </h2>

      {error && !data ? (
        <ErrorState title="Could not load payouts">Reload the page to try again.</ErrorState>
      ) : (
        <>
          <PayoutReviewTable
            rows={data?.rows ?? []}
            loading={!data}
            busy={isFetching && !isLoading}
            empty={
              <EmptyState icon={<Wallet />} title="No payouts found">
                {status === 'open' ? 'Nothing is waiting for review or payment.' : 'Try another status or rep.'}
              </EmptyState>
            }
            onAction={setAction}
          />
          {data?.rows.length !== 0 && <Pagination page={page} pages={pages} onPageChange={setPage} className="mt-4" />}
        </>
      )}

      <PayoutReviewDialog action={action} onClose={() => setAction(null)} />
    </>
  );
}
