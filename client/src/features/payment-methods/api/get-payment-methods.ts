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

/** `refetchEvery` ms until the time `until` (back from Stripe's page, while its webhook is on its way). */
export function usePaymentMethods(options: { refetchEvery?: number; until?: number } = {}) {
  return useQuery({
    ...paymentMethodsQueryOptions,
    refetchInterval: () => (options.refetchEvery && Date.now() < (options.until ?? 0) ? options.refetchEvery : false),
  });
}
