import type { CustomerCredit } from '@shared/contracts/credit-notes';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** The client's credit balance (its own customer's), under the same key as the customer page's. */
export const clientCreditQueryOptions = (customerId: string) =>
  queryOptions({
    queryKey: ['/api/customers', 'credit', customerId],
    queryFn: () => api<CustomerCredit>('GET', `/api/customers/${encodeURIComponent(customerId)}/credit`),
  });

export function useClientCredit(customerId: string | null) {
  return useQuery({ ...clientCreditQueryOptions(customerId ?? ''), enabled: Boolean(customerId) });
}
