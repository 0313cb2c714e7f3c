import {
  type InvoiceEventKind,
  type InvoiceTimelineEvent,
  invoiceEventTitle,
} from '@shared/contracts/invoice-timeline';
import { PAYMENT_METHOD_LABELS, type PaymentMethod } from '@shared/contracts/invoice-vocabulary';
import {
  Ban,
  BellRing,
  CirclePause,
  FileText,
  HandCoins,
  type LucideIcon,
  Mail,
  ReceiptText,
  RotateCcw,
  TriangleAlert,
} from 'lucide-react';
import { ErrorState, Skeleton } from '@/components/ui/feedback';
import { cn } from '@/lib/utils';
import { useInvoiceTimeline } from '../api/get-invoice-timeline';
import { formatDate, formatMoney } from '../lib/format';

const ICONS: Record<InvoiceEventKind, LucideIcon> = {
  issued: FileText,
  emailed: Mail,
  reminder: BellRing,
  paused: CirclePause,
  payment: HandCoins,
  payment_failed: TriangleAlert,
  refund: RotateCcw,
  credit_note: ReceiptText,
  void: Ban,
};

const TONES: Partial<Record<InvoiceEventKind, string>> = {
  payment: 'bg-green-50 text-green-700 ring-green-200',
  reminder: 'bg-amber-50 text-amber-700 ring-amber-200',
  paused: 'bg-red-50 text-red-700 ring-red-200',
  payment_failed: 'bg-red-50 text-red-700 ring-red-200',
  void: 'bg-red-50 text-red-700 ring-red-200',
  credit_note: 'bg-blue-50 text-blue-700 ring-blue-200',
};

/** The money an event moved, signed as the invoice sees it (a refund or a credit lowers what it holds). */
function amountText(event: InvoiceTimelineEvent): string | null {
  if (event.amount === null) return null;
  const sign = event.kind === 'refund' || event.kind === 'credit_note' ? '-' : '';
  return `${sign}${formatMoney(event.amount)}`;
}

/** What stands under the headline: the method, an e-mail's subject, a reason, who did it. */
function detailText(event: InvoiceTimelineEvent): string | null {
  const parts: string[] = [];
  if ((event.kind === 'payment' || event.kind === 'refund' || event.kind === 'payment_failed') && event.reference)
    parts.push(PAYMENT_METHOD_LABELS[event.reference as PaymentMethod] ?? event.reference);
  if (event.detail) parts.push(event.detail);
  if (event.actor) parts.push(`by ${event.actor}`);
  return parts.length ? parts.join(' · ') : null;
}

/**
 * The invoice's timeline (GET /api/invoices/{id}/timeline): issued, e-mailed, reminders, payments and refunds,
 * credit notes and the void, oldest first, each on its business day.
 */
export function InvoiceTimeline({ invoiceId, number }: { invoiceId: string; number: string }) {
  const { data, isLoading, error } = useInvoiceTimeline(invoiceId);
  return (
    <section aria-labelledby="invoice-timeline" className="grid gap-2" data-testid="invoice-timeline">
      <h3 id="invoice-timeline" className="text-sm font-semibold text-slate-900">
        Timeline
      </h3>
      {isLoading && (
        <div className="grid gap-2" aria-busy="true">
          <span className="sr-only">Loading the timeline of {number}</span>
          <Skeleton className="h-8" />
          <Skeleton className="h-8" />
          <Skeleton className="h-8" />
        </div>
      )}
      {error && !data && <ErrorState title="Could not load the timeline">Close the invoice and try again.</ErrorState>}
      {data && data.events.length === 0 && <p className="text-sm text-muted-foreground">Nothing recorded yet.</p>}
      {data && data.events.length > 0 && (
        <ol className="grid gap-0" aria-label={`Timeline of ${number}`}>
          {data.events.map((event, index) => {
            const Icon = ICONS[event.kind];
            const amount = amountText(event);
            const detail = detailText(event);
            const last = index === data.events.length - 1;
            return (
              <li
                key={event.id}
                className="relative grid grid-cols-[1.75rem_1fr] gap-x-3 pb-3 last:pb-0"
                data-testid="invoice-timeline-event"
                data-kind={event.kind}
              >
                {!last && <span aria-hidden className="absolute left-[0.8125rem] top-7 bottom-0 w-px bg-border" />}
                <span
                  aria-hidden
                  className={cn(
                    'flex size-7 items-center justify-center rounded-full ring-1',
                    TONES[event.kind] ?? 'bg-muted text-muted-foreground ring-border',
                  )}
                >
                  <Icon className="size-3.5" />
                </span>
                <div className="grid min-w-0 gap-0.5 pt-0.5 text-sm">
                  <div className="flex flex-wrap items-baseline justify-between gap-x-3">
                    <span className="font-medium text-slate-900">{invoiceEventTitle(event)}</span>
                    <span className="flex items-baseline gap-3">
                      {amount && <span className="tabular-nums font-medium text-slate-900">{amount}</span>}
                      <time dateTime={event.at} className="whitespace-nowrap text-xs text-muted-foreground">
                        {formatDate(event.day)}
                      </time>
                    </span>
                  </div>
                  {detail && <span className="break-words text-xs text-muted-foreground">{detail}</span>}
                </div>
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
