import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';
import { webhooksQueryKey } from './get-webhooks';

export const deleteWebhook = (id: string) => api<{ message: string }>('DELETE', `/api/webhooks/${id}`);

export function useDeleteWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteWebhook,
    onSuccess: () => toast({ title: 'Endpoint deleted', description: 'It gets no more events.' }),
    onError: (error) => toastError('Failed to delete the endpoint', error),
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhooksQueryKey }),
  });
}
