import type { ApiKeyView } from '@shared/contracts/api-key-vocabulary';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';
import { apiKeysQueryKey } from './get-api-keys';

export const revokeApiKey = (id: string) => api<ApiKeyView>('POST', `/api/api-keys/${id}/revoke`);

export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeApiKey,
    onSuccess: (key) => {
      toast({ title: 'API key revoked', description: `“${key.name}” no longer works.` });
      return queryClient.invalidateQueries({ queryKey: apiKeysQueryKey });
    },
    onError: (error) => {
      toastError('Failed to revoke the API key', error);
      return queryClient.invalidateQueries({ queryKey: apiKeysQueryKey });
    },
  });
}
