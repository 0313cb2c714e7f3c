import type { InvoiceSummary } from '@shared/contracts/invoices';
import { isPayable, isVoidable } from '@shared/invoice-amounts';
import { Ban, Download, Eye, HandCoins, MoreHorizontal } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { Button } from '@/components/ui/button';
import { type Column, DataTable } from '@/components/ui/data-table';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { paths } from '@/lib/paths';
import { useDownloadInvoicePdf } from '../api/download-invoice-pdf';
import { formatDate, formatMoney, periodLabel } from '../lib/format';
import { invoiceStatusColumn } from './invoice-status-column';

export type InvoiceActions = {
  onView: (invoice: InvoiceSummary) => void;
  /** Present for callers who may record payments and void (invoice:manage). */
  onRecordPayment?: (invoice: InvoiceSummary) => void;
  onVoid?: (invoice: InvoiceSummary) => void;
};

/**
 * The Invoices screen's table: one row per invoice, with its actions menu. Scrolls inside its own frame on
 * narrow screens. The rows are a page of the server's, in its order.
 */
export function InvoicesTable({
  rows,
  loading,
  busy,
  empty,
  actions,
}: {
  rows: InvoiceSummary[];
  loading: boolean;
  busy: boolean;
  empty: ReactNode;
  actions: InvoiceActions;
}) {
  const columns: Column<InvoiceSummary>[] = [
    {
      id: 'invoice',
      header: 'Invoice',
      cellClassName: 'whitespace-nowrap',
      cell: (invoice) => (
        <button
          type="button"
          onClick={() => actions.onView(invoice)}
          className="rounded font-mono text-xs font-medium text-primary hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          {invoice.number}
        </button>
      ),
    },
    {
      id: 'customer',
      header: 'Customer',
      cellClassName: 'min-w-[10rem]',
      cell: (invoice) => (
        <Link href={paths.contract(invoice.contractId)} className="hover:underline" title="View the contract">
          {invoice.customerName ?? 'Unknown Customer'}
        </Link>
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
      cellClassName: (invoice) =>
        `whitespace-nowrap tabular-nums ${invoice.overdue ? 'font-medium text-destructive' : ''}`,
      cell: (invoice) => formatDate(invoice.dueDate),
    },
    {
      id: 'total',
      header: 'Total',
      align: 'right',
      cellClassName: 'whitespace-nowrap',
      cell: (invoice) => formatMoney(invoice.total),
    },
    {
      id: 'due-amount',
      header: 'Amount due',
      align: 'right',
      cellClassName: 'whitespace-nowrap',
      cell: (invoice) => formatMoney(invoice.amountDue),
    },
    invoiceStatusColumn,
    {
      id: 'actions',
      header: 'Actions',
      hideHeader: true,
      align: 'right',
      cellClassName: 'whitespace-nowrap py-2',
      cell: (invoice) => (
        <span className="inline-flex items-center gap-1">
          {isPayable(invoice.status) && actions.onRecordPayment && (
            <Button
              size="sm"
              variant="outline"
              onClick={() => actions.onRecordPayment?.(invoice)}
              aria-label={`Record payment for ${invoice.number}`}
            >
              <HandCoins aria-hidden /> Record Payment
            </Button>
          )}
          <RowMenu invoice={invoice} actions={actions} />
        </span>
      ),
    },
  ];
  return (
    <DataTable
      caption="Invoices"
      columns={columns}
      rows={rows}
      rowKey={(invoice) => invoice.id}
      rowProps={(invoice) => ({ 'data-testid': 'invoice-row', 'data-invoice-number': invoice.number })}
      loading={loading}
      loadingRows={6}
      busy={busy}
      empty={empty}
      frame="card"
      density="snug"
      className="min-w-[52rem]"
    />
  );
}

function RowMenu({ invoice, actions }: { invoice: InvoiceSummary; actions: InvoiceActions }) {
  const download = useDownloadInvoicePdf();
  const voidable = isVoidable(invoice.status) && actions.onVoid;
  return (
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" aria-label={`Actions for ${invoice.number}`}>
          <MoreHorizontal aria-hidden />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent>
        <DropdownMenuItem onSelect={() => actions.onView(invoice)}>
          <Eye aria-hidden /> View Invoice
        </DropdownMenuItem>
        <DropdownMenuItem disabled={download.isPending} onSelect={() => download.mutate(invoice)}>
          <Download aria-hidden /> Download PDF
        </DropdownMenuItem>
        {voidable && (
          <>
            <DropdownMenuSeparator />
            <DropdownMenuItem
              className="text-destructive data-[highlighted]:bg-red-50 data-[highlighted]:text-destructive"
              onSelect={() => actions.onVoid?.(invoice)}
            >
              <Ban aria-hidden /> {invoice.amountPaid > 0 ? 'Void and Refund' : 'Void Invoice'}
            </DropdownMenuItem>
          </>
        )}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
