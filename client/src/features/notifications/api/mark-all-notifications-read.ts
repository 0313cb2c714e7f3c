import type { NotificationList } from '@shared/contracts/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { NOTIFICATIONS_KEY } from './get-notifications';

export function useMarkAllNotificationsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api<{ unreadCount: number }>('POST', '/api/notifications/read-all'),
    onMutate: () => {
      const now = new Date().toISOString();
      queryClient.setQueryData<NotificationList>(NOTIFICATIONS_KEY, (list) =>
        list ? { unreadCount: 0, items: list.items.map((i) => (i.readAt ? i : { ...i, readAt: now })) } : list,
      );
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_KEY }),
  });
}
