import { can } from '@shared/permissions';
import { Wallet } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import { Button } from '@/components/ui/button';
import { AccessDenied, ErrorState } from '@/components/ui/feedback';
import { PageHeader } from '@/components/ui/page-header';
import { useCurrentUser } from '@/features/auth/api/me';
import { useCommissionSummary } from '@/features/commissions/api/get-commission-summary';
import { CommissionHistory } from '@/features/commissions/components/commission-history';
import { RecentPayouts } from '@/features/commissions/components/recent-payouts';
import { RepFilter } from '@/features/commissions/components/rep-filter';
import { RequestPayoutButton } from '@/features/commissions/components/request-payout-dialog';
import { SummaryCards } from '@/features/commissions/components/summary-cards';
import { paths } from '@/lib/paths';

/**
 * Commissions (ui-spec.md section 2): Available, Requested and Disbursed; Request Payout for sales reps
 * with commission available; recent payout requests; the history with its status filter and Export.
 * Staff who see every rep's commission choose a rep (or all reps).
 */
export default function CommissionsPage() {
  const { user } = useCurrentUser();
  const readAny = can(user, 'commission:read:any');
  const readOwn = can(user, 'commission:read:own');
  const [repId, setRepId] = useState<string | undefined>();
  const scopedRep = readAny ? repId : undefined;
  const summary = useCommissionSummary(scopedRep);

  if (!readAny && !readOwn) return <AccessDenied message="You don't have permission to view commissions" />;

  const canRequest = can(user, 'payout:request');
  const canReview = can(user, 'payout:review');
  const available = summary.data?.available ?? 0;

  return (
    <>
      <PageHeader
        title="Commissions"
        description={
          readAny
            ? 'Commission earned by the sales team on paid invoices, and their payouts.'
            : 'Commission you earned on paid invoices, and your payout requests.'
        }
        actions={
          <>
            {canReview && (
              <Button variant="outline" asChild>
                <Link href={paths.payouts}>
                  <Wallet aria-hidden /> Review Payouts
                </Link>
              </Button>
            )}
            {canRequest && available > 0 && <RequestPayoutButton available={available} />}
          </>
        }
      />

      {readAny && (
        <div className="mb-4">
          <RepFilter id="commission-rep-filter" value={repId} onChange={setRepId} />
        </div>
      )}

      {summary.error && !summary.data ? (
        <ErrorState title="Could not load the commission summary">Reload the page to try again.</ErrorState>
      ) : (
        <SummaryCards summary={summary.data} loading={summary.isLoading} canRequest={canRequest} />
      )}

      <div className="mt-6 space-y-6">
        <RecentPayouts repId={scopedRep} showRep={readAny && !scopedRep} reviewLink={canReview} />
        <CommissionHistory repId={scopedRep} showRep={readAny && !scopedRep} />
      </div>
    </>
  );
}
