import type { NotificationSettings } from '@shared/contracts/settings';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const notificationSettingsQueryKey = ['/api/settings/notifications'] as const;

export const notificationSettingsQueryOptions = queryOptions({
  queryKey: notificationSettingsQueryKey,
  queryFn: () => api<NotificationSettings>('GET', '/api/settings/notifications'),
});

/** The signed-in user's own email preferences. */
export function useNotificationSettings() {
  return useQuery(notificationSettingsQueryOptions);
}
