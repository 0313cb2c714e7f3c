import type { InventoryCalendar } from '@shared/contracts/inventory-vocabulary';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, withQuery } from '@/lib/api-client';

/** The key every inventory query starts with (the calendar and a day's holders). */
export const inventoryQueryKey = ['/api/inventory'] as const;

export type InventoryRange = { from: string; to: string };

/**
 * Every inventory product with its capacity, booked, held and available units on each day of the range, and
 * each month's sell-through and booked value. `null`: the server's default range (the business's current month
 * and the next ones), which the answer names.
 */
export const inventoryCalendarQueryOptions = (range: InventoryRange | null) =>
  queryOptions({
    queryKey: [...inventoryQueryKey, 'calendar', range ?? 'current'],
    queryFn: () => api<InventoryCalendar>('GET', withQuery('/api/inventory', { from: range?.from, to: range?.to })),
    staleTime: 0,
  });

/** The previous range stays on screen (dimmed) while another one loads. */
export function useInventoryCalendar(range: InventoryRange | null, options: { enabled?: boolean } = {}) {
  return useQuery({
    ...inventoryCalendarQueryOptions(range),
    enabled: options.enabled ?? true,
    placeholderData: keepPreviousData,
  });
}
