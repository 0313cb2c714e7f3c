import type { DeliveryPeriod } from '@shared/contracts/delivery';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiPage } from '@/lib/api-client';

export const clientPerformanceKey = ['/api/client/performance'] as const;

/** The delivery recorded for the client's own CPM lines, newest period first. */
export const clientPerformanceQueryOptions = queryOptions({
  queryKey: clientPerformanceKey,
  queryFn: () => apiPage<DeliveryPeriod>('/api/client/performance?limit=120'),
});

export function useClientPerformance() {
  return useQuery(clientPerformanceQueryOptions);
}
