import type { QueryClient } from '@tanstack/react-query';

/** Every commissions and payouts query starts with one of these keys; changes invalidate both. */
export const commissionsQueryKey = ['/api/commissions'] as const;
export const payoutsQueryKey = ['/api/payouts'] as const;

/** After a payout changes, the summary, history and payout lists (and the dashboard's figures) refetch. */
export function refreshCommissionData(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: commissionsQueryKey }),
    queryClient.invalidateQueries({ queryKey: payoutsQueryKey }),
  ]);
}

export const COMMISSIONS_PAGE_SIZE = 20;
