import type { User } from '@shared/contracts/auth';
import { PACING_ALERT_PERCENT } from '@shared/contracts/delivery-vocabulary';
import { CONTRACT_STATUSES_FOR_REPORTS } from '@shared/contracts/report-vocabulary';
import type { Report } from '@shared/contracts/reports';
import { can } from '@shared/permissions';
import { AlertTriangle, CalendarClock, CheckCircle2, CirclePause, Info, Receipt, Wallet } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { formatImpressions } from '@/lib/delivery-text';
import { formatMoney, formatTimeAgo } from '@/lib/format';
import { paths } from '@/lib/paths';
import { cn } from '@/lib/utils';
import type { PerformanceAlert } from './performance-alerts';

const STATUS_LABEL: Record<(typeof CONTRACT_STATUSES_FOR_REPORTS)[number], string> = {
  draft: 'Draft',
  sent: 'Sent',
  active: 'Active',
  paused: 'Paused',
  canceled: 'Canceled',
  completed: 'Completed',
};
const STATUS_DOT: Record<(typeof CONTRACT_STATUSES_FOR_REPORTS)[number], string> = {
  draft: 'bg-slate-400',
  sent: 'bg-sky-500',
  active: 'bg-emerald-500',
  paused: 'bg-amber-500',
  canceled: 'bg-red-500',
  completed: 'bg-indigo-500',
};

export function Section({
  title,
  icon,
  children,
  className,
}: {
  title: string;
  icon?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <Card className={className}>
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-base">
          {icon && <span className="text-muted-foreground [&_svg]:size-4">{icon}</span>}
          {title}
        </CardTitle>
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  );
}

/** Contracts by status now, each linking to the contract list filtered by that status. */
export function StatusCounts({ counts }: { counts: Report['statusCounts'] }) {
  const total = CONTRACT_STATUSES_FOR_REPORTS.reduce((sum, s) => sum + counts[s], 0);
  return (
    <ul className="grid gap-1" aria-label="Contracts by status">
      {CONTRACT_STATUSES_FOR_REPORTS.map((status) => (
        <li key={status}>
          <Link
            href={`${paths.contracts}?status=${status}`}
            className="flex items-center justify-between gap-3 rounded-md px-2 py-1.5 text-sm hover:bg-muted focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          >
            <span className="flex items-center gap-2">
              <span aria-hidden className={cn('size-2.5 rounded-full', STATUS_DOT[status])} />
              {STATUS_LABEL[status]}
            </span>
            <span className="font-semibold tabular-nums text-slate-900" data-testid={`status-count-${status}`}>
              {counts[status]}
            </span>
          </Link>
        </li>
      ))}
      <li className="mt-1 flex justify-between border-t px-2 pt-2 text-sm text-muted-foreground">
        <span>Total</span>
        <span className="tabular-nums">{total}</span>
      </li>
    </ul>
  );
}

export function TopProducts({ products }: { products: Report['topProducts'] }) {
  if (!products.length) {
    return <p className="py-6 text-center text-sm text-muted-foreground">No product invoiced in this range.</p>;
  }
  const best = products[0].revenue || 1;
  return (
    <ol className="grid grid-cols-1 gap-3" aria-label="Top products by billed revenue">
      {products.map((product, i) => (
        <li key={product.productId} className="grid min-w-0 grid-cols-1 gap-1">
          <div className="flex items-baseline justify-between gap-3 text-sm">
            <span className="min-w-0 truncate" title={product.name}>
              <span className="mr-2 text-muted-foreground tabular-nums">{i + 1}.</span>
              {product.name}
            </span>
            <span className="shrink-0 font-semibold tabular-nums text-slate-900">{formatMoney(product.revenue)}</span>
          </div>
          <div className="h-1.5 rounded-full bg-slate-100" aria-hidden>
            <div
              className="h-1.5 rounded-full bg-indigo-500"
              style={{ width: `${Math.max(2, Math.round((product.revenue / best) * 100))}%` }}
            />
          </div>
        </li>
      ))}
    </ol>
  );
}

/**
 * The alerts, each linking to the list that shows exactly the records it counts: overdue invoices (the invoice
 * list's overdue filter: unpaid and past due), contracts paused for non-payment (the contracts list's reason
 * filter), running contracts ending within 30 days (its expiring filter), payout requests pending review.
 */
