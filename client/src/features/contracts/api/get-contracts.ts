import type { ContractSummary } from '@shared/contracts/contract-responses';
import type { ContractStatus, PauseReason } from '@shared/contracts/contract-vocabulary';
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

export type ContractsFilter = {
  q: string;
  status: ContractStatus | 'all';
  /** Why a paused contract is paused (the reason filter beside the status filter). */
  reason?: PauseReason | 'all';
  /** Running contracts ending within this many days (the Reports screen's alert link). */
  expiring?: number;
  page: number;
};

/** One page of contracts, searched (description or id) and filtered by status and pause reason on the server. */
export const contractsQueryOptions = ({ q, status, reason = 'all', expiring, page }: ContractsFilter) =>
  queryOptions({
    queryKey: [...contractsQueryKey, 'list', { q, status, reason, expiring, page }],
    queryFn: () =>
      apiPage<ContractSummary>(
        withQuery('/api/contracts', {
          q,
          status,
          reason,
          expiring,
          limit: CONTRACTS_PAGE_SIZE,
          offset: page * CONTRACTS_PAGE_SIZE,
        }),
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
