import type { Customer } from '@shared/contracts/customers';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiPage, withQuery } from '@/lib/api-client';

export type CustomerOption = Pick<Customer, 'id' | 'name' | 'email' | 'company'>;

/** How many matches the customer picker offers at a time. */
export const CUSTOMER_MATCHES = 20;

/** Customers whose name, e-mail or company matches, for the deal dialog's picker. Under the customers key. */
export const customerOptionsQueryOptions = (q: string) =>
  queryOptions({
    queryKey: ['/api/customers', 'deal-options', { q }],
    queryFn: async (): Promise<CustomerOption[]> =>
      (await apiPage<Customer>(withQuery('/api/customers', { q, limit: CUSTOMER_MATCHES }))).rows.map(
        ({ id, name, email, company }) => ({ id, name, email, company }),
      ),
    staleTime: 30_000,
  });

export function useCustomerOptions(q: string, options: { enabled?: boolean } = {}) {
  return useQuery({
    ...customerOptionsQueryOptions(q),
    enabled: options.enabled ?? true,
    placeholderData: keepPreviousData,
  });
}
