import type { IoAcceptInput, PublicInsertionOrder } from '@shared/contracts/insertion-orders';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { insertionOrderQueryKey } from './get-insertion-order';

/** POST /api/io/{token}/accept: the customer signs the version (name and the tick). */
export const acceptInsertionOrder = (token: string, body: IoAcceptInput) =>
  api<PublicInsertionOrder>('POST', `/api/io/${encodeURIComponent(token)}/accept`, body);

/** `onAccepted` runs even though the form that accepted is replaced by the signed record. */
export function useAcceptInsertionOrder(token: string, onAccepted?: (answer: PublicInsertionOrder) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: IoAcceptInput) => acceptInsertionOrder(token, body),
    onSuccess: (answer) => {
      queryClient.setQueryData(insertionOrderQueryKey(token), answer);
      onAccepted?.(answer);
    },
  });
}
