import type { CheckoutUrlResponse } from '@shared/contracts/checkout';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** Opens a checkout for everything due on the pay link; the caller sends the browser to checkoutUrl. */
export const startPayLinkCheckout = (token: string) =>
  api<CheckoutUrlResponse>('POST', `/api/pay/${encodeURIComponent(token)}/checkout`);

export function useStartPayLinkCheckout() {
  return useMutation({ mutationFn: (token: string) => startPayLinkCheckout(token) });
}
