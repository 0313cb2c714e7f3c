import type { DeliveryPeriod } from '@shared/contracts/delivery';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiPage } from '@/lib/api-client';

/** Under the contracts key: a change to the contract (a line ended, say) refetches its delivery too. */
export const contractDeliveryKey = (contractId: string) => ['/api/contracts', contractId, 'delivery'] as const;

/** Every billed CPM period of a contract, newest period first, then in line order. */
export const contractDeliveryQueryOptions = (contractId: string) =>
  queryOptions({
    queryKey: contractDeliveryKey(contractId),
    queryFn: () => apiPage<DeliveryPeriod>(`/api/contracts/${encodeURIComponent(contractId)}/delivery?limit=500`),
    staleTime: 0,
  });

export function useContractDelivery(contractId: string) {
  return useQuery(contractDeliveryQueryOptions(contractId));
}
