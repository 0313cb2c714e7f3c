import type { CheckoutReceipt } from '@shared/contracts/checkout';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const checkoutReceiptQueryKey = (token: string) => ['checkout-receipt', token] as const;

/** How often, and how many times, a pending receipt is asked again (Stripe's confirmation is seconds away). */
export const RECEIPT_POLL_MS = 2_000;
export const RECEIPT_POLLS = 15;

/** What a checkout paid, through its token: the success page's receipt (pending until the payment is confirmed). */
export const getCheckoutReceipt = (token: string) =>
  api<CheckoutReceipt>('GET', `/api/checkout/${encodeURIComponent(token)}/receipt`);

export const checkoutReceiptQueryOptions = (token: string) =>
  queryOptions({
    queryKey: checkoutReceiptQueryKey(token),
    queryFn: () => getCheckoutReceipt(token),
    staleTime: 0,
    retry: false,
    // Asked again every 2 s while pending, 15 times at most (about 30 s).
    refetchInterval: (query) =>
      query.state.data?.state === 'pending' && query.state.dataUpdateCount < RECEIPT_POLLS ? RECEIPT_POLL_MS : false,
  });

/** The receipt, and whether a pending one is still being asked for. */
export function useCheckoutReceipt(token: string) {
  const query = useQuery(checkoutReceiptQueryOptions(token));
  const answers = useQueryClient().getQueryState(checkoutReceiptQueryKey(token))?.dataUpdateCount ?? 0;
  return { query, polling: answers < RECEIPT_POLLS };
}
