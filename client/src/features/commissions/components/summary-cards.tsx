import type { CommissionSummary } from '@shared/contracts/commissions';
import type { LucideIcon } from 'lucide-react';
import { CheckCircle2, Clock, Wallet } from 'lucide-react';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/feedback';
import { formatMoney } from '@/lib/format';
import { cn } from '@/lib/utils';

/** The Commissions screen's three cards: Available, Requested, Disbursed (they add up to the total earned). */
export function SummaryCards({
  summary,
  loading,
  canRequest,
}: {
  summary?: CommissionSummary;
  loading: boolean;
  /** The viewer is the rep and may request payouts (the hint says so). */
  canRequest: boolean;
}) {
  return (
    <div className="grid gap-4 sm:grid-cols-3">
      <SummaryCard
        label="Available"
        value={summary?.available}
        hint={
          summary && summary.available < 0
            ? 'Refunds exceed unpaid commission'
            : canRequest
              ? 'Ready to request'
              : 'Earned, not yet requested'
        }
        icon={Wallet}
        tone="text-green-700 bg-green-50"
        loading={loading}
      />
      <SummaryCard
        label="Requested"
        value={summary?.requested}
        hint="In payouts awaiting review or payment"
        icon={Clock}
        tone="text-yellow-700 bg-yellow-50"
        loading={loading}
      />
      <SummaryCard
        label="Disbursed"
        value={summary?.disbursed}
        hint={summary ? `${formatMoney(summary.total)} earned in total` : undefined}
        icon={CheckCircle2}
        tone="text-blue-700 bg-blue-50"
        loading={loading}
      />
    </div>
  );
}

function SummaryCard({
  label,
  value,
  hint,
  icon: Icon,
  tone,
  loading,
}: {
  label: string;
  value?: number;
  hint?: string;
  icon: LucideIcon;
  tone: string;
  loading: boolean;
}) {
  return (
    <Card className="p-5" data-testid={`summary-${label.toLowerCase()}`}>
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="text-sm font-medium text-muted-foreground">{label}</p>
          {loading || value === undefined ? (
            <Skeleton className="mt-2 h-8 w-28" />
          ) : (
            <p className="mt-1 text-2xl font-semibold tabular-nums text-slate-900" data-testid="summary-value">
              {formatMoney(value)}
            </p>
          )}
          {hint && <p className="mt-1 text-xs text-muted-foreground">{hint}</p>}
        </div>
        <span className={cn('flex size-10 shrink-0 items-center justify-center rounded-lg', tone)}>
          <Icon className="size-5" aria-hidden />
        </span>
      </div>
    </Card>
  );
}
