import type { WebhookDeliveryView } from '@shared/contracts/webhooks-vocabulary';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';
import { webhookDeliveriesQueryKey } from './get-webhook-deliveries';

export const resendWebhookDelivery = (id: string, deliveryId: string) =>
  api<WebhookDeliveryView>('POST', `/api/webhooks/${id}/deliveries/${deliveryId}/resend`);

/** The delivery's event again (same webhook-id), as a new row of the log. */
export function useResendWebhookDelivery(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: string) => resendWebhookDelivery(id, deliveryId),
    onSuccess: () => toast({ title: 'Event queued again', description: 'It is sent within a few seconds.' }),
    onError: (error) => toastError('Failed to resend', error),
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhookDeliveriesQueryKey(id) }),
  });
}
