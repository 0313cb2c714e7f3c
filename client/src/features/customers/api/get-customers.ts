import type { Customer } from '@shared/contracts/customers';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiPage, withQuery } from '@/lib/api-client';

/** The key every customers query starts with (lists and single customers); mutations invalidate it. */
export const customersQueryKey = ['/api/customers'] as const;

export const CUSTOMERS_PAGE_SIZE = 24;

export type CustomersFilter = { q: string; page: number };

/**
 * One page of customers, searched on the server (name, e-mail, company). Always refetched when the screen
 * opens: the contract counts on the cards change when contracts are created elsewhere.
 */
export const customersQueryOptions = ({ q, page }: CustomersFilter) =>
  queryOptions({
    queryKey: [...customersQueryKey, 'list', { q, page }],
    queryFn: () =>
      apiPage<Customer>(
        withQuery('/api/customers', { q, limit: CUSTOMERS_PAGE_SIZE, offset: page * CUSTOMERS_PAGE_SIZE }),
      ),
    staleTime: 0,
  });

/** The previous page stays on screen while the next one loads. */
export function useCustomers(filter: CustomersFilter) {
  return useQuery({ ...customersQueryOptions(filter), placeholderData: keepPreviousData });
}
