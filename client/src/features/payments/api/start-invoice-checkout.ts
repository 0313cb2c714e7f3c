import type { CheckoutUrlResponse } from '@shared/contracts/checkout';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** The portal's Pay Now: a checkout for one of the client's own open invoices. */
export const startInvoiceCheckout = (invoiceId: string) =>
  api<CheckoutUrlResponse>('POST', `/api/invoices/${encodeURIComponent(invoiceId)}/checkout`);

/** On success the browser goes to the checkout (the built-in page or Stripe's). */
export function useStartInvoiceCheckout() {
  return useMutation({
    mutationFn: (invoiceId: string) => startInvoiceCheckout(invoiceId),
    onSuccess: ({ checkoutUrl }) => window.location.assign(checkoutUrl),
  });
}
