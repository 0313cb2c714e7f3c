import type { Activity, ActivityDueFilter } from '@shared/contracts/activities';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiPage, withQuery } from '@/lib/api-client';
import { activitiesQueryKey } from './keys';

/** Which activities a list shows (GET /api/activities's filters). */
export type ActivitiesFilter = {
  customerId?: string;
  dealId?: string;
  ownerId?: string;
  due?: ActivityDueFilter;
  done?: boolean;
  limit?: number;
};

/** How many a list shows at most (the card says how many more there are). */
export const ACTIVITIES_PAGE_SIZE = 50;

export const activitiesQueryOptions = (filter: ActivitiesFilter) =>
  queryOptions({
    queryKey: [...activitiesQueryKey, filter],
    queryFn: () =>
      apiPage<Activity>(withQuery('/api/activities', { ...filter, limit: filter.limit ?? ACTIVITIES_PAGE_SIZE })),
    staleTime: 0,
  });

export function useActivities(filter: ActivitiesFilter, options: { enabled?: boolean } = {}) {
  return useQuery({
    ...activitiesQueryOptions(filter),
    enabled: options.enabled ?? true,
    placeholderData: keepPreviousData,
  });
}
