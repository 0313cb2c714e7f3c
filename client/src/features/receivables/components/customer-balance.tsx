import { invoiceStatusBadge } from '@shared/contracts/invoice-vocabulary';
import type { OpenInvoice } from '@shared/contracts/receivables-vocabulary';
import { CircleDollarSign } from 'lucide-react';
import type { ReactNode } from 'react';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { type Column, DataTable } from '@/components/ui/data-table';
import { ErrorState, Skeleton } from '@/components/ui/feedback';
import { formatDate, formatMoney } from '@/lib/format';
import { useCustomerReceivable } from '../api/get-customer-receivable';
import { daysLate } from '../lib/days-late';

/**
 * A customer's balance on its page: what it owes (and how much is overdue), the credit it holds, its last
 * payment, and its open invoices, oldest due first. `onOpenInvoice` opens an invoice (the page shows it).
 */
export function CustomerBalance({
  customerId,
  onOpenInvoice,
}: {
  customerId: string;
  onOpenInvoice: (invoiceId: string) => void;
}) {
  const { data, isLoading, error } = useCustomerReceivable(customerId);

  const columns: Column<OpenInvoice>[] = [
    {
      id: 'number',
      header: 'Invoice',
      rowHeader: true,
      cellClassName: 'whitespace-nowrap',
      cell: (invoice) => (
        <button
          type="button"
          onClick={() => onOpenInvoice(invoice.id)}
          className="rounded font-mono text-xs font-medium text-primary hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          aria-label={`Open invoice ${invoice.number}`}
        >
          {invoice.number}
        </button>
      ),
    },
    {
      id: 'due',
      header: 'Due',
      cellClassName: 'whitespace-nowrap tabular-nums',
      cell: (invoice) => (
        <>
          {formatDate(invoice.dueDate)}
          {invoice.overdue && <span className="block text-xs text-red-700">{daysLate(invoice.daysPastDue)}</span>}
        </>
      ),
    },
    {
      id: 'amount-due',
      header: 'Amount due',
      align: 'right',
      cellClassName: 'whitespace-nowrap font-medium',
      cell: (invoice) => (
        <>
          {formatMoney(invoice.amountDue)}
          {invoice.amountDue !== invoice.total && (
            <span className="block text-xs font-normal text-muted-foreground">of {formatMoney(invoice.total)}</span>
          )}
        </>
      ),
    },
    {
      id: 'status',
      header: 'Status',
      cell: (invoice) => {
        const badge = invoiceStatusBadge(invoice.status, invoice.overdue);
        return (
          <Badge tone={badge.tone} className="whitespace-nowrap">
            {badge.label}
          </Badge>
        );
      },
    },
  ];

  const figure = (label: string, value: ReactNode, testId: string, tone?: string) => (
    <div className="rounded-lg border bg-slate-50 px-3 py-2">
      <dt className="text-xs font-medium text-muted-foreground">{label}</dt>
      <dd className={`text-lg font-semibold tabular-nums ${tone ?? 'text-slate-900'}`} data-testid={testId}>
        {value}
      </dd>
    </div>
  );

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <CircleDollarSign className="size-4 text-muted-foreground" aria-hidden /> Balance
        </CardTitle>
        <CardDescription>What this customer owes, the credit it holds and its open invoices.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {isLoading && <Skeleton className="h-40" />}
        {error && <ErrorState title="Could not load the balance">Reload the page to try again.</ErrorState>}
        {data && (
          <>
            <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
              {figure('Open balance', formatMoney(data.openBalance), 'customer-open-balance')}
              {figure(
                'Overdue',
                formatMoney(data.overdue),
                'customer-overdue',
                data.overdue > 0 ? 'text-red-700' : undefined,
              )}
              {figure('Credit', formatMoney(data.creditBalance), 'customer-credit-balance')}
              {figure(
                'Last payment',
                data.lastPaymentAmount === null ? (
                  <span className="text-sm font-normal text-muted-foreground">None yet</span>
                ) : (
                  <>
                    {formatMoney(data.lastPaymentAmount)}
                    <span className="block text-xs font-normal text-muted-foreground">
                      {formatDate(data.lastPaymentDate)}
                    </span>
                  </>
                ),
                'customer-last-payment',
              )}
            </dl>
            <DataTable
              caption="Open invoices"
              columns={columns}
              rows={data.openInvoices}
              rowKey={(invoice) => invoice.id}
              rowProps={() => ({ 'data-testid': 'open-invoice-row' })}
              density="compact"
              frame="inset"
              sortable={false}
              phone="cards"
              empty={<p className="py-4 text-center text-sm text-muted-foreground">No open invoices.</p>}
            />
            {data.openInvoiceCount > data.openInvoices.length && (
              <p className="text-xs text-muted-foreground">
                The {data.openInvoices.length} oldest of {data.openInvoiceCount} open invoices.
              </p>
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}
