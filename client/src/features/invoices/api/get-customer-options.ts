import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiPage } from '@/lib/api-client';

export type CustomerOption = { id: string; name: string; company: string | null };

/** Customers for the Invoices screen's customer filter (by name). */
export const customerOptionsQueryOptions = () =>
  queryOptions({
    queryKey: ['/api/customers', 'invoice-filter-options'],
    queryFn: async () => (await apiPage<CustomerOption>('/api/customers?limit=500')).rows,
    staleTime: 60_000,
  });

export function useCustomerOptions(options: { enabled?: boolean } = {}) {
  return useQuery({ ...customerOptionsQueryOptions(), enabled: options.enabled ?? true });
}
