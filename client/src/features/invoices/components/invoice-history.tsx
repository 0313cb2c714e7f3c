import type { InvoiceSummary } from '@shared/contracts/invoices';
import { Receipt } from 'lucide-react';
import { useState } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { type Column, DataTable } from '@/components/ui/data-table';
import { EmptyState, ErrorState } from '@/components/ui/feedback';
import { lazyWhen } from '@/components/ui/lazy-when';
import { Pagination } from '@/components/ui/pagination';
import { useInvoices } from '../api/get-invoices';
import { formatDate, formatMoney, periodLabel } from '../lib/format';
import { invoiceStatusColumn } from './invoice-status-column';
import { PdfButton } from './pdf-button';

// The invoice view loads the first time it opens (docs/decisions/017-performance.md).
const InvoiceDetailDialog = lazyWhen(
  () => import('./invoice-detail-dialog').then((module) => module.InvoiceDetailDialog),
  (props) => props.invoiceId !== null,
);

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
  // A page of the server's, newest period first.
  const columns: Column<InvoiceSummary>[] = [
    {
      id: 'invoice',
      header: 'Invoice',
      cellClassName: 'whitespace-nowrap',
      cell: (invoice) => (
        <button
          type="button"
          onClick={() => setViewing(invoice.id)}
          className="rounded font-mono text-xs font-medium text-primary hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          {invoice.number}
        </button>
      ),
    },
    {
      id: 'period',
      header: 'Period',
      cellClassName: 'whitespace-nowrap tabular-nums',
      cell: (invoice) => periodLabel(invoice.periodStart, invoice.periodEnd),
    },
    {
      id: 'due',
      header: 'Due',
      cellClassName: 'whitespace-nowrap tabular-nums',
      cell: (invoice) => formatDate(invoice.dueDate),
    },
    {
      id: 'total',
      header: 'Total',
      align: 'right',
      cellClassName: 'whitespace-nowrap',
      cell: (invoice) => formatMoney(invoice.total),
    },
    invoiceStatusColumn,
    {
      id: 'pdf',
      header: 'PDF',
      hideHeader: true,
      align: 'right',
      cellClassName: 'py-2',
      cell: (invoice) => <PdfButton invoice={invoice} />,
    },
  ];

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
        {error && !data ? (
          <ErrorState title="Could not load the invoices">Reload the page to try again.</ErrorState>
        ) : (
          <DataTable
            caption={title}
            columns={columns}
            rows={data?.rows ?? []}
            rowKey={(invoice) => invoice.id}
            rowProps={() => ({ 'data-testid': 'invoice-history-row' })}
            loading={!data}
            loadingRows={3}
            busy={isFetching && !isLoading}
            className="min-w-[40rem]"
            empty={
              <EmptyState icon={<Receipt />} title="No invoices yet">
                Invoices are issued at the start of each billing period while the contract is active.
              </EmptyState>
            }
          />
        )}
        <Pagination page={page} pages={pages} onPageChange={setPage} className="mt-4" />
      </CardContent>
      <InvoiceDetailDialog invoiceId={viewing} onClose={() => setViewing(null)} />
    </Card>
  );
}
