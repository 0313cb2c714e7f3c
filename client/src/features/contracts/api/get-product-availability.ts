import type { ProductAvailability } from '@shared/contracts/inventory-vocabulary';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, withQuery } from '@/lib/api-client';

export type AvailabilityRequest = { productId: string; from: string; to: string; contractId?: string };

export const getProductAvailability = ({ productId, ...range }: AvailabilityRequest) =>
  api<ProductAvailability>('GET', withQuery(`/api/products/${encodeURIComponent(productId)}/availability`, range));

/**
 * What an inventory product has left each day of a flight, leaving out the edited contract's own units. Under
 * the products key (a capacity change refreshes it); always refetched when shown again, as others sell too.
 */
export const productAvailabilityQueryOptions = (request: AvailabilityRequest) =>
  queryOptions({
    queryKey: ['/api/products', request.productId, 'availability', request],
    queryFn: () => getProductAvailability(request),
    staleTime: 0,
  });

export function useProductAvailability(request: AvailabilityRequest | null) {
  return useQuery({
    ...productAvailabilityQueryOptions(request ?? { productId: '', from: '', to: '' }),
    enabled: request !== null,
    placeholderData: keepPreviousData,
  });
}
