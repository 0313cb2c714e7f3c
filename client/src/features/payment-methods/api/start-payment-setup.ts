import type { PaymentSetupStart } from '@shared/contracts/autopay';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';

/**
 * "Add a payment method": where to enter it (the built-in set-up page, or Stripe's hosted page), as an absolute
 * address the browser goes to.
 */
export const startPaymentSetup = () => api<PaymentSetupStart>('POST', '/api/client/payment-methods/setup');

export function useStartPaymentSetup() {
  return useMutation({
    mutationFn: startPaymentSetup,
    onSuccess: ({ url }) => window.location.assign(url),
    onError: (error) => {
      toastError('Could not add a payment method', error);
    },
  });
}
