import type { ClientContract } from '@shared/contracts/dashboard';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiPage } from '@/lib/api-client';

/** The client's own contracts, newest first (the same request, and cache, as the dashboard's). */
export const portalContractsQueryOptions = queryOptions({
  queryKey: ['/api/client/contracts'],
  queryFn: () => apiPage<ClientContract>('/api/client/contracts?limit=100'),
});

export function usePortalContracts() {
  return useQuery(portalContractsQueryOptions);
}
