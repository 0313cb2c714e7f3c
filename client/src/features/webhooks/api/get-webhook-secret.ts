import type { WebhookSecret } from '@shared/contracts/webhooks-vocabulary';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const webhookSecretQueryKey = (id: string) => ['/api/webhooks', id, 'secret'] as const;

/** An endpoint's signing secret, fetched only when an admin asks to see it (the reveal is audited). */
export function useWebhookSecret(id: string, revealed: boolean) {
  return useQuery({
    queryKey: webhookSecretQueryKey(id),
    queryFn: () => api<WebhookSecret>('GET', `/api/webhooks/${id}/secret`),
    enabled: revealed,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
  });
}
