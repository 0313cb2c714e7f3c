import type { AgencyOfRecord } from '@shared/contracts/agencies';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { customersQueryKey } from './get-customers';

/** Under the customers key: setting or ending an advertiser's agency of record refreshes it. */
export const agencyAdvertisersQueryKey = (agencyId: string) => [...customersQueryKey, agencyId, 'advertisers'] as const;

/** GET /api/agencies/{id}/advertisers: the advertisers an agency represents or represented, newest first. */
export const agencyAdvertisersQueryOptions = (agencyId: string) =>
  queryOptions({
    queryKey: agencyAdvertisersQueryKey(agencyId),
    queryFn: () => api<AgencyOfRecord[]>('GET', `/api/agencies/${encodeURIComponent(agencyId)}/advertisers`),
    staleTime: 0,
  });

export function useAgencyAdvertisers(agencyId: string, options: { enabled?: boolean } = {}) {
  return useQuery({ ...agencyAdvertisersQueryOptions(agencyId), enabled: options.enabled ?? true });
}
