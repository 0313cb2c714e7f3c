import type { ContractSchedule } from '@shared/contracts/invoices';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** The upcoming invoices of one of the client's contracts, from the billing engine. */
export const clientContractScheduleQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ['/api/client/contracts', 'schedule', id],
    queryFn: () => api<ContractSchedule>('GET', `/api/client/contracts/${encodeURIComponent(id)}/schedule`),
  });

export function useClientContractSchedule(id: string) {
  return useQuery(clientContractScheduleQueryOptions(id));
}
