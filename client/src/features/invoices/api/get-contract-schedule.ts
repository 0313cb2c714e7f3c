import type { ContractSchedule } from '@shared/contracts/invoices';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** The contract's next 12 billing periods; under the contracts key, so contract changes refresh it. */
export const contractScheduleQueryOptions = (contractId: string) =>
  queryOptions({
    queryKey: ['/api/contracts', 'schedule', contractId],
    queryFn: () => api<ContractSchedule>('GET', `/api/contracts/${encodeURIComponent(contractId)}/schedule`),
    staleTime: 0,
  });

export function useContractSchedule(contractId: string) {
  return useQuery(contractScheduleQueryOptions(contractId));
}
