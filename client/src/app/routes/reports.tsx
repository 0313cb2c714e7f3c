import { REPORT_RANGE_LABELS, REPORT_RANGES, type ReportRange } from '@shared/contracts/report-vocabulary';
import { can } from '@shared/permissions';
import {
  Activity,
  AlertTriangle,
  BarChart3,
  CreditCard,
  Download,
  FileText,
  Gauge,
  Layers,
  Package,
  Radio,
  Repeat,
  RotateCw,
  TrendingUp,
  Wallet,
} from 'lucide-react';
import { useLocation, useSearch } from 'wouter';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { AccessDenied, ErrorState, Skeleton } from '@/components/ui/feedback';
import { PageHeader } from '@/components/ui/page-header';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { toast } from '@/components/ui/use-toast';
import { useCurrentUser } from '@/features/auth/api/me';
import { StatCard } from '@/features/dashboard/components/stat-card';
import { useExportReport } from '@/features/reports/api/export-report';
import { useReport } from '@/features/reports/api/get-report';
import { AgencyBilling } from '@/features/reports/components/agency-billing';
import { AutopayStats } from '@/features/reports/components/autopay-stats';
import { performanceAlerts } from '@/features/reports/components/performance-alerts';
import { RenewalRate } from '@/features/reports/components/renewal-rate';
import {
  DeliveryStats,
  InventorySellThrough,
  PerformanceAlerts,
  QuickStats,
  RecentActivity,
  ReportAlerts,
  Section,
  StatusCounts,
  TopProducts,
} from '@/features/reports/components/report-sections';
import { RevenueChart } from '@/features/reports/components/revenue-chart';
import { errorMessage } from '@/lib/api-client';
import { formatDate, formatMoney } from '@/lib/format';
import { paths } from '@/lib/paths';

const isRange = (value: string | null): value is ReportRange =>
  value !== null && (REPORT_RANGES as readonly string[]).includes(value);

