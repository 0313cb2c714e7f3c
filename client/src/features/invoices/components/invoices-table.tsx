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
 * The Invoices screen's table: one row per invoice, with Record Payment and its actions menu. Fits a 1280 px
 * screen (the period under the number, the payment button an icon, below 1536 px); narrower, it scrolls inside
 * its frame with the number and the actions kept in view; on a phone each invoice is a card. The rows are a
 * page of the server's, in its order.
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
      role: 'identity',
      cellClassName: 'whitespace-nowrap',
      cell: (invoice) => (
        <>
          <button
            type="button"
            onClick={() => actions.onView(invoice)}
            className="rounded font-mono text-xs font-medium text-primary hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          >
            {invoice.number}
          </button>
          {/* Below 1536 px the period goes under the number rather than in a column of its own. */}
          <span className="block text-xs tabular-nums text-muted-foreground 2xl:hidden">
            {periodLabel(invoice.periodStart, invoice.periodEnd)}
          </span>
        </>
      ),
    },
    {
      id: 'customer',
      header: 'Customer',
      cell: (invoice) => {
        const name = invoice.customerName ?? 'Unknown Customer';
        return (
          <Link
            href={paths.contract(invoice.contractId)}
            className="block max-w-[12rem] truncate hover:underline 2xl:max-w-[16rem]"
            title={`${name}: view the contract`}
          >
            {name}
          </Link>
        );
      },
    },
    {
      id: 'period',
      header: 'Period',
      className: 'hidden 2xl:table-cell',
      hideOnCard: true,
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
      role: 'amount',
      align: 'right',
      className: 'whitespace-nowrap',
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
              title="Record Payment"
            >
              {/* The label shows where there is room (and on a phone's card); the icon alone elsewhere. */}
              <HandCoins aria-hidden /> <span className="sm:hidden 2xl:inline">Record Payment</span>
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
