import type { IoDeclineInput, PublicInsertionOrder } from '@shared/contracts/insertion-orders';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { insertionOrderQueryKey } from './get-insertion-order';

/** POST /api/io/{token}/decline: the customer declines the version, saying why. */
export const declineInsertionOrder = (token: string, body: IoDeclineInput) =>
  api<PublicInsertionOrder>('POST', `/api/io/${encodeURIComponent(token)}/decline`, body);

export function useDeclineInsertionOrder(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: IoDeclineInput) => declineInsertionOrder(token, body),
    onSuccess: (answer) => queryClient.setQueryData(insertionOrderQueryKey(token), answer),
  });
}
