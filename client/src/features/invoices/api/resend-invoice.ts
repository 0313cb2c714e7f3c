import type { ReceiptSent } from '@shared/contracts/invoices';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';
import { invoicesQueryKey } from './get-invoices';

/** E-mails an unpaid invoice to the customer again (what is due today, and where to pay); 409 once it is not. */
export const resendInvoice = (id: string) => api<ReceiptSent>('POST', `/api/invoices/${encodeURIComponent(id)}/resend`);

export function useResendInvoice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => resendInvoice(id),
    onSuccess: (result) => {
      toast({ title: 'Invoice sent', description: result.message });
      // The invoice's timeline lists the e-mail.
      return queryClient.invalidateQueries({ queryKey: invoicesQueryKey });
    },
    onError: (error) => {
      toastError('Failed to send the invoice', error);
    },
  });
}
