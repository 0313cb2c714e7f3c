import { clickThroughRate, formatMonth, PERFORMANCE_MESSAGES } from '@shared/contracts/performance-vocabulary';
import { BarChart3 } from 'lucide-react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ErrorState, Skeleton } from '@/components/ui/feedback';
import { useClientPerformance } from '../api/get-client-performance';
import { FiguresTable } from './figures-table';

const number = new Intl.NumberFormat('en-US');

/**
 * The portal's performance card: the figures our team reported for the client's campaigns (the product
 * measures none itself), the latest month's totals first; or the plain statement that none were reported.
 */
export function PerformanceCard({
  contractName,
}: {
  contractName: (contract: { id: string; title: string | null }) => string;
}) {
  const { data, isLoading, error } = useClientPerformance();
  const rows = data?.rows ?? [];
  const latestMonth = rows[0]?.month;
  const latest = rows.filter((row) => row.month === latestMonth);
  const totals = latest.reduce(
    (sum, row) => ({
      impressions: sum.impressions + row.impressions,
      clicks: sum.clicks + row.clicks,
      views: sum.views + row.views,
    }),
    { impressions: 0, clicks: 0, views: 0 },
  );
  const several = new Set(rows.map((row) => row.contractId)).size > 1;

  return (
    <Card className="min-w-0" data-testid="performance-card">
      <CardHeader>
        <CardTitle>Campaign Performance</CardTitle>
        <CardDescription>Figures reported by our team each month</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {isLoading && <Skeleton className="h-24 rounded-lg" />}
        {error && !data && <ErrorState title="Could not load the figures">Reload the page to try again.</ErrorState>}
        {data && rows.length === 0 && (
          <p className="flex flex-col items-center gap-2 py-6 text-center text-sm text-muted-foreground">
            <BarChart3 className="size-8" aria-hidden />
            {PERFORMANCE_MESSAGES.none}
          </p>
        )}
        {latestMonth && (
          <>
            <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4" aria-label={`Totals for ${formatMonth(latestMonth)}`}>
              {[
                ['Impressions', number.format(totals.impressions)],
                ['Clicks', number.format(totals.clicks)],
                ['Views', number.format(totals.views)],
                ['Click-through rate', clickThroughRate(totals)],
              ].map(([label, value]) => (
                <div key={label} className="rounded-lg bg-muted/50 px-3 py-2.5">
                  <dt className="text-xs text-muted-foreground">{label}</dt>
                  <dd className="text-lg font-semibold tabular-nums text-slate-900">{value}</dd>
                </div>
              ))}
            </dl>
            <p className="-mt-2 text-xs text-muted-foreground">Latest reported month: {formatMonth(latestMonth)}</p>
            <FiguresTable
              entries={rows}
              caption="Performance by month"
              sortable={data !== undefined && data.total <= rows.length}
              contractName={
                several ? (entry) => contractName({ id: entry.contractId, title: entry.contractTitle }) : undefined
              }
            />
          </>
        )}
      </CardContent>
    </Card>
  );
}
