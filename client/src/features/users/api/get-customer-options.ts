import type { Customer } from '@shared/contracts/customers';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiPage } from '@/lib/api-client';

export type CustomerOption = Pick<Customer, 'id' | 'name' | 'email'>;

/** The customers a client account can be linked to (loaded only when the role is client). */
export const customerOptionsQueryOptions = queryOptions({
  queryKey: ['/api/customers', 'user-options'],
  queryFn: async (): Promise<CustomerOption[]> =>
    (await apiPage<Customer>('/api/customers?limit=500')).rows.map(({ id, name, email }) => ({ id, name, email })),
  staleTime: 60_000,
});

export function useCustomerOptions(enabled: boolean) {
  return useQuery({ ...customerOptionsQueryOptions, enabled });
}
