import type { DashboardStats } from '@shared/contracts/dashboard';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** mine: the caller's own contracts only (the sales dashboard), else everything the caller may see. */
export const dashboardStatsQueryOptions = (mine: boolean) =>
  queryOptions({
    queryKey: ['/api/dashboard/stats', { mine }],
    queryFn: () => api<DashboardStats>('GET', mine ? '/api/dashboard/stats?mine=true' : '/api/dashboard/stats'),
    staleTime: 30_000,
  });

export function useDashboardStats({ mine = false, enabled = true }: { mine?: boolean; enabled?: boolean } = {}) {
  return useQuery({ ...dashboardStatsQueryOptions(mine), enabled });
}
