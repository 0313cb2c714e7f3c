import type { ContractInsertionOrders } from '@shared/contracts/insertion-orders';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const contractInsertionOrdersQueryKey = (contractId: string) =>
  ['/api/contracts', contractId, 'insertion-orders'] as const;

/** GET /api/contracts/{id}/io: every version of a contract's insertion order, with its events (staff). */
export const getContractInsertionOrders = (contractId: string) =>
  api<ContractInsertionOrders>('GET', `/api/contracts/${encodeURIComponent(contractId)}/io`);

export const contractInsertionOrdersQueryOptions = (contractId: string) =>
  queryOptions({
    queryKey: contractInsertionOrdersQueryKey(contractId),
    queryFn: () => getContractInsertionOrders(contractId),
  });

export function useContractInsertionOrders(contractId: string) {
  return useQuery(contractInsertionOrdersQueryOptions(contractId));
}
