import type { PerformanceEntry } from '@shared/contracts/performance';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiPage } from '@/lib/api-client';

export const contractPerformanceKey = (contractId: string) => ['/api/contracts', contractId, 'performance'] as const;

/** A contract's figures by month, newest first. */
export const contractPerformanceQueryOptions = (contractId: string) =>
  queryOptions({
    queryKey: contractPerformanceKey(contractId),
    queryFn: () => apiPage<PerformanceEntry>(`/api/contracts/${encodeURIComponent(contractId)}/performance?limit=120`),
  });

export function useContractPerformance(contractId: string) {
  return useQuery(contractPerformanceQueryOptions(contractId));
}
