import type { Commission, CommissionStatus } from '@shared/contracts/commissions';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiPage, withQuery } from '@/lib/api-client';
import { COMMISSIONS_PAGE_SIZE, commissionsQueryKey } from './keys';

export type CommissionFilter = { status: CommissionStatus | 'all'; repId?: string; page: number };

/** GET /api/commissions: one page of the history, newest first, filtered on the server. */
export const commissionsQueryOptions = ({ status, repId, page }: CommissionFilter) =>
  queryOptions({
    queryKey: [...commissionsQueryKey, 'list', { status, repId: repId ?? null, page }],
    queryFn: () =>
      apiPage<Commission>(
        withQuery('/api/commissions', {
          status,
          repId,
          limit: COMMISSIONS_PAGE_SIZE,
          offset: page * COMMISSIONS_PAGE_SIZE,
        }),
      ),
    staleTime: 0,
  });

export function useCommissions(filter: CommissionFilter) {
  return useQuery({ ...commissionsQueryOptions(filter), placeholderData: keepPreviousData });
}
