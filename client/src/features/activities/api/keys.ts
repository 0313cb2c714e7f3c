import type { QueryClient } from '@tanstack/react-query';

/** The key every activities query starts with ("My day", a customer's, a deal's); mutations invalidate it. */
export const activitiesQueryKey = ['/api/activities'] as const;

export function refreshActivities(queryClient: QueryClient) {
  return queryClient.invalidateQueries({ queryKey: activitiesQueryKey });
}
