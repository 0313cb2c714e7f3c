import type { NotificationList } from '@shared/contracts/notifications';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const NOTIFICATIONS_KEY = ['/api/notifications'] as const;

/** The bell's list (newest first) and unread count; refreshed every minute and when the window regains focus. */
export const notificationsQueryOptions = queryOptions({
  queryKey: NOTIFICATIONS_KEY,
  queryFn: () => api<NotificationList>('GET', '/api/notifications?limit=20'),
  refetchInterval: 60_000,
  staleTime: 15_000,
});

export function useNotifications() {
  return useQuery(notificationsQueryOptions);
}
