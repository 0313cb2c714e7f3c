import type { AgencyOfRecord } from '@shared/contracts/agencies';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { customersQueryKey } from './get-customers';

/** The key of an advertiser's agencies of record; setting or ending one invalidates every customers query. */
export const agenciesOfRecordQueryKey = (customerId: string) => [...customersQueryKey, customerId, 'agency'] as const;

/** GET /api/customers/{id}/agency: the advertiser's periods of representation, newest first. */
export const agenciesOfRecordQueryOptions = (customerId: string) =>
  queryOptions({
    queryKey: agenciesOfRecordQueryKey(customerId),
    queryFn: () => api<AgencyOfRecord[]>('GET', `/api/customers/${encodeURIComponent(customerId)}/agency`),
    staleTime: 0,
  });

export function useAgenciesOfRecord(customerId: string, options: { enabled?: boolean } = {}) {
  return useQuery({ ...agenciesOfRecordQueryOptions(customerId), enabled: options.enabled ?? true });
}
