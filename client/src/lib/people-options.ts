import type { User } from '@shared/contracts/auth';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiPage } from '@/lib/api-client';

/** A person to choose in a rep filter, an owner select or the targets dialog; an inactive one is marked. */
export type PersonOption = { id: string; name: string; isActive: boolean };

type Person = PersonOption & { role: User['role'] };

/**
 * The users by name, read once for every screen that chooses people (managers and admins only: the users list is
 * theirs); each asks for the roles it offers through `select`. Under the users key, so user changes refresh it.
 */
const peopleQueryOptions = queryOptions({
  queryKey: ['/api/users', 'people-options'],
  queryFn: async (): Promise<Person[]> =>
    (await apiPage<User>('/api/users?limit=500')).rows
      .map((user) => ({
        id: user.id,
        name: `${user.firstName} ${user.lastName}`.trim(),
        isActive: user.isActive,
        role: user.role,
      }))
      .sort((a, b) => a.name.localeCompare(b.name, 'en-US') || a.id.localeCompare(b.id)),
  staleTime: 60_000,
});

/** The people who sell: reps and sales managers (deal owners, the forecast's rows and targets). */
export const SELLER_ROLES: readonly User['role'][] = ['sales', 'sales_manager'];

export function usePeopleOptions(options: { roles: readonly User['role'][]; activeOnly?: boolean; enabled?: boolean }) {
  const { roles, activeOnly = false, enabled = true } = options;
  return useQuery({
    ...peopleQueryOptions,
    enabled,
    select: (people): PersonOption[] =>
      people
        .filter((person) => roles.includes(person.role) && (!activeOnly || person.isActive))
        .map(({ id, name, isActive }) => ({ id, name, isActive })),
  });
}
