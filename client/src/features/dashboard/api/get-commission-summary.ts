import type { CommissionSummary } from '@shared/contracts/commissions';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, withQuery } from '@/lib/api-client';

/**
 * GET /api/commissions/summary for one rep (the signed-in user): the Sales Dashboard's Available
 * Commission, This Month and Commission Tracker. Same key as the Commissions screen's query, so a payout
 * change there refreshes these figures too.
 */
export const myCommissionSummaryQueryOptions = (repId: string) =>
  queryOptions({
    queryKey: ['/api/commissions', 'summary', { repId }],
    queryFn: () => api<CommissionSummary>('GET', withQuery('/api/commissions/summary', { repId })),
    staleTime: 0,
  });

export function useMyCommissionSummary(repId: string, enabled: boolean) {
  return useQuery({ ...myCommissionSummaryQueryOptions(repId), enabled });
}
