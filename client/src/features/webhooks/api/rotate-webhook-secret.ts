import type { WebhookSecret } from '@shared/contracts/webhooks-vocabulary';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { webhookSecretQueryKey } from './get-webhook-secret';
import { webhooksQueryKey } from './get-webhooks';

export const rotateWebhookSecret = (id: string) => api<WebhookSecret>('POST', `/api/webhooks/${id}/rotate-secret`);

/** A new secret; the previous one keeps signing for 24 hours. The secret shown is the new one. */
export function useRotateWebhookSecret(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => rotateWebhookSecret(id),
    onSuccess: (secret) => {
      queryClient.setQueryData(webhookSecretQueryKey(id), secret);
      return queryClient.invalidateQueries({ queryKey: webhooksQueryKey });
    },
  });
}
