import type { ContractSummary } from '@shared/contracts/contract-responses';
import type { ContractStatus } from '@shared/contracts/contract-vocabulary';
import type { Query, QueryClient } from '@tanstack/react-query';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiPage, withQuery } from '@/lib/api-client';

/** The key every contracts query starts with (lists and single contracts); mutations invalidate it. */
export const contractsQueryKey = ['/api/contracts'] as const;

/**
 * After a contract changes, what depends on contracts is refetched too: the contract lists and details,
 * the customers' contract counts and the dashboard figures (data never goes stale on its own).
 */
export function refreshContractData(queryClient: QueryClient, filters: { predicate?: (query: Query) => boolean } = {}) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: contractsQueryKey, ...filters }),
    queryClient.invalidateQueries({ queryKey: ['/api/customers'] }),
    queryClient.invalidateQueries({ queryKey: ['/api/dashboard/stats'] }),
    queryClient.invalidateQueries({ queryKey: ['/api/client/contracts'] }),
  ]);
}

export const CONTRACTS_PAGE_SIZE = 20;

export type ContractsFilter = { q: string; status: ContractStatus | 'all'; page: number };

/** One page of contracts, searched (description or id) and filtered by status on the server. */
export const contractsQueryOptions = ({ q, status, page }: ContractsFilter) =>
  queryOptions({
    queryKey: [...contractsQueryKey, 'list', { q, status, page }],
    queryFn: () =>
      apiPage<ContractSummary>(
        withQuery('/api/contracts', { q, status, limit: CONTRACTS_PAGE_SIZE, offset: page * CONTRACTS_PAGE_SIZE }),
      ),
    staleTime: 0,
  });

/** The previous page stays on screen while the next one loads. */
export function useContracts(filter: ContractsFilter, options: { enabled?: boolean } = {}) {
  return useQuery({
    ...contractsQueryOptions(filter),
    enabled: options.enabled ?? true,
    placeholderData: keepPreviousData,
  });
}
