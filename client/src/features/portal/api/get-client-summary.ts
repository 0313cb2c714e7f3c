import type { ClientSummary } from '@shared/contracts/client-portal';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** The client's figures: active contracts, outstanding balance, the next payment (computed on the server). */
export const clientSummaryQueryOptions = queryOptions({
  queryKey: ['/api/client/summary'],
  queryFn: () => api<ClientSummary>('GET', '/api/client/summary'),
});

export function useClientSummary() {
  return useQuery(clientSummaryQueryOptions);
}
