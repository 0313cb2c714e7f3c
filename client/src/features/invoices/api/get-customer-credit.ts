import type { CustomerCredit } from '@shared/contracts/credit-notes';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** Under the customers key: a credit note or a refund changes the customer's balance as well. */
export const customerCreditQueryKey = ['/api/customers', 'credit'] as const;

/** A customer's credit balance and its movements, newest first. */
export const customerCreditQueryOptions = (customerId: string) =>
  queryOptions({
    queryKey: [...customerCreditQueryKey, customerId],
    queryFn: () => api<CustomerCredit>('GET', `/api/customers/${encodeURIComponent(customerId)}/credit`),
    staleTime: 0,
  });

export function useCustomerCredit(customerId: string, options: { enabled?: boolean } = {}) {
  return useQuery({ ...customerCreditQueryOptions(customerId), enabled: options.enabled ?? true });
}
