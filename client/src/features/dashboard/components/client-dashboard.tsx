import type { User } from '@shared/contracts/auth';
import type { ClientSummary } from '@shared/contracts/client-portal';
import { contractStatusBadge, shortContractId } from '@shared/contracts/contract-vocabulary';
import { invoiceStatusBadge } from '@shared/contracts/invoice-vocabulary';
import type { InvoiceSummary } from '@shared/contracts/invoices';
import { showsAmountDue } from '@shared/invoice-amounts';
import { ArrowRight, CalendarClock, FileText, Receipt, ShieldCheck, Wallet } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { BADGE_TONES } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/feedback';
import { PageHeader } from '@/components/ui/page-header';
import { formatDate, formatMoney } from '@/lib/format';
import { paths } from '@/lib/paths';
import { cn } from '@/lib/utils';
import { useClientContracts } from '../api/get-client-contracts';
import { useClientInvoices } from '../api/get-client-invoices';
import { useClientSummary } from '../api/get-client-summary';
import { StatCard } from './stat-card';

/**
 * The Client Portal view of the dashboard (ui-spec section 2), every figure computed on the server from the
 * client's own records: Active Contracts, Outstanding Balance (what is still due on pending invoices), the
 * next payment, Account Status; the first 5 contracts and the first 5 invoices, each invoice with the
 * actions the page gives it (Pay Now for pending ones, the PDF).
 */
export function ClientDashboard({
  user,
  invoiceActions,
  alerts,
}: {
  user: User;
  invoiceActions?: (invoice: InvoiceSummary) => ReactNode;
  /** What the client is behind on (overdue invoices with Pay Now, contracts paused for non-payment), above the cards. */
  alerts?: (summary: ClientSummary) => ReactNode;
}) {
  const summary = useClientSummary();
  const contracts = useClientContracts();
  const invoices = useClientInvoices();
  const contractRows = contracts.data?.rows ?? [];
  const invoiceRows = invoices.data?.rows ?? [];
  const next = summary.data?.nextPayment;
  const figure = (value: (data: NonNullable<typeof summary.data>) => ReactNode) =>
    summary.data ? value(summary.data) : summary.error ? '—' : null;

  return (
    <>
      <PageHeader
        title={`Welcome, ${user.firstName}!`}
        description="Your advertising contracts with us."
        actions={
          <Button variant="outline" asChild>
            <Link href={paths.portal}>
              Open Client Portal <ArrowRight aria-hidden />
            </Link>
          </Button>
        }
      />
      {summary.data && alerts?.(summary.data)}
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <StatCard
          label="Active Contracts"
          value={figure((d) => d.activeContracts)}
          icon={FileText}
          loading={summary.isLoading}
        />
        <StatCard
          label="Outstanding Balance"
          value={figure((d) => formatMoney(d.outstandingBalance))}
          hint={
            summary.data
              ? `${summary.data.pendingInvoices} pending invoice${summary.data.pendingInvoices === 1 ? '' : 's'}`
              : undefined
          }
          icon={Wallet}
          loading={summary.isLoading}
        />
        <StatCard
          label="Next Payment"
          value={figure(() => (next ? formatMoney(next.amount) : 'None due'))}
          hint={
            next ? `${next.source === 'invoice' ? 'Due' : 'Scheduled, due'} ${formatDate(next.dueDate)}` : undefined
          }
          icon={CalendarClock}
          loading={summary.isLoading}
        />
        <StatCard label="Account Status" value="Active" icon={ShieldCheck} />
      </div>

      <div className="mt-6 grid grid-cols-1 gap-6 xl:grid-cols-2">
        <Card className="min-w-0">
          <CardHeader>
            <CardTitle>My Contracts</CardTitle>
          </CardHeader>
          <CardContent>
            {contracts.isLoading ? (
              <Skeleton className="h-24" />
            ) : contractRows.length ? (
              <ul className="divide-y" aria-label="My contracts">
                {contractRows.slice(0, 5).map((contract) => {
                  const badge = contractStatusBadge(contract.status);
                  // A sent contract whose newest insertion order waits for the client's signature (product.md section 15).
                  const toSign = contract.status === 'sent' && contract.insertionOrder?.status === 'sent';
                  return (
                    <li key={contract.id} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 py-3">
                      <Link
                        href={paths.portalContract(contract.id)}
                        className="min-w-0 truncate rounded-sm font-medium text-primary hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                      >
                        {contract.title || `Contract #${shortContractId(contract.id, 6)}`}
                      </Link>
                      <span className="ml-auto flex items-center gap-3">
                        <span className="tabular-nums">{formatMoney(contract.totalAmount)}</span>
                        <Pill className={BADGE_TONES[badge.tone]}>{badge.label}</Pill>
                        {toSign && <Pill className={BADGE_TONES.indigo}>To sign</Pill>}
                      </span>
                    </li>
                  );
                })}
              </ul>
            ) : (
              <Empty icon={<FileText aria-hidden />}>No contracts available</Empty>
            )}
          </CardContent>
        </Card>

        <Card className="min-w-0">
          <CardHeader>
            <CardTitle>Recent Invoices</CardTitle>
          </CardHeader>
          <CardContent>
            {invoices.isLoading ? (
              <Skeleton className="h-24" />
            ) : invoiceRows.length ? (
              <ul className="divide-y" aria-label="Recent invoices">
                {invoiceRows.slice(0, 5).map((invoice) => {
                  const badge = invoiceStatusBadge(invoice.status, invoice.overdue && invoice.status === 'pending');
                  return (
                    <li
                      key={invoice.id}
                      className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 py-3"
                      data-testid="dashboard-invoice"
                    >
                      <span className="min-w-0">
                        <span className="block font-medium text-slate-900">Invoice #{invoice.id.slice(-6)}</span>
                        <span className="block text-xs text-muted-foreground">Due {formatDate(invoice.dueDate)}</span>
                      </span>
                      <span className="ml-auto flex flex-wrap items-center justify-end gap-x-3 gap-y-2">
                        <span className="text-right tabular-nums">
                          {formatMoney(invoice.amount)}
                          {showsAmountDue(invoice) && (
                            <span className="block text-xs text-muted-foreground">
                              {formatMoney(invoice.amountDue)} due
                            </span>
                          )}
                        </span>
                        <Pill className={BADGE_TONES[badge.tone]}>{badge.label}</Pill>
                        {invoiceActions?.(invoice)}
                      </span>
                    </li>
                  );
                })}
              </ul>
            ) : (
              <Empty icon={<Receipt aria-hidden />}>No invoices available</Empty>
            )}
          </CardContent>
        </Card>
      </div>
    </>
  );
}

function Pill({ className, children }: { className: string; children: ReactNode }) {
  return (
    <span className={cn('whitespace-nowrap rounded-full border px-2.5 py-0.5 text-xs font-medium', className)}>
      {children}
    </span>
  );
}

function Empty({ icon, children }: { icon: ReactNode; children: ReactNode }) {
  return (
    <p className="flex flex-col items-center gap-2 py-6 text-center text-sm text-muted-foreground [&_svg]:size-8">
      {icon}
      {children}
    </p>
  );
}
