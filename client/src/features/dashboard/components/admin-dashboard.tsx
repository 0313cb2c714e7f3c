import type { User } from '@shared/contracts/auth';
import type { AuditEvent } from '@shared/contracts/dashboard';
import { can } from '@shared/permissions';
import { Activity, BarChart3, Boxes, DollarSign, FileText, HeartPulse, Plus, Users, UsersRound } from 'lucide-react';
import { Link } from 'wouter';
import { Button, buttonVariants } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/feedback';
import { PageHeader } from '@/components/ui/page-header';
import { formatMoney } from '@/lib/format';
import { paths } from '@/lib/paths';
import { useDashboardStats } from '../api/get-dashboard-stats';
import { useHealth } from '../api/get-health';
import { useRecentActivity } from '../api/get-recent-activity';
import { useUserCount } from '../api/get-user-count';
import { StatCard } from './stat-card';

export function AdminDashboard({ user }: { user: User }) {
  const canManageUsers = can(user, 'user:manage');
  const users = useUserCount(canManageUsers);
  const stats = useDashboardStats({ enabled: can(user, 'report:read:any') || can(user, 'report:read:own') });
  const activity = useRecentActivity(can(user, 'audit:read'));
  const health = useHealth();
  const healthy = health.data?.status === 'ok';

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
          hint="Recurring per month, from active contracts"
          icon={DollarSign}
          loading={stats.isLoading}
        />
        <StatCard
          label="System Health"
          value={health.isLoading ? '' : healthy ? 'Excellent' : 'Needs attention'}
          hint={
            health.data && !healthy
              ? `Database: ${health.data.database}, e-mail: ${health.data.outbox}`
              : 'Database and e-mail outbox'
          }
          icon={HeartPulse}
          loading={health.isLoading}
        />
      </div>

      <div className="mt-6 grid gap-6 lg:grid-cols-3">
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
                    <span>
                      <span className="font-medium text-slate-900">{describeEvent(event)}</span>
                      {event.actorName && <span className="text-muted-foreground"> by {event.actorName}</span>}
                    </span>
                    <time className="shrink-0 text-xs text-muted-foreground" dateTime={event.createdAt}>
                      {timeAgo(event.createdAt)}
                    </time>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="py-6 text-center text-sm text-muted-foreground">No activity yet.</p>
            )}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Quick Actions</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-2">
            <QuickAction href={paths.newContract} icon={<Plus aria-hidden />} label="New Contract" />
            <QuickAction href={paths.reports} icon={<BarChart3 aria-hidden />} label="View Reports" />
            <QuickAction href={paths.customers} icon={<UsersRound aria-hidden />} label="Manage Customers" />
            <QuickAction href={paths.products} icon={<Boxes aria-hidden />} label="Manage Products" />
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

/** "customer.created" -> "Customer created"; "contract.status_changed" -> "Contract status changed". */
export function describeEvent(event: Pick<AuditEvent, 'action'>): string {
  const text = event.action.replace(/[._]/g, ' ').trim();
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const relative = new Intl.RelativeTimeFormat('en-US', { numeric: 'auto' });

export function timeAgo(iso: string, now = Date.now()): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  const steps: [Intl.RelativeTimeFormatUnit, number][] = [
    ['day', 86_400],
    ['hour', 3_600],
    ['minute', 60],
  ];
  for (const [unit, size] of steps) {
    if (Math.abs(seconds) >= size) return relative.format(Math.round(seconds / size), unit);
  }
  return 'just now';
}
