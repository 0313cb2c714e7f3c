import type { ClientContract } from '@shared/contracts/dashboard';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiPage, withQuery } from '@/lib/api-client';

export const CLIENT_CONTRACTS_PAGE_SIZE = 20;

/** A page of the signed-in client's own contracts (GET /api/client/contracts, never drafts). */
export const clientContractsPageQueryOptions = (page: number) =>
  queryOptions({
    queryKey: ['/api/client/contracts', 'page', page],
    queryFn: () =>
      apiPage<ClientContract>(
        withQuery('/api/client/contracts', {
          limit: CLIENT_CONTRACTS_PAGE_SIZE,
          offset: page * CLIENT_CONTRACTS_PAGE_SIZE,
        }),
      ),
    staleTime: 0,
  });

export function useClientContractsPage(page: number, options: { enabled?: boolean } = {}) {
  return useQuery({ ...clientContractsPageQueryOptions(page), placeholderData: keepPreviousData, ...options });
}
