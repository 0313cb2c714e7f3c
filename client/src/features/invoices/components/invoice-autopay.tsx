import { AUTOPAY_ATTEMPT_LABELS, type AutopayAttempt, type InvoiceAutopay } from '@shared/contracts/autopay';
import type { Invoice } from '@shared/contracts/invoices';
import { formatDocumentDate } from '@shared/document-date';
import { can } from '@shared/permissions';
import { Zap } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { type Column, DataTable } from '@/components/ui/data-table';
import { useCurrentUser } from '@/features/auth/api/me';
import { useChargeInvoice } from '../api/charge-invoice';
import { invoiceAutopayOf } from '../api/get-invoice';

/** "Dec 8" for a YYYY-MM-DD day, read as that calendar day (no time-zone shift). */
export const monthDay = (day: string) => formatDocumentDate(day).split(',')[0];

/** "Autopay: Visa •••• 4242 on Dec 8" while a charge is scheduled and none was tried yet; null otherwise. */
export function scheduledLine(autopay: InvoiceAutopay): string | null {
  if (!autopay || autopay.attempts.length > 0 || !autopay.scheduledOn || !autopay.method) return null;
  return `Autopay: ${autopay.method} on ${monthDay(autopay.scheduledOn)}`;
}

const RESULT_TONES: Record<AutopayAttempt['status'], 'grey' | 'green' | 'red' | 'yellow' | 'blue'> = {
  pending: 'blue',
  succeeded: 'green',
  failed: 'red',
  requires_action: 'yellow',
  skipped: 'grey',
};

/** "Dec 8, 2:06 PM": when an attempt was made, short enough for the dialog's column (the invoice gives the year). */
export const attemptTime = (at: string) =>
  new Date(at).toLocaleString('en-US', { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });

// Sized for the dialog's main column (about 530 px beside the timeline at 1366 px): the number, the times and
// the result keep to one line at their content's width, the reason takes the rest and wraps.
const ATTEMPT_COLUMNS: Column<AutopayAttempt>[] = [
  {
    id: 'number',
    header: 'Attempt',
    rowHeader: true,
    role: 'identity',
    align: 'right',
    className: 'w-px whitespace-nowrap',
    // The table's header says "Attempt" above the number; on a phone the row is a card titled by this cell, so
    // there the word shows: "Attempt 2" (screen readers hear it in both layouts).
    cell: (attempt) => (
      <>
        <span className="sm:sr-only">Attempt </span>
        {attempt.number}
      </>
    ),
  },
  {
    id: 'when',
    header: 'When',
    className: 'w-px whitespace-nowrap',
    cell: (attempt) => <time dateTime={attempt.at}>{attemptTime(attempt.at)}</time>,
  },
  {
    id: 'result',
    header: 'Result',
    role: 'status',
    className: 'w-px',
    cell: (attempt) => (
      <Badge tone={RESULT_TONES[attempt.status]} className="whitespace-nowrap">
        {AUTOPAY_ATTEMPT_LABELS[attempt.status]}
      </Badge>
    ),
  },
  { id: 'reason', header: 'Reason', cellClassName: 'min-w-36', cell: (attempt) => attempt.reason ?? '—' },
  {
    id: 'next',
    header: 'Next attempt',
    className: 'w-px',
    cellClassName: 'whitespace-nowrap',
    cell: (attempt) =>
      attempt.nextAttemptOn ? <time dateTime={attempt.nextAttemptOn}>{monthDay(attempt.nextAttemptOn)}</time> : '—',
  },
];

/**
 * The invoice dialog's "Autopay" (product.md section 18): the scheduled charge, or each attempt with its result,
 * reason and next attempt; finance's "Charge now" when the server says a charge would be made. Nothing when the
 * invoice has no autopay.
 */
export function InvoiceAutopaySection({ invoice }: { invoice: Invoice }) {
  const autopay = invoiceAutopayOf(invoice);
  const { user } = useCurrentUser();
  const charge = useChargeInvoice();
  if (!autopay) return null;
  const line = scheduledLine(autopay);
  const canCharge = can(user, 'invoice:manage') && autopay.canChargeNow;
  return (
    <section aria-labelledby="invoice-autopay" className="grid min-w-0 gap-2" data-testid="invoice-autopay">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id="invoice-autopay" className="text-sm font-semibold text-slate-900">
          Autopay
        </h3>
        {canCharge && (
          <Button
            size="sm"
            variant="outline"
            disabled={charge.isPending}
            onClick={() => charge.mutate(invoice.id)}
            aria-label={`Charge ${invoice.number} to the customer's payment method now`}
          >
            <Zap aria-hidden /> {charge.isPending ? 'Charging...' : 'Charge now'}
          </Button>
        )}
      </div>
      {line && (
        <p className="text-sm text-slate-900" data-testid="invoice-autopay-scheduled">
          {line}
        </p>
      )}
      {autopay.attempts.length > 0 ? (
        <DataTable
          caption={`Autopay attempts of ${invoice.number}`}
          columns={ATTEMPT_COLUMNS}
          rows={autopay.attempts}
          rowKey={(attempt) => String(attempt.number)}
          rowProps={() => ({ 'data-testid': 'autopay-attempt' })}
          density="compact"
          frame="inset"
          sortable={false}
          phone="cards"
        />
      ) : (
        !line && <p className="text-sm text-muted-foreground">No automatic charge is scheduled.</p>
      )}
    </section>
  );
}
