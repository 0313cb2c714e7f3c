import { AGING_BUCKET_LABELS, AGING_BUCKETS, type ReceivablesSummary } from '@shared/contracts/receivables-vocabulary';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/feedback';
import { formatMoney } from '@/lib/format';
import { cn } from '@/lib/utils';

/**
 * The totals of the customers the filters select: total A/R, overdue, credit held, and one figure per aging
 * bucket (each a button that filters the list by its bucket).
 */
export function ReceivablesSummaryCards({
  summary,
  loading,
  bucket,
  onBucket,
}: {
  summary: ReceivablesSummary | undefined;
  loading: boolean;
  bucket: string;
  onBucket: (bucket: (typeof AGING_BUCKETS)[number] | 'all') => void;
}) {
  const figure = (value: number | undefined) =>
    loading || value === undefined ? <Skeleton className="mt-1 h-7 w-24" /> : formatMoney(value);
  return (
    <section aria-label="Receivables totals" className="mb-4 grid gap-3">
      <div className="grid gap-3 sm:grid-cols-3">
        <Card className="p-4">
          <p className="text-sm font-medium text-muted-foreground">Total A/R</p>
          <p className="mt-1 text-2xl font-semibold tabular-nums text-slate-900" data-testid="receivables-total">
            {figure(summary?.openBalance)}
          </p>
          <p className="mt-1 text-xs text-muted-foreground">
            {summary ? `${summary.customers} ${summary.customers === 1 ? 'customer' : 'customers'}` : ' '}
          </p>
        </Card>
        <Card className="p-4">
          <p className="text-sm font-medium text-muted-foreground">Overdue</p>
          <p className="mt-1 text-2xl font-semibold tabular-nums text-red-700" data-testid="receivables-overdue">
            {figure(summary?.overdue)}
          </p>
          <p className="mt-1 text-xs text-muted-foreground">Past the due date</p>
        </Card>
        <Card className="p-4">
          <p className="text-sm font-medium text-muted-foreground">Credit held</p>
          <p className="mt-1 text-2xl font-semibold tabular-nums text-slate-900" data-testid="receivables-credit">
            {figure(summary?.creditBalance)}
          </p>
          <p className="mt-1 text-xs text-muted-foreground">Owed to customers, applied to their next invoices</p>
        </Card>
      </div>
      <ul className="grid grid-cols-2 gap-2 sm:grid-cols-5" aria-label="Aging buckets">
        {AGING_BUCKETS.map((b) => {
          const active = bucket === b;
          return (
            <li key={b}>
              <button
                type="button"
                aria-pressed={active}
                onClick={() => onBucket(active ? 'all' : b)}
                data-testid={`bucket-${b}`}
                className={cn(
                  'w-full rounded-lg border bg-white px-3 py-2 text-left shadow-sm hover:bg-muted/50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
                  active && 'border-primary ring-1 ring-primary',
                )}
              >
                <span className="block text-xs font-medium text-muted-foreground">{AGING_BUCKET_LABELS[b]}</span>
                <span className="block text-base font-semibold tabular-nums text-slate-900">
                  {loading || !summary ? <Skeleton className="mt-1 h-5 w-16" /> : formatMoney(summary.aging[b])}
                </span>
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
