import type { User } from '@shared/contracts/auth';
import { rolesWith } from '@shared/permissions';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiPage } from '@/lib/api-client';

/** A person an activity can belong to: an active user who works the pipeline. */
export type OwnerOption = { id: string; name: string };

const OWNER_ROLES = new Set<User['role']>(rolesWith(['deal:any', 'deal:own']));

/** The active people of the pipeline, by name (managers and admins only: the users list is theirs). */
export const ownerOptionsQueryOptions = queryOptions({
  queryKey: ['/api/users', 'activity-owner-options'],
  queryFn: async (): Promise<OwnerOption[]> =>
    (await apiPage<User>('/api/users?limit=500')).rows
      .filter((user) => user.isActive && OWNER_ROLES.has(user.role))
      .map((user) => ({ id: user.id, name: `${user.firstName} ${user.lastName}`.trim() }))
      .sort((a, b) => a.name.localeCompare(b.name, 'en-US')),
  staleTime: 60_000,
});

export function useOwnerOptions(options: { enabled?: boolean } = {}) {
  return useQuery({ ...ownerOptionsQueryOptions, enabled: options.enabled ?? true });
}
