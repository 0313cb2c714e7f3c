import type { NotificationSettings } from '@shared/contracts/settings';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';
import { notificationSettingsQueryKey } from './get-notification-settings';

export const updateNotificationSettings = (input: NotificationSettings) =>
  api<NotificationSettings>('PUT', '/api/settings/notifications', input);

/**
 * Sends all five flags on every toggle. The switch moves at once (optimistic); a failure puts it back.
 */
export function useUpdateNotificationSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateNotificationSettings,
    onMutate: async (next) => {
      await queryClient.cancelQueries({ queryKey: notificationSettingsQueryKey });
      const previous = queryClient.getQueryData<NotificationSettings>(notificationSettingsQueryKey);
      queryClient.setQueryData(notificationSettingsQueryKey, next);
      return { previous };
    },
    onSuccess: () => {
      toast({ title: 'Notification preferences saved', description: 'Your email preferences have been updated.' });
    },
    onError: (error, _next, context) => {
      if (context?.previous) queryClient.setQueryData(notificationSettingsQueryKey, context.previous);
      toastError('Failed to update notification settings', error);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationSettingsQueryKey }),
  });
}
