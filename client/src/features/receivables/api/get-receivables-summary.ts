import type { ReceivablesSummary } from '@shared/contracts/receivables-vocabulary';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, withQuery } from '@/lib/api-client';
import { type ReceivablesFilter, receivablesParams, receivablesQueryKey } from './get-receivables';

/** The totals of the filtered customers (GET /api/receivables/summary): the cards above the list. */
export const receivablesSummaryQueryOptions = (filter: Omit<ReceivablesFilter, 'sort'>) =>
  queryOptions({
    queryKey: [...receivablesQueryKey, 'summary', filter],
    queryFn: () =>
      api<ReceivablesSummary>(
        'GET',
        withQuery('/api/receivables/summary', {
          ...receivablesParams({ ...filter, sort: 'balance' }),
          sort: undefined,
        }),
      ),
    staleTime: 0,
  });

export function useReceivablesSummary(filter: Omit<ReceivablesFilter, 'sort'>, options: { enabled?: boolean } = {}) {
  return useQuery({
    ...receivablesSummaryQueryOptions(filter),
    enabled: options.enabled ?? true,
    placeholderData: keepPreviousData,
  });
}
