import type { CheckoutUrlResponse } from '@shared/contracts/checkout';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** The portal's "Pay all due": one checkout for every invoice with something due, its total worked out by the server. */
export const startPayAllCheckout = () => api<CheckoutUrlResponse>('POST', '/api/client/pay-all');

/** On success the browser goes to the checkout (the built-in page or Stripe's). */
export function useStartPayAllCheckout() {
  return useMutation({
    mutationFn: startPayAllCheckout,
    onSuccess: ({ checkoutUrl }) => window.location.assign(checkoutUrl),
  });
}
