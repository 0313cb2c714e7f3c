import type { User } from '@shared/contracts/auth';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiPage } from '@/lib/api-client';

/** A person a deal can belong to: a sales rep or a sales manager. */
export type OwnerOption = { id: string; name: string; isActive: boolean };

const OWNER_ROLES = new Set<User['role']>(['sales', 'sales_manager']);

/**
 * The reps and managers, by name, for the rep filter and the owner select (managers and admins only: the users
 * list is theirs). Under the users key, so user changes refresh it.
 */
export const ownerOptionsQueryOptions = queryOptions({
  queryKey: ['/api/users', 'deal-owner-options'],
  queryFn: async (): Promise<OwnerOption[]> =>
    (await apiPage<User>('/api/users?limit=500')).rows
      .filter((user) => OWNER_ROLES.has(user.role))
      .map((user) => ({ id: user.id, name: `${user.firstName} ${user.lastName}`.trim(), isActive: user.isActive }))
      .sort((a, b) => a.name.localeCompare(b.name, 'en-US')),
  staleTime: 60_000,
});

export function useOwnerOptions(options: { enabled?: boolean } = {}) {
  return useQuery({ ...ownerOptionsQueryOptions, enabled: options.enabled ?? true });
}
