import type { PaymentMethods } from '@shared/contracts/autopay';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** The key every change of the client's methods or autopay invalidates (or replaces with the answer). */
export const paymentMethodsQueryKey = ['/api/client/payment-methods'] as const;

/** The client's payment methods on file and its autopay switch (GET /api/client/payment-methods). */
export const getPaymentMethods = () => api<PaymentMethods>('GET', '/api/client/payment-methods');

export const paymentMethodsQueryOptions = queryOptions({
  queryKey: paymentMethodsQueryKey,
  queryFn: getPaymentMethods,
});

export function usePaymentMethods() {
  return useQuery(paymentMethodsQueryOptions);
}
