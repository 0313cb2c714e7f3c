import type { Invoice } from '@shared/contracts/invoices';
import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';
import { invoiceAutopayOf, invoiceQueryOptions } from './get-invoice';
import { refreshInvoiceData } from './get-invoices';

/**
 * Finance's "Charge now": charges the invoice's amount due to the customer's default method at once, by the
 * charge run's own attempt rules; answers the invoice as GET /api/invoices/{id} does (409 when nothing is due,
 * there is no method, or an attempt is running).
 */
export const chargeInvoice = (id: string) => api<Invoice>('POST', `/api/invoices/${encodeURIComponent(id)}/charge`);

/** The answer replaces the dialog's invoice; the lists, balances and the customer's figures are fetched again. */
export const chargeInvoiceMutation = (queryClient: QueryClient) => ({
  mutationFn: chargeInvoice,
  onSuccess: (invoice: Invoice) => {
    queryClient.setQueryData(invoiceQueryOptions(invoice.id).queryKey, invoice);
    // A declined card is an answer, not an error: the attempt that was just made says how it went.
    const attempts = invoiceAutopayOf(invoice)?.attempts ?? [];
    const last = attempts.reduce<(typeof attempts)[number] | undefined>(
      (latest, attempt) => (latest && latest.number > attempt.number ? latest : attempt),
      undefined,
    );
    if (last?.status === 'failed') {
      toast({ variant: 'destructive', title: 'Charge failed', description: last.reason ?? undefined });
    } else if (last?.status === 'requires_action') {
      toast({
        title: 'The customer must confirm this charge',
        description: 'They were e-mailed a link to confirm it.',
      });
    } else {
      toast({ title: 'Charge made' });
    }
    return refreshInvoiceData(queryClient);
  },
  onError: (error: unknown) => {
    toastError('Charge failed', error);
  },
});

export function useChargeInvoice() {
  return useMutation(chargeInvoiceMutation(useQueryClient()));
}
