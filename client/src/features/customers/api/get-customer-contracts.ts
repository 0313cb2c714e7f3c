import type { ContractSummary } from '@shared/contracts/contract-responses';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiPage, withQuery } from '@/lib/api-client';

export const CUSTOMER_CONTRACTS_PAGE_SIZE = 10;

/** One customer's contracts (those the caller may see), newest first as the API orders them. */
export const customerContractsQueryOptions = (customerId: string, page: number) =>
  queryOptions({
    queryKey: ['/api/contracts', { customerId, page }],
    queryFn: () =>
      apiPage<ContractSummary>(
        withQuery('/api/contracts', {
          customerId,
          limit: CUSTOMER_CONTRACTS_PAGE_SIZE,
          offset: page * CUSTOMER_CONTRACTS_PAGE_SIZE,
        }),
      ),
    staleTime: 0,
  });

export function useCustomerContracts(customerId: string, page: number, options: { enabled?: boolean } = {}) {
  return useQuery({
    ...customerContractsQueryOptions(customerId, page),
    enabled: options.enabled ?? true,
    placeholderData: keepPreviousData,
  });
}
