import { Receipt } from 'lucide-react';
import { useState } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState, ErrorState, Skeleton } from '@/components/ui/feedback';
import { Pagination } from '@/components/ui/pagination';
import { useInvoices } from '../api/get-invoices';
import { formatDate, formatMoney, periodLabel } from '../lib/format';
import { InvoiceDetailDialog } from './invoice-detail-dialog';
import { InvoiceStatusBadge } from './invoice-status-badge';
import { PdfButton } from './pdf-button';

const PAGE_SIZE = 12;

/**
 * The invoices of one contract or one customer, newest period first: number, period, due date, total,
 * status and the PDF. The number opens the invoice with its lines and payments.
 */
export function InvoiceHistory({
  contractId,
  customerId,
  title = 'Invoices',
}: {
  contractId?: string;
  customerId?: string;
  title?: string;
}) {
  const [page, setPage] = useState(0);
  const [viewing, setViewing] = useState<string | null>(null);
  const { data, isLoading, isFetching, error } = useInvoices({ contractId, customerId, page, pageSize: PAGE_SIZE });
  const pages = data ? Math.max(1, Math.ceil(data.total / PAGE_SIZE)) : 1;

  return (
    <Card data-testid="invoice-history" className="min-w-0">
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <CardDescription aria-live="polite">
          {data
            ? data.total === 0
              ? 'No invoices issued yet'
              : `${data.total} invoice${data.total === 1 ? '' : 's'}`
            : '\u00a0'}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {isLoading && <Skeleton className="h-32 rounded-lg" />}
        {error && !data && <ErrorState title="Could not load the invoices">Reload the page to try again.</ErrorState>}
        {data && data.rows.length === 0 && (
          <EmptyState icon={<Receipt />} title="No invoices yet">
            Invoices are issued at the start of each billing period while the contract is active.
          </EmptyState>
        )}
        {data && data.rows.length > 0 && (
          <div
            className={`relative overflow-x-auto rounded-lg border ${isFetching ? 'opacity-70' : ''}`}
            aria-busy={isFetching}
          >
            <table className="w-full min-w-[40rem] text-sm">
              <caption className="sr-only">{title}</caption>
              <thead className="bg-muted/60 text-left text-xs uppercase tracking-wide text-muted-foreground">
                <tr>
                  <th scope="col" className="px-4 py-3 font-medium">
                    Invoice
                  </th>
                  <th scope="col" className="px-4 py-3 font-medium">
                    Period
                  </th>
                  <th scope="col" className="px-4 py-3 font-medium">
                    Due
                  </th>
                  <th scope="col" className="px-4 py-3 text-right font-medium">
                    Total
                  </th>
                  <th scope="col" className="px-4 py-3 font-medium">
                    Status
                  </th>
                  <th scope="col" className="px-4 py-3 text-right font-medium">
                    <span className="sr-only">PDF</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.rows.map((invoice) => (
                  <tr key={invoice.id} className="border-t hover:bg-muted/40" data-testid="invoice-history-row">
                    <td className="whitespace-nowrap px-4 py-3">
                      <button
                        type="button"
                        onClick={() => setViewing(invoice.id)}
                        className="rounded font-mono text-xs font-medium text-primary hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                      >
                        {invoice.number}
                      </button>
                    </td>
                    <td className="whitespace-nowrap px-4 py-3 tabular-nums">
                      {periodLabel(invoice.periodStart, invoice.periodEnd)}
                    </td>
                    <td className="whitespace-nowrap px-4 py-3 tabular-nums">{formatDate(invoice.dueDate)}</td>
                    <td className="whitespace-nowrap px-4 py-3 text-right tabular-nums">
                      {formatMoney(invoice.total)}
                    </td>
                    <td className="px-4 py-3">
                      <InvoiceStatusBadge status={invoice.status} overdue={invoice.overdue} />
                    </td>
                    <td className="px-4 py-2 text-right">
                      <PdfButton invoice={invoice} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Pagination page={page} pages={pages} onPageChange={setPage} className="mt-4" />
      </CardContent>
      <InvoiceDetailDialog invoiceId={viewing} onClose={() => setViewing(null)} />
    </Card>
  );
}
