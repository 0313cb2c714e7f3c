import type { ContractSummary } from '@shared/contracts/contract-responses';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiPage, withQuery } from '@/lib/api-client';

/** The signed-in rep's newest contracts: the same "own contracts" rule as the contract list. */
export const myContractsQueryOptions = queryOptions({
  queryKey: ['/api/contracts', { mine: true, limit: 5 }],
  queryFn: () => apiPage<ContractSummary>(withQuery('/api/contracts', { mine: true, limit: 5 })),
});

export function useMyContracts() {
  return useQuery(myContractsQueryOptions);
}
