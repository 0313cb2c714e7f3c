import type { Deal } from '@shared/contracts/deals';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiPage, withQuery } from '@/lib/api-client';

export type DealOption = { id: string; title: string };

/** A customer's open deals, for the activity dialog's deal select. Under the deals key, so deal changes refresh it. */
export const dealOptionsQueryOptions = (customerId: string) =>
  queryOptions({
    queryKey: ['/api/deals', 'activity-options', { customerId }],
    queryFn: async (): Promise<DealOption[]> =>
      (
        await apiPage<Deal>(withQuery('/api/deals', { customerId, status: 'open', sort: 'title', limit: 100 }))
      ).rows.map(({ id, title }) => ({ id, title })),
    staleTime: 30_000,
  });

export function useDealOptions(customerId: string) {
  return useQuery({ ...dealOptionsQueryOptions(customerId), enabled: customerId !== '' });
}
