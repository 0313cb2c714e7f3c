import type { PaymentMethodChange } from '@shared/contracts/autopay';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';
import { paymentMethodsQueryKey } from './get-payment-methods';

/** Makes one of the client's methods the one autopay charges. */
export const makeDefaultPaymentMethod = (id: string) =>
  api<PaymentMethodChange>('POST', `/api/client/payment-methods/${encodeURIComponent(id)}/default`);

export function useMakeDefaultPaymentMethod() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: makeDefaultPaymentMethod,
    onSuccess: ({ message }) => {
      toast({ title: message });
      return queryClient.invalidateQueries({ queryKey: paymentMethodsQueryKey });
    },
    onError: (error) => {
      toastError('Could not change the default method', error);
    },
  });
}
