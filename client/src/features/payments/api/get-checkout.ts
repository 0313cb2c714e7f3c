import type { Checkout } from '@shared/contracts/checkout';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const checkoutQueryKey = (token: string) => ['checkout', token] as const;

/** The built-in hosted checkout: what it charges, for whom, and whether it is still open. */
export const getCheckout = (token: string) => api<Checkout>('GET', `/api/checkout/${encodeURIComponent(token)}`);

export const checkoutQueryOptions = (token: string) =>
  queryOptions({
    queryKey: checkoutQueryKey(token),
    queryFn: () => getCheckout(token),
    staleTime: 0,
  });

export function useCheckout(token: string) {
  return useQuery(checkoutQueryOptions(token));
}
