import type { CustomerCredit } from '@shared/contracts/credit-notes';
import type { ManualPaymentMethod } from '@shared/contracts/invoice-vocabulary';
import { formatAmount } from '@shared/money';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';
import { refreshInvoiceData } from './get-invoices';

/** The body in dollars, as the route takes it. */
export type RefundCreditBody = { amount: number; method: ManualPaymentMethod; reference: string | null };

/** Pays part or all of a customer's credit balance back (never more than the balance). */
export const refundCredit = ({ customerId, input }: { customerId: string; input: RefundCreditBody }) =>
  api<CustomerCredit>('POST', `/api/customers/${encodeURIComponent(customerId)}/credit-refunds`, input);

export function useRefundCredit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: refundCredit,
    onSuccess: (credit, { input }) => {
      toast({
        title: 'Credit refunded',
        description: `${formatAmount(input.amount)} refunded; the credit balance is now ${formatAmount(credit.balance)}.`,
      });
      return refreshInvoiceData(queryClient);
    },
    onError: (error) => {
      toastError('Failed to refund credit', error);
    },
  });
}