export default function ReportsPage() {
  const { user } = useCurrentUser();
  const search = useSearch();
  const [, navigate] = useLocation();
  const fromUrl = new URLSearchParams(search).get('range');
  const range: ReportRange = isRange(fromUrl) ? fromUrl : 'current_month';
  const allowed = can(user, 'report:read:any') || can(user, 'report:read:own');
  const report = useReport(range);
  const exporter = useExportReport();
  if (!user || !allowed) return <AccessDenied message="You don't have permission to view reports" />;

  // Manager-level roles (ui-spec.md section 6) see performance alerts.
  const managerLevel = ['super_admin', 'admin', 'sales_manager'].includes(user.role);
  const data = report.data;
  const revenueEmpty = data ? data.revenue.byMonth.every((m) => m.amount === 0) : false;

  return (
    <>
      <PageHeader
        title="Reports"
        description={
          data ? (
            <>
              {REPORT_RANGE_LABELS[data.range]}: {formatDate(data.from)} – {formatDate(data.to)}
              {data.scope === 'own' && ' · your contracts only'}
            </>
          ) : (
            'Revenue, contracts and what needs attention'
          )
        }
        actions={
          <>
            <Select
              value={range}
              onValueChange={(value) => navigate(`${paths.reports}?range=${value}`, { replace: true })}
            >
              <SelectTrigger className="w-44" aria-label="Time range" data-testid="report-range">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {REPORT_RANGES.map((r) => (
                  <SelectItem key={r} value={r}>
                    {REPORT_RANGE_LABELS[r]}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
            <Button
              variant="outline"
              disabled={exporter.isPending}
              onClick={() =>
                exporter.mutate(range, {
                  onError: (error) =>
                    toast({ title: errorMessage(error, 'The export failed'), variant: 'destructive' }),
                })
              }
            >
              <Download aria-hidden /> {exporter.isPending ? 'Exporting...' : 'Export'}
            </Button>
          </>
        }
      />

      {report.isError && !data && <ErrorState title="Could not load the report" />}
      {report.isLoading && <ReportSkeleton />}
      {data && (
        <div className="grid grid-cols-1 gap-6" aria-busy={report.isFetching} data-testid="report">
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-4">
            <StatCard
              label="Revenue"
              value={<span data-testid="report-revenue">{formatMoney(data.revenue.total)}</span>}
              hint="Cash received, net of refunds"
              icon={TrendingUp}
            />
            <StatCard
              label="Monthly Recurring Revenue"
              value={formatMoney(data.mrr)}
              hint="Active contracts, now"
              icon={Repeat}
            />
            <StatCard
              label="Active Contracts"
              value={data.statusCounts.active}
              hint={`${data.quickStats.activeCustomers} active customers`}
              icon={FileText}
            />
            <StatCard
              label="Collection Rate"
              value={data.quickStats.collectionRate === null ? '—' : `${data.quickStats.collectionRate.toFixed(1)}%`}
              hint={
                data.quickStats.dueInvoices === 0
                  ? 'No invoice has fallen due in this range yet'
                  : `${formatMoney(data.quickStats.dueCollected)} collected of ${formatMoney(data.quickStats.dueTotal)} due`
              }
              icon={Gauge}
            />
          </div>

          <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
            <Section title="Revenue by Month" icon={<BarChart3 />} className="lg:col-span-2">
              {revenueEmpty && (
                <p className="mb-2 text-sm text-muted-foreground">No payments received in this range yet.</p>
              )}
              {/* The chart library loads when the chart comes on screen (revenue-chart.tsx). */}
              <RevenueChart byMonth={data.revenue.byMonth} />
            </Section>
            <Section title="Contract Status" icon={<FileText />}>
              <StatusCounts counts={data.statusCounts} />
            </Section>
          </div>

          <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
            <Section title="Top Products" icon={<Package />}>
              <TopProducts products={data.topProducts} />
            </Section>
            <Section title="Alerts" icon={<AlertTriangle />}>
              <ReportAlerts alerts={data.alerts} user={user} />
              {managerLevel && (
                <div className="mt-5 border-t pt-4">
                  <h3 className="mb-2 text-sm font-semibold text-slate-900">Performance Alerts</h3>
                  <PerformanceAlerts alerts={performanceAlerts(data)} />
                </div>
              )}
            </Section>
            <Section title="Quick Stats" icon={<Wallet />}>
              <QuickStats stats={data.quickStats} />
            </Section>
          </div>

          <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
            <Section title="Delivery" icon={<Radio />}>
              <DeliveryStats delivery={data.delivery} />
            </Section>
            <Section title="Recent Activity" icon={<Activity />} className="lg:col-span-2">
              <RecentActivity events={data.recentActivity} />
            </Section>
          </div>

          <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
            <Section title="Renewals" icon={<RotateCw />} className="min-w-0 lg:col-span-2">
              <RenewalRate renewals={data.renewals} />
            </Section>
            <Section title="Autopay" icon={<CreditCard />}>
              <AutopayStats autopay={data.autopay} />
            </Section>
          </div>

          {/* Agency billing (decision 060): shown only when an invoice was billed to an agency in the range. */}
          <AgencyBilling agencies={data.agencies} />

          <Section title="Inventory Sell-Through" icon={<Layers />}>
            <InventorySellThrough rows={data.inventory ?? []} />
          </Section>
        </div>
      )}
    </>
  );
}

function ReportSkeleton() {
  return (
    <div className="grid gap-6" role="status" aria-busy="true" aria-label="Loading the report">
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        {Array.from({ length: 4 }, (_, i) => (
          <Skeleton key={i} className="h-28 rounded-xl" />
        ))}
      </div>
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
        <Card className="p-6 lg:col-span-2">
          <Skeleton className="h-64" />
        </Card>
        <Card className="p-6">
          <Skeleton className="h-64" />
        </Card>
      </div>
    </div>
  );
}
