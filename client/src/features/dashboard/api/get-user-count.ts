import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiPage } from '@/lib/api-client';

/** The number of users, from X-Total-Count (one row fetched). */
export const userCountQueryOptions = queryOptions({
  queryKey: ['/api/users', 'count'],
  queryFn: async () => (await apiPage<unknown>('/api/users?limit=1')).total,
  staleTime: 30_000,
});

export function useUserCount(enabled = true) {
  return useQuery({ ...userCountQueryOptions, enabled });
}
