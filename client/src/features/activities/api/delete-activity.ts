import type { Activity } from '@shared/contracts/activities';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';
import { refreshActivities } from './keys';

export const deleteActivity = (activity: Pick<Activity, 'id'>) =>
  api<{ message: string }>('DELETE', `/api/activities/${encodeURIComponent(activity.id)}`);

export function useDeleteActivity() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (activity: Pick<Activity, 'id' | 'subject'>) => deleteActivity(activity),
    onSuccess: (_result, activity) => {
      toast({ title: 'Activity deleted', description: activity.subject });
      return refreshActivities(queryClient);
    },
    onError: (error) => {
      toastError('Failed to delete the activity', error);
    },
  });
}
