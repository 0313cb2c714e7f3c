import type { PortalContract } from '@shared/contracts/client-portal';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiPage } from '@/lib/api-client';

/** The contracts billed to the client's customer, newest first (the same request, and cache, as the dashboard's). */
export const portalContractsQueryOptions = queryOptions({
  queryKey: ['/api/client/contracts'],
  queryFn: () => apiPage<PortalContract>('/api/client/contracts?limit=100'),
});

export function usePortalContracts() {
  return useQuery(portalContractsQueryOptions);
}
