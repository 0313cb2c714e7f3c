import type { PerformanceEntry } from '@shared/contracts/performance';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiPage } from '@/lib/api-client';

/** The figures staff entered for the client's contracts, newest month first. */
export const clientPerformanceQueryOptions = queryOptions({
  queryKey: ['/api/client/performance'],
  queryFn: () => apiPage<PerformanceEntry>('/api/client/performance?limit=24'),
});

export function useClientPerformance() {
  return useQuery(clientPerformanceQueryOptions);
}
