import type { User } from '@shared/contracts/auth';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, api } from '@/lib/api-client';

export const meQueryKey = ['/api/auth/me'] as const;

/** The signed-in user; a 401 means nobody is signed in (null), not an error. Fresh for 5 minutes, never retried. */
export const meQueryOptions = queryOptions({
  queryKey: meQueryKey,
  queryFn: async (): Promise<User | null> => {
    try {
      return await api<User>('GET', '/api/auth/me');
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return null;
      throw error;
    }
  },
  staleTime: 300_000,
  retry: false,
});

export function useCurrentUser() {
  const query = useQuery(meQueryOptions);
  return { user: query.data ?? null, isLoading: query.isLoading, error: query.error };
}
