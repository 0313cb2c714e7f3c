import type { UpdateWebhookInput } from '@shared/contracts/webhooks';
import type { WebhookEndpointView } from '@shared/contracts/webhooks-vocabulary';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { webhooksQueryKey } from './get-webhooks';

export const updateWebhook = ({ id, ...input }: UpdateWebhookInput & { id: string }) =>
  api<WebhookEndpointView>('PATCH', `/api/webhooks/${id}`, input);

/** Changes an endpoint (its URL, description, events) or turns it off or on; the list refreshes. */
export function useUpdateWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateWebhook,
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhooksQueryKey }),
  });
}
