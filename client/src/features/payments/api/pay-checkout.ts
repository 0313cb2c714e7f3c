import type { CardPayment, CheckoutPaid } from '@shared/contracts/checkout';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** Pays the built-in checkout with a card: the success page to go to, or an error with the decline message. */
export const payCheckout = (token: string, card: CardPayment) =>
  api<CheckoutPaid>('POST', `/api/checkout/${encodeURIComponent(token)}/pay`, card);

export function usePayCheckout(token: string) {
  return useMutation({ mutationFn: (card: CardPayment) => payCheckout(token, card) });
}
