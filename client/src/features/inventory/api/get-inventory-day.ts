import type { InventoryDay } from '@shared/contracts/inventory-vocabulary';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { inventoryQueryKey } from './get-inventory-calendar';

/** One day of an inventory product: its figures and the contracts holding (sent) or booking (active, paused) it. */
export const inventoryDayQueryOptions = (productId: string, date: string) =>
  queryOptions({
    queryKey: [...inventoryQueryKey, 'day', productId, date],
    queryFn: () =>
      api<InventoryDay>('GET', `/api/inventory/${encodeURIComponent(productId)}/${encodeURIComponent(date)}`),
    staleTime: 0,
  });

export function useInventoryDay(selection: { productId: string; date: string } | null) {
  return useQuery({
    ...inventoryDayQueryOptions(selection?.productId ?? '', selection?.date ?? ''),
    enabled: selection !== null,
  });
}
