import type { PayLink } from '@shared/contracts/checkout';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const payLinkQueryKey = (token: string) => ['pay-link', token] as const;

/** The public pay-link page's data: business, customer, contract and what is due now. */
export const getPayLink = (token: string) => api<PayLink>('GET', `/api/pay/${encodeURIComponent(token)}`);

export const payLinkQueryOptions = (token: string) =>
  queryOptions({
    queryKey: payLinkQueryKey(token),
    queryFn: () => getPayLink(token),
    staleTime: 0,
  });

export function usePayLink(token: string) {
  return useQuery(payLinkQueryOptions(token));
}
