import type { CustomerReceivable } from '@shared/contracts/receivables-vocabulary';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { receivablesQueryKey } from './get-receivables';

/** A customer's balance, credit and open invoices (GET /api/receivables/customers/{id}). */
export const customerReceivableQueryOptions = (customerId: string) =>
  queryOptions({
    queryKey: [...receivablesQueryKey, 'customer', customerId],
    queryFn: () => api<CustomerReceivable>('GET', `/api/receivables/customers/${customerId}`),
    staleTime: 0,
  });

export function useCustomerReceivable(customerId: string, options: { enabled?: boolean } = {}) {
  return useQuery({ ...customerReceivableQueryOptions(customerId), enabled: options.enabled ?? true });
}
