import type { User } from '@shared/contracts/auth';
import { contractStatusBadge } from '@shared/contracts/contract-vocabulary';
import { can } from '@shared/permissions';
import { CalendarPlus, FileText, HandCoins, Plus, Wallet } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { BADGE_TONES } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/feedback';
import { PageHeader } from '@/components/ui/page-header';
import { formatMoney } from '@/lib/format';
import { paths } from '@/lib/paths';
import { cn } from '@/lib/utils';
import { useMyCommissionSummary } from '../api/get-commission-summary';
import { useDashboardStats } from '../api/get-dashboard-stats';
import { useMyContracts } from '../api/get-my-contracts';
import { type RenewAction, RenewalsDueCard } from './renewals-due-card';
import { StatCard } from './stat-card';

/**
 * The sales view; `renew` is the contracts feature's "Renew", passed by the page to "Renewals due", and `myDay`
 * the activities feature's "My day" card, which the page composes.
 */
export function SalesDashboard({ user, renew, myDay }: { user: User; renew: RenewAction; myDay?: ReactNode }) {
  const stats = useDashboardStats({ mine: true });
  const mine = useMyContracts();
  const readsCommission = can(user, 'commission:read:own') || can(user, 'commission:read:any');
  const commission = useMyCommissionSummary(user.id, readsCommission);
  const canCreate = can(user, 'contract:write:any') || can(user, 'contract:write:own');

  return (
    <>
      <PageHeader
        title={`Welcome back, ${user.firstName}!`}
        description="Your contracts at a glance."
        actions={
          canCreate && (
            <Button asChild>
              <Link href={paths.newContract}>
                <Plus aria-hidden /> New Contract
              </Link>
            </Button>
          )
        }
      />
      <div className="grid gap-4 sm:grid-cols-3">
        <StatCard
          label="Available Commission"
          value={formatMoney(commission.data?.available ?? 0)}
          hint={can(user, 'payout:request') ? 'Ready to request as a payout' : 'Earned, not yet paid out'}
          icon={Wallet}
          loading={readsCommission && commission.isLoading}
        />
        <StatCard
          label="My Contracts"
          value={stats.data?.totalContracts ?? 0}
          hint={`${stats.data?.activeContracts ?? 0} active`}
          icon={FileText}
          loading={stats.isLoading}
        />
        <StatCard
          label="This Month"
          value={formatMoney(commission.data?.thisMonth ?? 0)}
          hint="Commission earned this month"
          icon={CalendarPlus}
          loading={readsCommission && commission.isLoading}
        />
      </div>

      {myDay && <div className="mt-6">{myDay}</div>}

      <div className="mt-6 grid grid-cols-1 gap-6 lg:grid-cols-3">
        <Card className="lg:col-span-2">
          <CardHeader className="flex-row items-center justify-between">
            <CardTitle>My Recent Contracts</CardTitle>
            <Link href={paths.contracts} className="text-sm font-medium text-primary hover:underline">
              View all
            </Link>
          </CardHeader>
          <CardContent>
            {mine.isLoading ? (
              <div className="grid gap-3">
                {Array.from({ length: 3 }, (_, i) => (
                  <Skeleton key={i} className="h-12" />
                ))}
              </div>
            ) : mine.data?.rows.length ? (
              <ul className="divide-y" aria-label="My recent contracts">
                {mine.data.rows.slice(0, 5).map((contract) => {
                  const badge = contractStatusBadge(contract.status);
                  return (
                    <li key={contract.id}>
                      <Link
                        href={paths.contract(contract.id)}
                        className="flex items-center justify-between gap-4 rounded-md px-2 py-3 hover:bg-muted focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                      >
                        <span className="min-w-0">
                          <span className="block truncate font-medium text-slate-900">
                            {contract.customerName ?? 'Unknown Customer'}
                          </span>
                          <span className="block truncate text-xs text-muted-foreground">
                            {contract.description || 'No description'}
                          </span>
                        </span>
                        <span className="flex shrink-0 items-center gap-3">
                          <span className="tabular-nums">{formatMoney(contract.totalAmount)}</span>
                          <span
                            className={cn(
                              'rounded-full border px-2.5 py-0.5 text-xs font-medium',
                              BADGE_TONES[badge.tone],
                            )}
                          >
                            {badge.label}
                          </span>
                        </span>
                      </Link>
                    </li>
                  );
                })}
              </ul>
            ) : (
              <p className="py-6 text-center text-sm text-muted-foreground">
                No contracts yet. Create your first contract!
              </p>
            )}
          </CardContent>
        </Card>
        <CommissionTracker
          available={commission.data?.available}
          pending={commission.data?.pending}
          total={commission.data?.total}
          loading={readsCommission && commission.isLoading}
        />
      </div>

      <div className="mt-6">
        <RenewalsDueCard canRenew={canCreate} renew={renew} />
      </div>
    </>
  );
}

/** Commission Tracker: Available, Pending (requested, not yet paid out) and Total Earned, from the summary. */
function CommissionTracker({
  available,
  pending,
  total,
  loading,
}: {
  available?: number;
  pending?: number;
  total?: number;
  loading: boolean;
}) {
  const rows = [
    { label: 'Available', value: available, className: 'text-green-700' },
    { label: 'Pending', value: pending, className: 'text-yellow-700' },
    { label: 'Total Earned', value: total, className: 'text-slate-900' },
  ];
  return (
    <Card>
      <CardHeader>
        <CardTitle>Commission Tracker</CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="divide-y" data-testid="commission-tracker">
          {rows.map((row) => (
            <div key={row.label} className="flex items-center justify-between gap-4 py-3">
              <dt className="text-sm text-muted-foreground">{row.label}</dt>
              <dd className={cn('font-semibold tabular-nums', row.className)}>
                {loading ? <Skeleton className="h-5 w-20" /> : formatMoney(row.value ?? 0)}
              </dd>
            </div>
          ))}
        </dl>
        <Link
          href={paths.commissions}
          className="mt-3 inline-flex items-center gap-1.5 text-sm font-medium text-primary hover:underline"
        >
          <HandCoins className="size-4" aria-hidden /> View All Commissions
        </Link>
      </CardContent>
    </Card>
  );
}
