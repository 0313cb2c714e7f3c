import type { InvoiceSummary } from '@shared/contracts/invoices';
import { Ban, Download, Eye, HandCoins, MoreHorizontal } from 'lucide-react';
import { Link } from 'wouter';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { Skeleton } from '@/components/ui/feedback';
import { paths } from '@/lib/paths';
import { useDownloadInvoicePdf } from '../api/download-invoice-pdf';
import { formatDate, formatMoney, periodLabel } from '../lib/format';
import { InvoiceStatusBadge } from './invoice-status-badge';

const HEADERS: [string, string?][] = [
  ['Invoice'],
  ['Customer'],
  ['Period'],
  ['Due'],
  ['Total', 'text-right'],
  ['Amount due', 'text-right'],
  ['Status'],
];

export type InvoiceActions = {
  onView: (invoice: InvoiceSummary) => void;
  /** Present for callers who may record payments and void (invoice:manage). */
  onRecordPayment?: (invoice: InvoiceSummary) => void;
  onVoid?: (invoice: InvoiceSummary) => void;
};

/** The Invoices screen's table: one row per invoice, with its actions menu. Scrolls inside its own box. */
export function InvoicesTable({
  rows,
  loading,
  busy,
  actions,
}: {
  rows: InvoiceSummary[];
  loading: boolean;
  busy: boolean;
  actions: InvoiceActions;
}) {
  return (
    <div className="relative overflow-x-auto rounded-xl border bg-white shadow-sm">
      <table className="w-full min-w-[52rem] text-sm" aria-busy={busy || loading}>
        <caption className="sr-only">Invoices</caption>
        <thead className="bg-muted/60 text-left text-xs uppercase tracking-wide text-muted-foreground">
          <tr>
            {HEADERS.map(([header, align]) => (
              <th key={header} scope="col" className={`whitespace-nowrap px-3 py-3 font-medium ${align ?? ''}`}>
                {header}
              </th>
            ))}
            <th scope="col" className="px-3 py-3 text-right font-medium">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className={busy ? 'opacity-70 transition-opacity' : undefined}>
          {loading
            ? Array.from({ length: 6 }, (_, i) => (
                <tr key={i} className="border-t">
                  {Array.from({ length: 8 }, (__, j) => (
                    <td key={j} className="px-3 py-3">
                      <Skeleton className="h-4 w-20" />
                    </td>
                  ))}
                </tr>
              ))
            : rows.map((invoice) => <InvoiceRow key={invoice.id} invoice={invoice} actions={actions} />)}
        </tbody>
      </table>
    </div>
  );
}

function InvoiceRow({ invoice, actions }: { invoice: InvoiceSummary; actions: InvoiceActions }) {
  const open = invoice.status === 'pending' || invoice.status === 'failed';
  return (
    <tr className="border-t align-top hover:bg-muted/40" data-testid="invoice-row" data-invoice-number={invoice.number}>
      <td className="whitespace-nowrap px-3 py-3">
        <button
          type="button"
          onClick={() => actions.onView(invoice)}
          className="rounded font-mono text-xs font-medium text-primary hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          {invoice.number}
        </button>
      </td>
      <td className="min-w-[10rem] px-3 py-3">
        <Link href={paths.contract(invoice.contractId)} className="hover:underline" title="View the contract">
          {invoice.customerName ?? 'Unknown Customer'}
        </Link>
      </td>
      <td className="whitespace-nowrap px-3 py-3 tabular-nums">
        {periodLabel(invoice.periodStart, invoice.periodEnd)}
      </td>
      <td
        className={`whitespace-nowrap px-3 py-3 tabular-nums ${invoice.overdue ? 'font-medium text-destructive' : ''}`}
      >
        {formatDate(invoice.dueDate)}
      </td>
      <td className="whitespace-nowrap px-3 py-3 text-right tabular-nums">{formatMoney(invoice.total)}</td>
      <td className="whitespace-nowrap px-3 py-3 text-right tabular-nums">{formatMoney(invoice.amountDue)}</td>
      <td className="px-3 py-3">
        <InvoiceStatusBadge status={invoice.status} overdue={invoice.overdue} />
      </td>
      <td className="whitespace-nowrap px-3 py-2 text-right">
        <span className="inline-flex items-center gap-1">
          {open && actions.onRecordPayment && (
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
      </td>
    </tr>
  );
}

function RowMenu({ invoice, actions }: { invoice: InvoiceSummary; actions: InvoiceActions }) {
  const download = useDownloadInvoicePdf();
  const voidable = invoice.status !== 'void' && actions.onVoid;
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
