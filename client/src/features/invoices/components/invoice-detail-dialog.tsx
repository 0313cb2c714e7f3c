import { type DocumentExport, documentExportLabel } from '@shared/contracts/accounting-formats';
import type { CreditNote } from '@shared/contracts/credit-notes';
import { formatMonth, pacingText } from '@shared/contracts/delivery-vocabulary';
import { invoiceLineDetail, PAYMENT_METHOD_LABELS } from '@shared/contracts/invoice-vocabulary';
import type { Invoice, Payment } from '@shared/contracts/invoices';
import { isPayable, isVoidable } from '@shared/invoice-amounts';
import { amountToCents, formatCents } from '@shared/money';
import { can } from '@shared/permissions';
import { Ban, HandCoins, ReceiptText, Send } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import { Button } from '@/components/ui/button';
import { type Column, DataTable } from '@/components/ui/data-table';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { ErrorState, Skeleton } from '@/components/ui/feedback';
import { lazyWhen } from '@/components/ui/lazy-when';
import { useCurrentUser } from '@/features/auth/api/me';
import { BookedImpressions } from '@/lib/booked-impressions';
import { deliveryOutcome, formatImpressions, pacingIsLow } from '@/lib/delivery-text';
import { paths } from '@/lib/paths';
import { cn } from '@/lib/utils';
import { useInvoice } from '../api/get-invoice';
import { useResendInvoice } from '../api/resend-invoice';
import { formatDate, formatMoney, periodLabel } from '../lib/format';
import { CreditNoteKindBadge } from './credit-note-kind-badge';
import { CreditNotePdfButton } from './credit-note-pdf-button';
import { DunningStageNote } from './dunning-stage-note';
import { InvoiceAutopaySection } from './invoice-autopay';
import { InvoiceStatusBadge } from './invoice-status-badge';
import { InvoiceTimeline } from './invoice-timeline';
import { PdfButton } from './pdf-button';
import { ReceiptButton } from './receipt-button';

// The forms load the first time they open (docs/decisions/017-performance.md). Record Payment and Void are the
// Invoices row's own dialogs and mutations: the same form, the same rules, the same refresh.
const IssueCreditNoteDialog = lazyWhen(
  () => import('./issue-credit-note-dialog').then((module) => module.IssueCreditNoteDialog),
  (props) => props.invoice !== null,
);
const RecordPaymentDialog = lazyWhen(
  () => import('./record-payment-dialog').then((module) => module.RecordPaymentDialog),
  (props) => props.invoice !== null,
);
const VoidInvoiceDialog = lazyWhen(
  () => import('./void-invoice-dialog').then((module) => module.VoidInvoiceDialog),
  (props) => props.invoice !== null,
);

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

/**
 * The invoice's lines, in their order; a net-billed agency invoice ends with its negative "Agency commission 15%"
 * line (product.md section 20), shown as "-$150.00" like any credit.
 */
export function InvoiceLines({ invoice }: { invoice: Pick<Invoice, 'number' | 'lines'> }) {
  return (
    <DataTable
      caption={`Lines of ${invoice.number}`}
      columns={LINE_COLUMNS}
      rows={invoice.lines}
      rowKey={(line) => line.id}
      density="compact"
    />
  );
}

type DeliveryRow = Invoice['delivery'][number];

/** Each CPM line's booked and delivered impressions for the invoice's period, and how a shortfall was settled. */
const PROOF_COLUMNS: Column<DeliveryRow>[] = [
  { id: 'line', header: 'Line', rowHeader: true, cell: (row) => row.productName },
  { id: 'period', header: 'Period', cellClassName: 'whitespace-nowrap', cell: (row) => formatMonth(row.month) },
  {
    id: 'booked',
    header: 'Booked',
    align: 'right',
    cellClassName: 'whitespace-nowrap',
    cell: (row) => <BookedImpressions period={row} />,
  },
  {
    id: 'delivered',
    header: 'Delivered',
    align: 'right',
    cellClassName: 'whitespace-nowrap',
    cell: (row) => (row.delivered === null ? '—' : formatImpressions(row.delivered)),
  },
  {
    id: 'pacing',
    header: 'Pacing',
    align: 'right',
    cellClassName: (row) => cn('whitespace-nowrap', pacingIsLow(row) && 'font-medium text-red-700'),
    cell: (row) => pacingText(row.booked, row.delivered),
  },
  { id: 'remedy', header: 'Remedy', cell: (row) => deliveryOutcome(row) },
];

