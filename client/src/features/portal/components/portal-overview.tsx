import { CalendarClock, Megaphone, Wallet } from 'lucide-react';
import type { ReactNode } from 'react';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/feedback';
import { formatDate, formatMoney } from '@/lib/format';
import { useClientSummary } from '../api/get-client-summary';

/**
 * The portal's figures, all computed on the server from the client's own records: active campaigns, the
 * next payment (the earliest open invoice, or the next scheduled period) and the outstanding balance.
 */
export function PortalOverview() {
  const { data, isLoading, error } = useClientSummary();
  const next = data?.nextPayment;
  return (
    <section aria-label="Account overview" className="grid gap-4 sm:grid-cols-3">
      <Figure
        label="Active Campaigns"
        icon={<Megaphone aria-hidden />}
        loading={isLoading}
        failed={Boolean(error)}
        value={data?.activeContracts}
        hint={data ? `${data.activeContracts === 1 ? 'contract' : 'contracts'} running now` : undefined}
      />
      <Figure
        label="Next Payment"
        icon={<CalendarClock aria-hidden />}
        loading={isLoading}
        failed={Boolean(error)}
        value={data ? (next ? formatMoney(next.amount) : 'None due') : undefined}
        hint={
          next
            ? `${next.source === 'invoice' ? 'Due' : 'Scheduled, due'} ${formatDate(next.dueDate)}`
            : data
              ? 'No open invoice or scheduled billing'
              : undefined
        }
      />
      <Figure
        label="Outstanding Balance"
        icon={<Wallet aria-hidden />}
        loading={isLoading}
        failed={Boolean(error)}
        value={data ? formatMoney(data.outstandingBalance) : undefined}
        hint={
          data
            ? data.pendingInvoices === 0
              ? 'Nothing pending'
              : `${data.pendingInvoices} pending invoice${data.pendingInvoices === 1 ? '' : 's'}`
            : undefined
        }
      />
    </section>
  );
}

function Figure({
  label,
  icon,
  value,
  hint,
  loading,
  failed,
}: {
  label: string;
  icon: ReactNode;
  value: ReactNode;
  hint?: string;
  loading: boolean;
  failed: boolean;
}) {
  return (
    <Card className="p-5" data-testid={`figure-${label.toLowerCase().replaceAll(' ', '-')}`}>
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="text-sm font-medium text-muted-foreground">{label}</p>
          {loading ? (
            <Skeleton className="mt-2 h-8 w-24" />
          ) : (
            <p className="mt-1 text-2xl font-semibold tabular-nums text-slate-900">{failed ? '—' : value}</p>
          )}
          {!loading && (hint || failed) && (
            <p className="mt-1 text-xs text-muted-foreground">{failed ? 'Could not load this figure' : hint}</p>
          )}
        </div>
        <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-secondary text-secondary-foreground [&_svg]:size-5">
          {icon}
        </span>
      </div>
    </Card>
  );
}
