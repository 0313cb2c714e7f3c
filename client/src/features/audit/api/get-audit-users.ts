import type { User } from '@shared/contracts/auth';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiPage } from '@/lib/api-client';

/** The people the user filter offers (staff and clients, up to 500, by name). */
export const auditUsersQueryOptions = queryOptions({
  queryKey: ['/api/users', 'audit-filter'],
  queryFn: async () => (await apiPage<User>('/api/users?limit=500')).rows,
  staleTime: 60_000,
});

export function useAuditUsers() {
  return useQuery(auditUsersQueryOptions);
}
