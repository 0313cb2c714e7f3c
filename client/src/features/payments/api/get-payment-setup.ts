import type { PaymentSetupPage } from '@shared/contracts/autopay';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const paymentSetupQueryKey = (token: string) => ['payment-setup', token] as const;

/** The public set-up page (/setup/{token}): whose method it saves; 404 unknown, 410 expired or used. */
export const getPaymentSetup = (token: string) =>
  api<PaymentSetupPage>('GET', `/api/setup/${encodeURIComponent(token)}`);

export const paymentSetupQueryOptions = (token: string) =>
  queryOptions({
    queryKey: paymentSetupQueryKey(token),
    queryFn: () => getPaymentSetup(token),
    staleTime: 0,
    retry: false,
  });

export function usePaymentSetup(token: string) {
  return useQuery(paymentSetupQueryOptions(token));
}
