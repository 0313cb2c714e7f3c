import type { AuditEvent } from '@shared/contracts/dashboard';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiPage, withQuery } from '@/lib/api-client';

export const recentActivityQueryOptions = queryOptions({
  queryKey: ['/api/audit', { limit: 5 }],
  queryFn: () => apiPage<AuditEvent>(withQuery('/api/audit', { limit: 5 })),
  staleTime: 30_000,
});

export function useRecentActivity(enabled = true) {
  return useQuery({ ...recentActivityQueryOptions, enabled });
}
