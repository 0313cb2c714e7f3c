import type { WebhookDeliveryView } from '@shared/contracts/webhooks-vocabulary';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';
import { webhookDeliveriesQueryKey } from './get-webhook-deliveries';
import { webhooksQueryKey } from './get-webhooks';

export const sendWebhookTest = (id: string) => api<WebhookDeliveryView>('POST', `/api/webhooks/${id}/test`);

/** A `webhook.test` event to this endpoint, through the same queue and signing; its result shows in the log. */
export function useSendWebhookTest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendWebhookTest,
    onSuccess: () => toast({ title: 'Test event queued', description: 'Its result shows in the delivery log.' }),
    onError: (error) => toastError('Failed to send a test event', error),
    onSettled: (_data, _error, id) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: webhookDeliveriesQueryKey(id) }),
        queryClient.invalidateQueries({ queryKey: webhooksQueryKey, exact: false }),
      ]),
  });
}
