import type { InvoiceSummary } from '@shared/contracts/invoices';
import { CreditCard } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { PdfButton } from '@/features/invoices/components/pdf-button';
import { useStartInvoiceCheckout } from '@/features/payments/api/start-invoice-checkout';
import { toastError } from '@/lib/toast-error';

/**
 * Pay Now for one of the client's open invoices: the same checkout as a pay link (the built-in page or Stripe's).
 * Used by the invoice lists and by the overdue alerts, which name the invoice to pay.
 */
export function PayNowButton({ invoice }: { invoice: Pick<InvoiceSummary, 'id' | 'number'> }) {
  const pay = useStartInvoiceCheckout();
  return (
    <Button
      size="sm"
      disabled={pay.isPending}
      aria-label={`Pay ${invoice.number} now`}
      onClick={() =>
        pay.mutate(invoice.id, {
          onError: (error) => toastError('Payment could not be started', error),
        })
      }
    >
      <CreditCard aria-hidden /> {pay.isPending ? 'Opening...' : 'Pay Now'}
    </Button>
  );
}

/**
 * A client's invoice actions on the dashboard, the portal and its contract page (composed here, from the payments
 * and invoices features): Pay Now for a pending invoice opens the same checkout as a pay link, and the PDF.
 */
export function ClientInvoiceActions({ invoice }: { invoice: InvoiceSummary }) {
  return (
    <>
      {invoice.status === 'pending' && <PayNowButton invoice={invoice} />}
      <PdfButton invoice={invoice} />
    </>
  );
}
