import type { PaymentLinkResponse } from '@shared/contracts/contract-responses';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { refreshContractData } from './get-contracts';

/** Creates the contract's pay link once (later calls answer the same link). */
export const generatePaymentLink = (id: string) =>
  api<PaymentLinkResponse>('POST', `/api/contracts/${encodeURIComponent(id)}/generate-payment-link`);

/** Toasts are left to the caller: it copies the link first, and says so. */
export function useGeneratePaymentLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => generatePaymentLink(id),
    onSettled: () => refreshContractData(queryClient),
  });
}
