import type { ApiKeyView } from '@shared/contracts/api-key-vocabulary';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiPage, withQuery } from '@/lib/api-client';

/** The key every API-key query starts with; making or revoking a key invalidates it. */
export const apiKeysQueryKey = ['/api/api-keys'] as const;

export const API_KEYS_PAGE_SIZE = 20;

export const apiKeysQueryOptions = (page: number) =>
  queryOptions({
    queryKey: [...apiKeysQueryKey, { page }],
    queryFn: () =>
      apiPage<ApiKeyView>(withQuery('/api/api-keys', { limit: API_KEYS_PAGE_SIZE, offset: page * API_KEYS_PAGE_SIZE })),
  });

/** One page of keys, newest first; the previous page stays on screen while the next one loads. */
export function useApiKeys(page: number) {
  return useQuery({ ...apiKeysQueryOptions(page), placeholderData: keepPreviousData });
}