/** Proof of performance (product.md section 12): shown on an invoice that bills CPM lines. */
export function ProofOfPerformance({ invoice }: { invoice: Pick<Invoice, 'number' | 'delivery'> }) {
  return (
    <section aria-labelledby="invoice-proof" className="grid min-w-0 gap-2" data-testid="proof-of-performance">
      <h3 id="invoice-proof" className="text-sm font-semibold text-slate-900">
        Proof of performance
      </h3>
      <DataTable
        caption={`Proof of performance of ${invoice.number}`}
        columns={PROOF_COLUMNS}
        rows={invoice.delivery}
        rowKey={(row) => `${row.lineId}-${row.month}`}
        density="compact"
        sortable={false}
        className="min-w-[34rem]"
      />
    </section>
  );
}

/**
 * An invoice's lines, figures, payments, credit notes and timeline, with the actions its row on the Invoices
 * screen offers, to the same roles: Record Payment while it can be paid and Void while it can be voided
 * (invoice:manage), Issue Credit Note while something remains to credit, Resend (its e-mail again) while it is
 * unpaid, and the PDF for everyone who reads it; its autopay (the scheduled charge or the attempts, and Charge
 * now) when it has one.
 */
export function InvoiceDetailDialog({ invoiceId, onClose }: { invoiceId: string | null; onClose: () => void }) {
  const { data: invoice, isLoading, error } = useInvoice(invoiceId);
  const { user } = useCurrentUser();
  const [crediting, setCrediting] = useState<Invoice | null>(null);
  const [paying, setPaying] = useState<Invoice | null>(null);
  const [voiding, setVoiding] = useState<Invoice | null>(null);
  const resend = useResendInvoice();
  const canManage = can(user, 'invoice:manage');
  // `creditable` is the server's creditableCents: nothing on a void invoice.
  const canCredit = canManage && (invoice?.creditable ?? 0) > 0;
  return (
    <Dialog open={invoiceId !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-4xl" data-testid="invoice-dialog">
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
              <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                <DialogTitle className="flex flex-wrap items-center gap-2">
                  {invoice.number} <InvoiceStatusBadge status={invoice.status} overdue={invoice.overdue} />
                </DialogTitle>
                <DunningStageNote stage={invoice.dunningStage} />
              </div>
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
            <div className="flex flex-wrap gap-2" data-testid="invoice-dialog-actions">
              {canManage && isPayable(invoice.status) && (
                <Button size="sm" onClick={() => setPaying(invoice)}>
                  <HandCoins aria-hidden /> Record Payment
                </Button>
              )}
              {canCredit && (
                <Button variant="outline" size="sm" onClick={() => setCrediting(invoice)}>
                  <ReceiptText aria-hidden /> Issue Credit Note
                </Button>
              )}
              {canManage && isPayable(invoice.status) && (
                <Button
                  variant="outline"
                  size="sm"
                  disabled={resend.isPending}
                  onClick={() => resend.mutate(invoice.id)}
                  aria-label={`E-mail ${invoice.number} to the customer again`}
                >
                  <Send aria-hidden /> {resend.isPending ? 'Sending...' : 'Resend'}
                </Button>
              )}
              <PdfButton invoice={invoice} label="Download PDF" />
              {canManage && isVoidable(invoice.status) && (
                <Button
                  variant="outline"
                  size="sm"
                  className="text-destructive hover:bg-red-50 hover:text-destructive"
                  onClick={() => setVoiding(invoice)}
                >
                  <Ban aria-hidden /> {invoice.amountPaid > 0 ? 'Void and Refund' : 'Void Invoice'}
                </Button>
              )}
            </div>
            <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_18rem]">
              <div className="grid min-w-0 content-start gap-4">
                <InvoiceLines invoice={invoice} />
                <InvoiceFigures invoice={invoice} />
                <ExportedNote exports={invoice.exports} />
                <InvoiceAutopaySection invoice={invoice} />
                {invoice.delivery.length > 0 && <ProofOfPerformance invoice={invoice} />}
                {invoice.payments.length > 0 && <PaymentList invoice={invoice} />}
                {invoice.creditNotes.length > 0 && <CreditNoteList notes={invoice.creditNotes} />}
                {invoice.voidReason && <p className="text-sm text-muted-foreground">Voided: {invoice.voidReason}</p>}
              </div>
              <div className="min-w-0 lg:border-l lg:pl-6">
                <InvoiceTimeline invoiceId={invoice.id} number={invoice.number} />
              </div>
            </div>
          </>
        )}
        <IssueCreditNoteDialog invoice={crediting} onClose={() => setCrediting(null)} />
        {canManage && <RecordPaymentDialog invoice={paying} onClose={() => setPaying(null)} />}
        {canManage && <VoidInvoiceDialog invoice={voiding} onClose={() => setVoiding(null)} />}
      </DialogContent>
    </Dialog>
  );
}

