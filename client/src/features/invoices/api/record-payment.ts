import type { Invoice, ManualPaymentInput } from '@shared/contracts/invoices';
import { formatAmount } from '@shared/money';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';
import { refreshInvoiceData } from './get-invoices';

/** A check, wire, cash or other payment against an invoice (never more than what is due). */
export const recordPayment = ({ id, input }: { id: string; input: ManualPaymentInput }) =>
  api<Invoice>('POST', `/api/invoices/${encodeURIComponent(id)}/payments`, input);

export function useRecordPayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: recordPayment,
    onSuccess: (invoice, { input }) => {
      toast({
        title: 'Payment recorded',
        description:
          invoice.status === 'paid'
            ? `Invoice ${invoice.number} is paid in full. A receipt was e-mailed to the customer.`
            : `${formatAmount(input.amount)} recorded on ${invoice.number}; ${formatAmount(invoice.amountDue)} is still due.`,
      });
      return refreshInvoiceData(queryClient);
    },
    onError: (error) => {
      toastError('Failed to record payment', error);
    },
  });
}
