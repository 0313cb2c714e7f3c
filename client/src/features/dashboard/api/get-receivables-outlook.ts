import type { ReceivablesOutlook } from '@shared/contracts/receivables-vocabulary';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** Finance's cash figures (GET /api/receivables/outlook): A/R, overdue, cash this month, the next 30 days. */
export const receivablesOutlookQueryOptions = queryOptions({
  queryKey: ['/api/receivables', 'outlook'],
  queryFn: () => api<ReceivablesOutlook>('GET', '/api/receivables/outlook'),
  staleTime: 30_000,
});

export function useReceivablesOutlook({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...receivablesOutlookQueryOptions, enabled });
}
