import type { NotificationList } from '@shared/contracts/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { NOTIFICATIONS_KEY } from './get-notifications';

/** Marks one notification read; the list shows it read at once and takes the server's count. */
export function useMarkNotificationRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<{ unreadCount: number }>('POST', `/api/notifications/${id}/read`),
    onMutate: (id) => {
      queryClient.setQueryData<NotificationList>(NOTIFICATIONS_KEY, (list) =>
        list
          ? {
              unreadCount: Math.max(0, list.unreadCount - (list.items.some((i) => i.id === id && !i.readAt) ? 1 : 0)),
              items: list.items.map((i) => (i.id === id && !i.readAt ? { ...i, readAt: new Date().toISOString() } : i)),
            }
          : list,
      );
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_KEY }),
  });
}
