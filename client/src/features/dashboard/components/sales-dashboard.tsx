import type { User } from '@shared/contracts/auth';
import { contractStatusBadge } from '@shared/contracts/contracts';
import { can } from '@shared/permissions';
import { CalendarPlus, FileText, HandCoins, Plus } from 'lucide-react';
import { Link } from 'wouter';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/feedback';
import { PageHeader } from '@/components/ui/page-header';
import { formatMoney } from '@/lib/format';
import { paths } from '@/lib/paths';
import { cn } from '@/lib/utils';
import { useDashboardStats } from '../api/get-dashboard-stats';
import { useMyContracts } from '../api/get-my-contracts';
import { StatCard } from './stat-card';

export function SalesDashboard({ user }: { user: User }) {
  const stats = useDashboardStats({ mine: true });
  const mine = useMyContracts();
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
          label="My Contracts"
          value={stats.data?.totalContracts ?? 0}
          icon={FileText}
          loading={stats.isLoading}
        />
        <StatCard
          label="Active Monthly Value"
          value={formatMoney(stats.data?.monthlyRevenue ?? 0)}
          hint={`${stats.data?.activeContracts ?? 0} active contracts`}
          icon={HandCoins}
          loading={stats.isLoading}
        />
        <StatCard
          label="This Month"
          value={stats.data?.contractsThisMonth ?? 0}
          hint="Contracts created this month"
          icon={CalendarPlus}
          loading={stats.isLoading}
        />
      </div>

      <Card className="mt-6">
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
            <ul className="divide-y">
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
                        <span className={cn('rounded-full border px-2.5 py-0.5 text-xs font-medium', badge.className)}>
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
    </>
  );
}
