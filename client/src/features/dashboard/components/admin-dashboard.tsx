import type { User } from '@shared/contracts/auth';
import { can } from '@shared/permissions';
import { Activity, BarChart3, Boxes, DollarSign, FileText, HeartPulse, Plus, Users, UsersRound } from 'lucide-react';
import { Link } from 'wouter';
import { Button, buttonVariants } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/feedback';
import { PageHeader } from '@/components/ui/page-header';
import { formatMoney, formatTimeAgo } from '@/lib/format';
import { paths } from '@/lib/paths';
import { useDashboardStats } from '../api/get-dashboard-stats';
import { healthProblems, useHealth } from '../api/get-health';
import { useRecentActivity } from '../api/get-recent-activity';
import { useUserCount } from '../api/get-user-count';
import { FinanceCards } from './finance-cards';
import { StatCard } from './stat-card';

export function AdminDashboard({ user }: { user: User }) {
  const canManageUsers = can(user, 'user:manage');
  const users = useUserCount(canManageUsers);
  const stats = useDashboardStats({ enabled: can(user, 'report:read:any') || can(user, 'report:read:own') });
  const canReadAudit = can(user, 'audit:read');
  const activity = useRecentActivity(canReadAudit);
  // Only the actions this role may take, so none leads to Access Denied (finance does not create contracts).
  const quickActions = [
    can(user, 'contract:write:any') && { href: paths.newContract, icon: <Plus aria-hidden />, label: 'New Contract' },
    can(user, 'report:read:any') && { href: paths.reports, icon: <BarChart3 aria-hidden />, label: 'View Reports' },
    can(user, 'customer:read:any') && {
      href: paths.customers,
      icon: <UsersRound aria-hidden />,
      label: can(user, 'customer:write') ? 'Manage Customers' : 'View Customers',
    },
    can(user, 'product:read') && {
      href: paths.products,
      icon: <Boxes aria-hidden />,
      label: can(user, 'product:write') ? 'Manage Products' : 'View Products',
    },
  ].filter((action) => action !== false);
  const health = useHealth();
  const healthy = health.data?.status === 'ok';
  const problems = health.isError
    ? ['The server cannot reach its database']
    : health.data
      ? healthProblems(health.data)
      : [];

  return (
    <>
      <PageHeader
        title="Admin Dashboard"
        description={`Welcome back, ${user.firstName}. Here is how the business is doing.`}
        actions={
          canManageUsers && (
            <Button asChild variant="outline">
              <Link href={paths.users}>
                <Users aria-hidden /> Manage Users
              </Link>
            </Button>
          )
        }
      />
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        {canManageUsers && (
          <StatCard label="Total Users" value={users.data ?? 0} icon={Users} loading={users.isLoading} />
        )}
        <StatCard
          label="Active Contracts"
          value={stats.data?.activeContracts ?? 0}
          icon={FileText}
          loading={stats.isLoading}
        />
        <StatCard
          label="Monthly Revenue"
          value={formatMoney(stats.data?.monthlyRevenue ?? 0)}
          hint={`Cash received this month · MRR ${formatMoney(stats.data?.mrr ?? 0)}`}
          icon={DollarSign}
          loading={stats.isLoading}
        />
        <StatCard
          label="System Health"
          value={health.isLoading ? '' : healthy ? 'Excellent' : 'Needs attention'}
          hint={
            healthy || health.isLoading
              ? 'Database, e-mail outbox, billing run and background jobs'
              : problems.join('. ')
          }
          icon={HeartPulse}
          loading={health.isLoading}
        />
      </div>
      {/* Finance (an unlisted role: ui-spec's Admin Dashboard) also sees who owes what and the cash to come. */}
      {user.role === 'finance' && <FinanceCards />}

      <div className="mt-6 grid gap-6 lg:grid-cols-3">
        {/* The audit trail is admin-level: other roles get no card rather than an empty one. */}
        {canReadAudit && (
          <Card className="lg:col-span-2">
            <CardHeader>
              <CardTitle className="flex items-center gap-2">
                <Activity className="size-4 text-muted-foreground" aria-hidden /> Recent Activity
              </CardTitle>
            </CardHeader>
            <CardContent>
              {activity.isLoading ? (
                <div className="grid gap-3">
                  {Array.from({ length: 3 }, (_, i) => (
                    <Skeleton key={i} className="h-10" />
                  ))}
                </div>
              ) : activity.data?.rows.length ? (
                <ul className="divide-y">
                  {activity.data.rows.map((event) => (
                    <li key={event.id} className="flex items-center justify-between gap-4 py-3 text-sm">
                      <span className="min-w-0">
                        <span className="font-medium text-slate-900">{event.summary}</span>
                        {event.label && event.link && (
                          <>
                            {' · '}
                            <Link href={event.link} className="text-primary underline-offset-2 hover:underline">
                              {event.label}
                            </Link>
                          </>
                        )}
                        {event.actorName && <span className="text-muted-foreground"> by {event.actorName}</span>}
                      </span>
                      <time className="shrink-0 text-xs text-muted-foreground" dateTime={event.createdAt}>
                        {formatTimeAgo(event.createdAt)}
                      </time>
                    </li>
                  ))}
                </ul>
              ) : (
                <p className="py-6 text-center text-sm text-muted-foreground">No activity yet.</p>
              )}
            </CardContent>
          </Card>
        )}
        <Card>
          <CardHeader>
            <CardTitle>Quick Actions</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-2">
            {quickActions.map((action) => (
              <QuickAction key={action.href} {...action} />
            ))}
          </CardContent>
        </Card>
      </div>
    </>
  );
}

function QuickAction({ href, icon, label }: { href: string; icon: React.ReactNode; label: string }) {
  return (
    <Link href={href} className={buttonVariants({ variant: 'outline', className: 'justify-start' })}>
      {icon}
      {label}
    </Link>
  );
}
