import type { User } from '@shared/contracts/auth';
import type { Role } from '@shared/roles';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiPage, withQuery } from '@/lib/api-client';

/** The key every users query starts with; mutations invalidate it so every page and filter refreshes. */
export const usersQueryKey = ['/api/users'] as const;

export const USERS_PAGE_SIZE = 24;

export type UsersFilter = { q: string; role: Role | 'all'; page: number };

export const usersQueryOptions = ({ q, role, page }: UsersFilter) =>
  queryOptions({
    queryKey: [...usersQueryKey, { q, role, page }],
    queryFn: () =>
      apiPage<User>(
        withQuery('/api/users', { q: q.trim(), role, limit: USERS_PAGE_SIZE, offset: page * USERS_PAGE_SIZE }),
      ),
  });

/** One page of users, filtered on the server; the previous page stays on screen while the next one loads. */
export function useUsers(filter: UsersFilter, options: { enabled?: boolean } = {}) {
  return useQuery({
    ...usersQueryOptions(filter),
    enabled: options.enabled ?? true,
    placeholderData: keepPreviousData,
  });
}
