import type { Customer } from '@shared/contracts/customers';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { customersQueryKey } from './get-customers';

export const customerQueryOptions = (id: string) =>
  queryOptions({
    queryKey: [...customersQueryKey, 'detail', id],
    queryFn: () => api<Customer>('GET', `/api/customers/${encodeURIComponent(id)}`),
    staleTime: 0,
  });

export function useCustomer(id: string) {
  return useQuery(customerQueryOptions(id));
}
