import { AlertCircle, CalendarClock, CircleDollarSign, Wallet } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { ErrorState } from '@/components/ui/feedback';
import { formatMoney } from '@/lib/format';
import { paths } from '@/lib/paths';
import { useReceivablesOutlook } from '../api/get-receivables-outlook';
import { StatCard } from './stat-card';

/** A card that opens the list behind its figure. */
function Linked({ href, label, children }: { href: string; label: string; children: ReactNode }) {
  return (
    <Link
      href={href}
      aria-label={label}
      className="rounded-xl focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring [&>div]:h-full [&>div]:transition-colors [&>div]:hover:bg-muted/40"
    >
      {children}
    </Link>
  );
}

/**
 * Finance's cards on the Admin Dashboard: what customers owe (A/R) and how much of it is overdue, the cash
 * received this month (net of refunds), and what is expected in the next 30 days (open invoices due by then
 * and the next scheduled charges of active contracts, from the billing engine).
 */
export function FinanceCards() {
  const { data, isLoading, error } = useReceivablesOutlook();
  if (error) {
    return (
      <div className="mt-4">
        <ErrorState title="Could not load the cash figures">Reload the page to try again.</ErrorState>
      </div>
    );
  }
  return (
    <section aria-label="Cash and receivables" className="mt-4 grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
      <Linked href={paths.receivables} label="A/R: open Receivables">
        <StatCard
          label="A/R"
          value={<span data-testid="finance-ar">{formatMoney(data?.openBalance ?? 0)}</span>}
          hint="Open balance of all customers"
          icon={CircleDollarSign}
          loading={isLoading}
        />
      </Linked>
      <Linked href={`${paths.invoices}?overdue=true`} label="Overdue: open the overdue invoices">
        <StatCard
          label="Overdue"
          value={<span data-testid="finance-overdue">{formatMoney(data?.overdue ?? 0)}</span>}
          hint="Still due past the due date"
          icon={AlertCircle}
          loading={isLoading}
        />
      </Linked>
      <StatCard
        label="Cash this month"
        value={<span data-testid="finance-cash">{formatMoney(data?.cashThisMonth ?? 0)}</span>}
        hint="Payments received, net of refunds"
        icon={Wallet}
        loading={isLoading}
      />
      <StatCard
        label="Expected next 30 days"
        value={<span data-testid="finance-expected">{formatMoney(data?.expectedNext30Days ?? 0)}</span>}
        hint={
          data
            ? `${formatMoney(data.expectedFromInvoices)} open invoices · ${formatMoney(data.expectedFromSchedule)} scheduled`
            : 'Open invoices and scheduled charges'
        }
        icon={CalendarClock}
        loading={isLoading}
      />
    </section>
  );
}
