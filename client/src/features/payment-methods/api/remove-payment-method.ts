import type { PaymentMethodChange } from '@shared/contracts/autopay';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';
import { paymentMethodsQueryKey } from './get-payment-methods';

/** Removes one of the client's methods; the answer's `message` says when that turned autopay off. */
export const removePaymentMethod = (id: string) =>
  api<PaymentMethodChange>('DELETE', `/api/client/payment-methods/${encodeURIComponent(id)}`);

export function useRemovePaymentMethod() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removePaymentMethod,
    onSuccess: ({ message }) => {
      toast({ title: message });
      return queryClient.invalidateQueries({ queryKey: paymentMethodsQueryKey });
    },
    onError: (error) => {
      toastError('Could not remove the payment method', error);
    },
  });
}
