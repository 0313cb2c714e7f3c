import type { ClientContract } from '@shared/contracts/dashboard';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiPage } from '@/lib/api-client';

export const clientContractsQueryOptions = queryOptions({
  queryKey: ['/api/client/contracts'],
  queryFn: () => apiPage<ClientContract>('/api/client/contracts?limit=100'),
});

export function useClientContracts() {
  return useQuery(clientContractsQueryOptions);
}
