import type { Payout, PayoutFilter } from '@shared/contracts/commissions';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiPage, withQuery } from '@/lib/api-client';
import { payoutsQueryKey } from './keys';

export type PayoutsFilter = { status?: PayoutFilter | 'all'; repId?: string; page?: number; pageSize: number };

/** GET /api/payouts: newest first; a rep gets their own, reviewers every rep's. */
export const payoutsQueryOptions = ({ status, repId, page = 0, pageSize }: PayoutsFilter) =>
  queryOptions({
    queryKey: [...payoutsQueryKey, 'list', { status: status ?? 'all', repId: repId ?? null, page, pageSize }],
    queryFn: () =>
      apiPage<Payout>(withQuery('/api/payouts', { status, repId, limit: pageSize, offset: page * pageSize })),
    staleTime: 0,
  });

export function usePayouts(filter: PayoutsFilter) {
  return useQuery({ ...payoutsQueryOptions(filter), placeholderData: keepPreviousData });
}
