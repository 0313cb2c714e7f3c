import type { IoAcceptInput, PublicInsertionOrder } from '@shared/contracts/insertion-orders';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { insertionOrderQueryKey } from './get-insertion-order';

/** POST /api/io/{token}/accept: the customer signs the version (name and the tick). */
export const acceptInsertionOrder = (token: string, body: IoAcceptInput) =>
  api<PublicInsertionOrder>('POST', `/api/io/${encodeURIComponent(token)}/accept`, body);

export function useAcceptInsertionOrder(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: IoAcceptInput) => acceptInsertionOrder(token, body),
    onSuccess: (answer) => queryClient.setQueryData(insertionOrderQueryKey(token), answer),
  });
}
