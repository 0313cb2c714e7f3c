import type { Creative } from '@shared/contracts/creatives';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiPage } from '@/lib/api-client';

export const contractCreativesKey = (contractId: string) => ['/api/contracts', contractId, 'creatives'] as const;

/** A contract's creatives, newest first (staff who may read the contract, and its client). */
export const contractCreativesQueryOptions = (contractId: string) =>
  queryOptions({
    queryKey: contractCreativesKey(contractId),
    queryFn: () => apiPage<Creative>(`/api/contracts/${encodeURIComponent(contractId)}/creatives?limit=200`),
  });

export function useContractCreatives(contractId: string) {
  return useQuery(contractCreativesQueryOptions(contractId));
}
