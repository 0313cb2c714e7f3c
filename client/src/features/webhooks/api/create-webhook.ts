import type { CreateWebhookInput } from '@shared/contracts/webhooks';
import type { CreatedWebhookEndpoint } from '@shared/contracts/webhooks-vocabulary';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { webhooksQueryKey } from './get-webhooks';

export const createWebhook = (input: CreateWebhookInput) => api<CreatedWebhookEndpoint>('POST', '/api/webhooks', input);

/** Registers an endpoint; the list refreshes. Errors (a refused URL) are shown in the form. */
export function useCreateWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createWebhook,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhooksQueryKey }),
  });
}
