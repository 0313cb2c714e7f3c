import { invoiceLineDetail, PAYMENT_METHOD_LABELS } from '@shared/contracts/invoice-vocabulary';
import type { Invoice, Payment } from '@shared/contracts/invoices';
import { Link } from 'wouter';
import { type Column, DataTable } from '@/components/ui/data-table';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { ErrorState, Skeleton } from '@/components/ui/feedback';
import { paths } from '@/lib/paths';
import { useInvoice } from '../api/get-invoice';
import { formatDate, formatMoney, periodLabel } from '../lib/format';
import { InvoiceStatusBadge } from './invoice-status-badge';
import { PdfButton } from './pdf-button';

type InvoiceLine = Invoice['lines'][number];

/** The invoice's lines as billed, in their order. */
const LINE_COLUMNS: Column<InvoiceLine>[] = [
  {
    id: 'description',
    header: 'Description',
    cell: (line) => (
      <>
        {line.description}
        {line.seasonal && <span className="ml-1 text-xs text-orange-700">(seasonal price)</span>}
        {invoiceLineDetail(line) && (
          <span className="block text-xs text-muted-foreground">{invoiceLineDetail(line)}</span>
        )}
      </>
    ),
  },
  { id: 'quantity', header: 'Qty', align: 'right', cell: (line) => line.quantity },
  {
    id: 'unit-price',
    header: 'Unit price',
    align: 'right',
    cellClassName: 'whitespace-nowrap',
    cell: (line) => formatMoney(line.unitPrice),
  },
  {
    id: 'discount',
    header: 'Discount',
    align: 'right',
    cellClassName: 'whitespace-nowrap',
    cell: (line) => (line.discount > 0 ? `-${formatMoney(line.discount)}` : '—'),
  },
  {
    id: 'amount',
    header: 'Amount',
    align: 'right',
    cellClassName: 'whitespace-nowrap',
    cell: (line) => formatMoney(line.amount),
  },
];

/** An invoice's lines, figures and payments. */
export function InvoiceDetailDialog({ invoiceId, onClose }: { invoiceId: string | null; onClose: () => void }) {
  const { data: invoice, isLoading, error } = useInvoice(invoiceId);
  return (
    <Dialog open={invoiceId !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-2xl">
        {isLoading && (
          <div className="grid gap-3" aria-busy="true">
            <DialogTitle className="sr-only">Loading invoice</DialogTitle>
            <Skeleton className="h-7 w-48" />
            <Skeleton className="h-40" />
          </div>
        )}
        {error && !invoice && (
          <>
            <DialogTitle className="sr-only">Invoice</DialogTitle>
            <ErrorState title="Could not load the invoice">Close and try again.</ErrorState>
          </>
        )}
        {invoice && (
          <>
            <DialogHeader>
              <DialogTitle className="flex flex-wrap items-center gap-2">
                {invoice.number} <InvoiceStatusBadge status={invoice.status} overdue={invoice.overdue} />
              </DialogTitle>
              <DialogDescription>
                {invoice.customerName ?? 'Unknown customer'} · {periodLabel(invoice.periodStart, invoice.periodEnd)} ·
                due {formatDate(invoice.dueDate)} ·{' '}
                <Link
                  href={paths.contract(invoice.contractId)}
                  className="font-medium text-primary hover:underline"
                  onClick={onClose}
                >
                  View contract
                </Link>
              </DialogDescription>
            </DialogHeader>
            <DataTable
              caption={`Lines of ${invoice.number}`}
              columns={LINE_COLUMNS}
              rows={invoice.lines}
              rowKey={(line) => line.id}
              density="compact"
            />
            <dl className="ml-auto grid w-full max-w-xs gap-1 text-sm">
              <Row label="Subtotal" value={formatMoney(invoice.subtotal)} />
              <Row
                label={`${invoice.taxLabel} (${invoice.taxRate}%${invoice.taxIncluded ? ', included' : ''})`}
                value={formatMoney(invoice.tax)}
              />
              <Row label="Total" value={formatMoney(invoice.total)} strong />
              <Row label="Paid" value={formatMoney(invoice.amountPaid)} />
              {invoice.refunded > 0 && <Row label="Refunded" value={formatMoney(invoice.refunded)} />}
              <Row label="Amount due" value={formatMoney(invoice.amountDue)} strong />
            </dl>
            {invoice.payments.length > 0 && (
              <section aria-label="Payments" className="grid gap-2">
                <h3 className="text-sm font-semibold text-slate-900">Payments</h3>
                <ul className="grid gap-1 text-sm">
                  {invoice.payments.map((payment) => (
                    <li
                      key={payment.id}
                      className="flex flex-wrap items-baseline justify-between gap-2 rounded-md bg-muted/50 px-3 py-2"
                    >
                      <span>
                        {formatDate(payment.paidAt)} · {paymentLabel(payment)}
                        {payment.reference && <span className="text-muted-foreground"> · {payment.reference}</span>}
                        {payment.status === 'failed' && (
                          <span className="text-destructive"> · failed: {payment.failureMessage ?? 'declined'}</span>
                        )}
                      </span>
                      <span className="tabular-nums">
                        {payment.kind === 'refund' ? '-' : ''}
                        {formatMoney(payment.amount)}
                      </span>
                    </li>
                  ))}
                </ul>
              </section>
            )}
            {invoice.voidReason && <p className="text-sm text-muted-foreground">Voided: {invoice.voidReason}</p>}
            <div className="flex justify-end">
              <PdfButton invoice={invoice} label="Download PDF" />
            </div>
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}

function paymentLabel(payment: Payment): string {
  const how =
    payment.method === 'card' && payment.cardLast4
      ? `${payment.cardBrand ? payment.cardBrand[0].toUpperCase() + payment.cardBrand.slice(1) : 'Card'} •••• ${payment.cardLast4}`
      : PAYMENT_METHOD_LABELS[payment.method];
  return payment.kind === 'refund' ? `Refund (${how})` : how;
}

function Row({ label, value, strong }: { label: string; value: string; strong?: boolean }) {
  return (
    <div className={`flex justify-between gap-4 ${strong ? 'font-semibold text-slate-900' : 'text-muted-foreground'}`}>
      <dt>{label}</dt>
      <dd className="tabular-nums">{value}</dd>
    </div>
  );
}
