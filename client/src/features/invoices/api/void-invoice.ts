import type { Invoice, VoidInvoiceInput } from '@shared/contracts/invoices';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';
import { refreshInvoiceData } from './get-invoices';

/** Voids an invoice with a reason; a paid one is refunded. */
export const voidInvoice = ({ id, input }: { id: string; input: VoidInvoiceInput }) =>
  api<Invoice>('POST', `/api/invoices/${encodeURIComponent(id)}/void`, input);

export function useVoidInvoice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: voidInvoice,
    onSuccess: (invoice) => {
      toast({
        title: invoice.refunded > 0 ? 'Invoice voided and refunded' : 'Invoice voided',
        description: `${invoice.number} is void; nothing is due on it.`,
      });
      return refreshInvoiceData(queryClient);
    },
    onError: (error) => {
      toastError('Failed to void invoice', error);
    },
  });
}