export function ReportAlerts({ alerts, user }: { alerts: Report['alerts']; user: User }) {
  const rows: { label: string; count: number; href: string | null; icon: ReactNode; testId: string }[] = [
    {
      label: 'Overdue invoices',
      count: alerts.overdueInvoices,
      href: can(user, 'nav:invoices') ? `${paths.invoices}?overdue=true` : null,
      icon: <Receipt />,
      testId: 'alert-overdue',
    },
    {
      label: 'Contracts paused for non-payment',
      count: alerts.contractsPausedForNonPayment,
      href: `${paths.contracts}?reason=non_payment`,
      icon: <CirclePause />,
      testId: 'alert-paused-non-payment',
    },
    {
      label: 'Contracts expiring within 30 days',
      count: alerts.expiringContracts,
      href: `${paths.contracts}?expiring=30`,
      icon: <CalendarClock />,
      testId: 'alert-expiring',
    },
    {
      label: 'Payouts awaiting review',
      count: alerts.payoutsAwaitingReview,
      href: can(user, 'nav:payouts')
        ? `${paths.payouts}?status=pending`
        : can(user, 'nav:commissions')
          ? paths.commissions
          : null,
      icon: <Wallet />,
      testId: 'alert-payouts',
    },
  ];
  return (
    <ul className="grid gap-2">
      {rows.map((row) => {
        const content = (
          <>
            <span className="flex items-center gap-2 text-sm">
              <span
                className={cn('[&_svg]:size-4', row.count ? 'text-amber-600' : 'text-muted-foreground')}
                aria-hidden
              >
                {row.icon}
              </span>
              {row.label}
            </span>
            <span
              data-testid={row.testId}
              className={cn(
                'rounded-full px-2 py-0.5 text-xs font-semibold tabular-nums',
                row.count ? 'bg-amber-100 text-amber-800' : 'bg-slate-100 text-slate-600',
              )}
            >
              {row.count}
            </span>
          </>
        );
        const className =
          'flex items-center justify-between gap-3 rounded-md border px-3 py-2 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring';
        return (
          <li key={row.label}>
            {row.href ? (
              <Link href={row.href} className={cn(className, 'hover:bg-muted')}>
                {content}
              </Link>
            ) : (
              <div className={className}>{content}</div>
            )}
          </li>
        );
      })}
    </ul>
  );
}

export function PerformanceAlerts({ alerts }: { alerts: PerformanceAlert[] }) {
  if (!alerts.length) {
    return (
      <p className="flex items-center gap-2 text-sm text-emerald-700">
        <CheckCircle2 className="size-4" aria-hidden /> On track: nothing needs attention.
      </p>
    );
  }
  return (
    <ul className="grid gap-2" aria-label="Performance alerts">
      {alerts.map((alert) => (
        <li
          key={alert.text}
          className={cn(
            'flex items-start gap-2 rounded-md px-3 py-2 text-sm',
            alert.tone === 'warning' ? 'bg-amber-50 text-amber-900' : 'bg-sky-50 text-sky-900',
          )}
        >
          {alert.tone === 'warning' ? (
            <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-label="Warning" />
          ) : (
            <Info className="mt-0.5 size-4 shrink-0" aria-label="Note" />
          )}
          <span>{alert.text}</span>
        </li>
      ))}
    </ul>
  );
}

