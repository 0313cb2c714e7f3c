import type { DunningStage } from '@shared/contracts/invoice-vocabulary';
import type { AgingBucket, ReceivableRow, ReceivablesSort } from '@shared/contracts/receivables-vocabulary';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiPage, withQuery } from '@/lib/api-client';

/** The key every receivables query starts with (the list, its summary, a customer's balance). */
export const receivablesQueryKey = ['/api/receivables'] as const;

export type ReceivablesFilter = {
  q: string;
  bucket: AgingBucket | 'all';
  stage: DunningStage | 'all';
  credit: boolean;
  /** Only customers with an open invoice whose latest autopay attempt failed. */
  autopayFailed: boolean;
  sort: ReceivablesSort;
};

/** The filters as the server reads them (GET /api/receivables, its summary and its export). */
export const receivablesParams = (filter: ReceivablesFilter) => ({
  q: filter.q,
  bucket: filter.bucket,
  stage: filter.stage,
  credit: filter.credit ? 'true' : undefined,
  autopay: filter.autopayFailed ? 'failed' : undefined,
  sort: filter.sort,
});

export const RECEIVABLES_PAGE_SIZE = 25;

/** One page of the customers owing money or holding credit, filtered and ordered on the server. */
export const receivablesQueryOptions = (filter: ReceivablesFilter, page: number) =>
  queryOptions({
    queryKey: [...receivablesQueryKey, 'list', filter, page],
    queryFn: () =>
      apiPage<ReceivableRow>(
        withQuery('/api/receivables', {
          ...receivablesParams(filter),
          limit: RECEIVABLES_PAGE_SIZE,
          offset: page * RECEIVABLES_PAGE_SIZE,
        }),
      ),
    staleTime: 0,
  });

/** The previous page stays on screen while the next one loads. */
export function useReceivables(filter: ReceivablesFilter, page: number, options: { enabled?: boolean } = {}) {
  return useQuery({
    ...receivablesQueryOptions(filter, page),
    enabled: options.enabled ?? true,
    placeholderData: keepPreviousData,
  });
}
