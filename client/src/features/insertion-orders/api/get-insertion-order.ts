import type { PublicInsertionOrder } from '@shared/contracts/insertion-orders';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const insertionOrderQueryKey = (token: string) => ['insertion-order', token] as const;

/** GET /api/io/{token}: the insertion order its link names, as the customer reviews it (public). */
export const getInsertionOrder = (token: string) =>
  api<PublicInsertionOrder>('GET', `/api/io/${encodeURIComponent(token)}`);

export const insertionOrderQueryOptions = (token: string) =>
  queryOptions({
    queryKey: insertionOrderQueryKey(token),
    queryFn: () => getInsertionOrder(token),
    staleTime: 0,
    retry: false,
  });

export function useInsertionOrder(token: string) {
  return useQuery(insertionOrderQueryOptions(token));
}
