import type { PaymentMethods } from '@shared/contracts/autopay';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';
import { paymentMethodsQueryKey } from './get-payment-methods';

/** The client's autopay switch: on needs an active default method (409 otherwise), off is always allowed. */
export const setAutopay = (enabled: boolean) => api<PaymentMethods>('PUT', '/api/client/autopay', { enabled });

export function useSetAutopay() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setAutopay,
    onSuccess: (answer) => {
      toast({
        title: answer.autopay.enabled ? 'Autopay is on' : 'Autopay is off',
        description: answer.autopay.enabled
          ? 'Open invoices will be charged automatically.'
          : 'You will pay each invoice yourself.',
      });
      return queryClient.invalidateQueries({ queryKey: paymentMethodsQueryKey });
    },
    onError: (error) => {
      toastError('Could not change autopay', error);
    },
  });
}
