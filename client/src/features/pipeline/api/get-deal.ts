import type { Deal } from '@shared/contracts/deals';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { dealsQueryKey } from './keys';

export const dealQueryKey = (id: string) => [...dealsQueryKey, 'detail', id] as const;

export const dealQueryOptions = (id: string) =>
  queryOptions({
    queryKey: dealQueryKey(id),
    queryFn: () => api<Deal>('GET', `/api/deals/${encodeURIComponent(id)}`),
    staleTime: 0,
  });

/** One deal, fresh from the server; `shown` (the card that was opened) stands in until it answers. */
export function useDeal(id: string, shown?: Deal) {
  return useQuery({ ...dealQueryOptions(id), placeholderData: shown });
}
