import type { CommissionSummary } from '@shared/contracts/commissions';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, withQuery } from '@/lib/api-client';
import { commissionsQueryKey } from './keys';

/** GET /api/commissions/summary: the caller's own figures, or (staff) every rep's or one rep's. */
export const commissionSummaryQueryOptions = (repId?: string) =>
  queryOptions({
    queryKey: [...commissionsQueryKey, 'summary', { repId: repId ?? null }],
    queryFn: () => api<CommissionSummary>('GET', withQuery('/api/commissions/summary', { repId })),
    staleTime: 0,
  });

export function useCommissionSummary(repId?: string) {
  return useQuery(commissionSummaryQueryOptions(repId));
}