/** The invoice's payments and refunds, failed attempts marked; each payment received with its receipt's PDF. */
function PaymentList({ invoice }: { invoice: Pick<Invoice, 'id' | 'number' | 'payments'> }) {
  return (
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
            <span className="ml-auto flex items-center gap-2">
              <span className="tabular-nums">
                {payment.kind === 'refund' ? '-' : ''}
                {formatMoney(payment.amount)}
              </span>
              {payment.kind === 'payment' && payment.status === 'succeeded' && (
                <ReceiptButton
                  receipt={{ invoiceId: invoice.id, invoiceNumber: invoice.number, paymentId: payment.id }}
                />
              )}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * The invoice's figures: subtotal (billed net to an agency, then the net of its commission, which tax and the total
 * are on), tax, total, what was paid (and of it, what came from the customer's credit balance),
 * refunded and credited when there is any, and what is still due.
 */
export function InvoiceFigures({ invoice }: { invoice: Invoice }) {
  return (
    <dl className="ml-auto grid w-full max-w-xs gap-1 text-sm" data-testid="invoice-figures">
      <Row label="Subtotal" value={formatMoney(invoice.subtotal)} />
      {invoice.agencyBillingMode === 'net' && (
        <Row
          label="Net of agency commission"
          value={formatCents(amountToCents(invoice.subtotal) - amountToCents(invoice.agencyCommission))}
        />
      )}
      <Row
        label={`${invoice.taxLabel} (${invoice.taxRate}%${invoice.taxIncluded ? ', included' : ''})`}
        value={formatMoney(invoice.tax)}
      />
      <Row label="Total" value={formatMoney(invoice.total)} strong />
      <Row label="Paid" value={formatMoney(invoice.amountPaid)} />
      {invoice.creditApplied > 0 && <Row label="Credit applied" value={formatMoney(invoice.creditApplied)} />}
      {invoice.refunded > 0 && <Row label="Refunded" value={formatMoney(invoice.refunded)} />}
      {invoice.credited > 0 && <Row label="Credited" value={formatMoney(invoice.credited)} />}
      <Row label="Amount due" value={formatMoney(invoice.amountDue)} strong testId="invoice-amount-due" />
    </dl>
  );
}

/** The invoice's credit notes: number, why, when, the reason given, the amount and the PDF. */
export function CreditNoteList({ notes }: { notes: CreditNote[] }) {
  return (
    <section aria-labelledby="invoice-credit-notes" className="grid gap-2">
      <h3 id="invoice-credit-notes" className="text-sm font-semibold text-slate-900">
        Credit notes
      </h3>
      <ul className="grid gap-1 text-sm">
        {notes.map((note) => (
          <li
            key={note.id}
            className="flex flex-wrap items-center justify-between gap-2 rounded-md bg-muted/50 px-3 py-2"
            data-testid="invoice-credit-note"
          >
            <span className="grid min-w-[12rem] flex-1 gap-0.5">
              <span className="flex flex-wrap items-center gap-2">
                <span className="font-mono text-xs font-medium text-slate-900">{note.number}</span>
                <CreditNoteKindBadge kind={note.kind} />
                <span className="text-muted-foreground">{formatDate(note.issuedAt)}</span>
              </span>
              <span className="break-words text-muted-foreground">{note.reason}</span>
              <ExportedNote exports={note.exports} />
            </span>
            <span className="flex items-center gap-2">
              <span className="tabular-nums font-medium text-slate-900">-{formatMoney(note.amount)}</span>
              <CreditNotePdfButton note={note} />
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The accounting export batches that exported a document (decision 043): "Exported: EXP-2026-000003 (Xero invoices)". */
export function ExportedNote({ exports }: { exports: DocumentExport[] }) {
  if (exports.length === 0) return null;
  return (
    <p className="text-xs text-muted-foreground" data-testid="exported-note">
      Exported: {exports.map(documentExportLabel).join(', ')}
    </p>
  );
}

function paymentLabel(payment: Payment): string {
  const how =
    payment.method === 'card' && payment.cardLast4
      ? `${payment.cardBrand ? payment.cardBrand[0].toUpperCase() + payment.cardBrand.slice(1) : 'Card'} •••• ${payment.cardLast4}`
      : PAYMENT_METHOD_LABELS[payment.method];
  return payment.kind === 'refund' ? `Refund (${how})` : how;
}

function Row({ label, value, strong, testId }: { label: string; value: string; strong?: boolean; testId?: string }) {
  return (
    <div
      className={`flex justify-between gap-4 ${strong ? 'font-semibold text-slate-900' : 'text-muted-foreground'}`}
      data-testid={testId}
    >
      <dt>{label}</dt>
      <dd className="tabular-nums">{value}</dd>
    </div>
  );
}
