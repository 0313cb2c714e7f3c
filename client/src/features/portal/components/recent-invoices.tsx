import { invoiceStatusBadge } from '@shared/contracts/invoice-vocabulary';
import type { InvoiceSummary } from '@shared/contracts/invoices';
import { Receipt } from 'lucide-react';
import type { ReactNode } from 'react';
import { BADGE_TONES } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { type Column, DataTable } from '@/components/ui/data-table';
import { ErrorState } from '@/components/ui/feedback';
import { formatDate, formatMoney } from '@/lib/format';
import { cn } from '@/lib/utils';
import { useRecentClientInvoices } from '../api/get-client-invoices';

/**
 * The client's five newest invoices: number, period, due date, amount and status, with the actions the page
 * gives each row (Pay Now for pending ones, the PDF). Empty text as ui-spec says: "No invoices available".
 */
export function RecentInvoices({ actions }: { actions?: (invoice: InvoiceSummary) => ReactNode }) {
  const { data, error } = useRecentClientInvoices();
  const rows = data?.rows ?? [];
  // The newest five, newest first: a part of the list, so the headers do not sort.
  const columns: Column<InvoiceSummary>[] = [
    {
      id: 'invoice',
      header: 'Invoice',
      rowHeader: true,
      cellClassName: 'whitespace-nowrap',
      cell: (invoice) => (
        <>
          {invoice.number}
          <span className="block text-xs font-normal text-muted-foreground">
            {formatDate(invoice.periodStart)} – {formatDate(invoice.periodEnd)}
          </span>
        </>
      ),
    },
    { id: 'due', header: 'Due', cellClassName: 'whitespace-nowrap', cell: (invoice) => formatDate(invoice.dueDate) },
    {
      id: 'amount',
      header: 'Amount',
      role: 'amount',
      align: 'right',
      cellClassName: 'font-medium',
      cell: (invoice) => (
        <>
          {formatMoney(invoice.amount)}
          {invoice.amountPaid > 0 && invoice.status === 'pending' && (
            <span className="block text-xs font-normal text-muted-foreground">
              {formatMoney(invoice.amountDue)} due
            </span>
          )}
        </>
      ),
    },
    {
      id: 'status',
      header: 'Status',
      cell: (invoice) => {
        const badge = invoiceStatusBadge(invoice.status, invoice.overdue && invoice.status === 'pending');
        return (
          <span
            className={cn(
              'whitespace-nowrap rounded-full border px-2.5 py-0.5 text-xs font-medium',
              BADGE_TONES[badge.tone],
            )}
          >
            {badge.label}
          </span>
        );
      },
    },
    {
      id: 'actions',
      header: 'Actions',
      hideHeader: true,
      cell: (invoice) => <div className="flex justify-end gap-2">{actions?.(invoice)}</div>,
    },
  ];
  return (
    <Card className="min-w-0">
      <CardHeader>
        <CardTitle>Recent Invoices</CardTitle>
        <CardDescription>
          {data && data.total > rows.length ? `The newest ${rows.length} of ${data.total}` : 'Your newest invoices'}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {error && !data ? (
          <ErrorState title="Could not load your invoices">Reload the page to try again.</ErrorState>
        ) : (
          <DataTable
            caption="Recent invoices"
            columns={columns}
            rows={rows}
            rowKey={(invoice) => invoice.id}
            rowProps={() => ({ 'data-testid': 'client-invoice' })}
            loading={!data}
            loadingRows={3}
            className="min-w-[40rem]"
            empty={
              <p className="flex flex-col items-center gap-2 py-8 text-center text-sm text-muted-foreground">
                <Receipt className="size-8" aria-hidden />
                No invoices available
              </p>
            }
          />
        )}
      </CardContent>
    </Card>
  );
}