export function QuickStats({ stats }: { stats: Report['quickStats'] }) {
  const items: [string, string][] = [
    ['New contracts', String(stats.newContracts)],
    ['Average contract value', formatMoney(stats.averageContractValue)],
    ['Invoices issued', String(stats.invoicesIssued)],
    ['Billed', formatMoney(stats.billed)],
    ['Collection rate', stats.collectionRate === null ? '—' : `${stats.collectionRate.toFixed(1)}%`],
    ['Invoices fallen due', String(stats.dueInvoices)],
    ['Open balance', formatMoney(stats.openBalance)],
    ['Active customers', String(stats.activeCustomers)],
  ];
  return (
    <dl className="grid grid-cols-2 gap-x-4 gap-y-3 text-sm">
      {items.map(([label, value]) => (
        <div key={label} className="min-w-0">
          <dt className="text-muted-foreground">{label}</dt>
          <dd className="font-semibold tabular-nums text-slate-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * Proof of performance over the range (product.md section 12): the delivery rate of the CPM periods starting
 * in it, their impressions, and how under-delivery was settled in it (credit notes, makegood impressions).
 */
export function DeliveryStats({ delivery }: { delivery: Report['delivery'] }) {
  if (delivery.periodsRecorded === 0 && delivery.creditsIssued === 0 && delivery.makegoodImpressions === 0) {
    return (
      <p className="py-6 text-center text-sm text-muted-foreground" data-testid="delivery-empty">
        No delivery recorded for this range.
      </p>
    );
  }
  const rate = delivery.deliveryRate;
  const low = rate !== null && rate < PACING_ALERT_PERCENT;
  const items: { label: string; value: ReactNode; testId: string; wide?: boolean }[] = [
    {
      label: 'Impressions delivered',
      value: `${formatImpressions(delivery.deliveredImpressions)} of ${formatImpressions(delivery.bookedImpressions)}`,
      testId: 'delivery-impressions',
      wide: true,
    },
    { label: 'Periods recorded', value: String(delivery.periodsRecorded), testId: 'delivery-periods' },
    {
      label: 'Makegood impressions',
      value: formatImpressions(delivery.makegoodImpressions),
      testId: 'delivery-makegood',
    },
    {
      label: 'Under-delivery credits',
      value: (
        <span className="flex flex-wrap gap-x-1.5">
          <span>{delivery.creditsIssued}</span>
          <span aria-hidden className="text-muted-foreground">
            ·
          </span>
          <span>{formatMoney(delivery.creditsAmount)}</span>
        </span>
      ),
      testId: 'delivery-credits',
      wide: true,
    },
  ];
  return (
    <div className="grid gap-4">
      <div className="grid gap-1.5">
        <dl className="flex items-baseline justify-between gap-3 text-sm">
          <dt className="text-muted-foreground">Delivery rate</dt>
          <dd
            className={cn('text-lg font-semibold tabular-nums', low ? 'text-amber-700' : 'text-slate-900')}
            data-testid="delivery-rate"
          >
            {rate === null ? '—' : `${rate.toFixed(1)}%`}
          </dd>
        </dl>
        {rate !== null && (
          <div className="h-1.5 rounded-full bg-slate-100" aria-hidden>
            <div
              className={cn('h-1.5 rounded-full', low ? 'bg-amber-500' : 'bg-emerald-500')}
              style={{ width: `${Math.min(100, Math.max(rate > 0 ? 2 : 0, rate))}%` }}
            />
          </div>
        )}
      </div>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-3 text-sm">
        {items.map((item) => (
          <div key={item.label} className={cn('min-w-0', item.wide && 'col-span-2')}>
            <dt className="text-muted-foreground">{item.label}</dt>
            <dd className="break-words font-semibold tabular-nums text-slate-900" data-testid={item.testId}>
              {item.value}
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

const count = (n: number) => n.toLocaleString('en-US');

/**
 * Sell-through of each inventory product over the range (product.md section 13): slot-days booked and held
 * against capacity x days, for every contract whatever the scope (one stock the whole team sells from).
 */
export function InventorySellThrough({ rows }: { rows: Report['inventory'] }) {
  if (!rows.length) {
    return (
      <p className="py-6 text-center text-sm text-muted-foreground" data-testid="inventory-empty">
        No inventory products
      </p>
    );
  }
  return (
    <ul className="grid grid-cols-1 gap-x-8 gap-y-6 md:grid-cols-2 xl:grid-cols-3" aria-label="Sell-through by product">
      {rows.map((row) => {
        const share = (units: number) => (row.capacityUnits > 0 ? (units / row.capacityUnits) * 100 : 0);
        const booked = Math.min(100, share(row.bookedUnits));
        const held = Math.min(100 - booked, share(row.heldUnits));
        const items: [string, string, string?][] = [
          ['Capacity', `${count(row.capacity)} ${row.capacity === 1 ? 'slot' : 'slots'} a day`],
          ['Capacity slot-days', count(row.capacityUnits)],
          ['Booked slot-days', count(row.bookedUnits), 'bg-emerald-500'],
          ['Held slot-days', count(row.heldUnits), 'bg-sky-300'],
        ];
        return (
          <li key={row.productId} className="grid min-w-0 grid-cols-1 gap-2" data-testid="sell-through-row">
            <div className="flex items-baseline justify-between gap-3">
              <span className="min-w-0 break-words text-sm font-medium text-slate-900">{row.productName}</span>
              <span className="shrink-0 text-right text-sm">
                <span className="text-lg font-semibold tabular-nums text-slate-900" data-testid="sell-through">
                  {row.sellThrough.toFixed(1)}%
                </span>{' '}
                <span className="text-xs text-muted-foreground">sold</span>
              </span>
            </div>
            <div className="flex h-1.5 overflow-hidden rounded-full bg-slate-100" aria-hidden>
              <div className="h-full bg-emerald-500" style={{ width: `${booked}%` }} />
              <div className="h-full bg-sky-300" style={{ width: `${held}%` }} />
            </div>
            <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm">
              {items.map(([label, value, dot]) => (
                <div key={label} className="min-w-0">
                  <dt className="flex items-center gap-1.5 text-xs text-muted-foreground">
                    {dot && <span aria-hidden className={cn('size-2 shrink-0 rounded-full', dot)} />}
                    {label}
                  </dt>
                  <dd className="font-semibold tabular-nums text-slate-900">{value}</dd>
                </div>
              ))}
            </dl>
          </li>
        );
      })}
    </ul>
  );
}

export function RecentActivity({ events }: { events: Report['recentActivity'] }) {
  if (!events.length) return <p className="py-6 text-center text-sm text-muted-foreground">No activity yet.</p>;
  return (
    <ul className="divide-y">
      {events.map((event) => (
        <li key={event.id} className="flex items-start justify-between gap-3 py-2.5 text-sm">
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
  );
}
