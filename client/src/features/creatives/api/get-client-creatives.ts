import type { Creative } from '@shared/contracts/creatives';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiPage } from '@/lib/api-client';

export const CLIENT_CREATIVES_KEY = ['/api/client/creatives'] as const;

/** Every creative of the client's own contracts, newest first. */
export const clientCreativesQueryOptions = queryOptions({
  queryKey: CLIENT_CREATIVES_KEY,
  queryFn: () => apiPage<Creative>('/api/client/creatives?limit=200'),
});

export function useClientCreatives() {
  return useQuery(clientCreativesQueryOptions);
}
