import type { CreatedApiKey } from '@shared/contracts/api-key-vocabulary';
import type { CreateApiKeyInput } from '@shared/contracts/api-keys';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { apiKeysQueryKey } from './get-api-keys';

export const createApiKey = (input: CreateApiKeyInput) => api<CreatedApiKey>('POST', '/api/api-keys', input);

/** Makes a key; the dialog shows its secret, and the list refreshes. Errors are shown in the form. */
export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createApiKey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeysQueryKey }),
  });
}
