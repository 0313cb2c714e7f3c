import type { Contract } from '@shared/contracts/contract-responses';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { contractsQueryKey } from './get-contracts';

export const getContract = (id: string) => api<Contract>('GET', `/api/contracts/${encodeURIComponent(id)}`);

/** One contract with its customer, package and line items; under the contracts key so every change refreshes it. */
export const contractQueryOptions = (id: string) =>
  queryOptions({
    queryKey: [...contractsQueryKey, 'detail', id],
    queryFn: () => getContract(id),
    staleTime: 0,
  });

export function useContract(id: string | undefined, options: { enabled?: boolean } = {}) {
  return useQuery({ ...contractQueryOptions(id ?? ''), enabled: Boolean(id) && (options.enabled ?? true) });
}
