import type { Customer } from '@shared/contracts/customers';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/**
 * The contract form's customer as GET /api/customers/{id} answers it, for its agency of record (the "Bill to"
 * choice, product.md section 20). Under the customers' own key, so a change of the customer refreshes it.
 */
export const contractCustomerQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ['/api/customers', 'detail', id],
    queryFn: () => api<Customer>('GET', `/api/customers/${encodeURIComponent(id)}`),
    staleTime: 30_000,
  });

/** The customer's agency of record today (null: none, or not loaded yet). */
export function useCustomerAgency(customerId: string) {
  const query = useQuery({ ...contractCustomerQueryOptions(customerId), enabled: Boolean(customerId) });
  return { agency: query.data?.agencyOfRecord ?? null, customerName: query.data?.name ?? null, ...query };
}
