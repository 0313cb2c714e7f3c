import type { User } from '@shared/contracts/auth';
import { contractStatusBadge } from '@shared/contracts/contracts';
import { FileText, ShieldCheck } from 'lucide-react';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/feedback';
import { PageHeader } from '@/components/ui/page-header';
import { formatMoney } from '@/lib/format';
import { cn } from '@/lib/utils';
import { useClientContracts } from '../api/get-client-contracts';
import { StatCard } from './stat-card';

export function ClientDashboard({ user }: { user: User }) {
  const contracts = useClientContracts();
  const rows = contracts.data?.rows ?? [];
  const active = rows.filter((c) => c.status === 'active').length;

  return (
    <>
      <PageHeader title={`Welcome, ${user.firstName}!`} description="Your advertising contracts with us." />
      <div className="grid gap-4 sm:grid-cols-2">
        <StatCard label="Active Contracts" value={active} icon={FileText} loading={contracts.isLoading} />
        <StatCard label="Account Status" value="Active" icon={ShieldCheck} />
      </div>
      <Card className="mt-6">
        <CardHeader>
          <CardTitle>My Contracts</CardTitle>
        </CardHeader>
        <CardContent>
          {contracts.isLoading ? (
            <Skeleton className="h-24" />
          ) : rows.length ? (
            <ul className="divide-y">
              {rows.slice(0, 5).map((contract) => {
                const badge = contractStatusBadge(contract.status);
                return (
                  <li key={contract.id} className="flex items-center justify-between gap-4 py-3">
                    <span className="font-medium text-slate-900">
                      {contract.title || `Contract #${contract.id.slice(-6)}`}
                    </span>
                    <span className="flex items-center gap-3">
                      <span className="tabular-nums">{formatMoney(contract.totalAmount)}</span>
                      <span className={cn('rounded-full border px-2.5 py-0.5 text-xs font-medium', badge.className)}>
                        {badge.label}
                      </span>
                    </span>
                  </li>
                );
              })}
            </ul>
          ) : (
            <p className="py-6 text-center text-sm text-muted-foreground">No contracts available</p>
          )}
        </CardContent>
      </Card>
    </>
  );
}
