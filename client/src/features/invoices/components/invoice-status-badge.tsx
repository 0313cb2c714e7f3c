import { INVOICE_STATUS_LABELS, INVOICE_STATUS_TONES, type InvoiceStatus } from '@shared/contracts/invoice-vocabulary';
import { Badge } from '@/components/ui/badge';

/**
 * The status badge: paid green, pending yellow, failed red, void grey; a pending invoice past its due date
 * reads "Overdue" in red (a failed one is red already; its due date shows it is overdue).
 */
export function InvoiceStatusBadge({ status, overdue }: { status: InvoiceStatus; overdue?: boolean }) {
  const late = overdue && status === 'pending';
  return (
    <Badge
      tone={late ? 'red' : (INVOICE_STATUS_TONES[status] ?? 'grey')}
      className="whitespace-nowrap"
      data-testid="invoice-status"
      title={overdue ? 'Unpaid and past its due date' : undefined}
    >
      {late ? 'Overdue' : (INVOICE_STATUS_LABELS[status] ?? status)}
    </Badge>
  );
}
