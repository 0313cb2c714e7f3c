import type { Activity, ActivityCreateInput } from '@shared/contracts/activities';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';
import { refreshActivities } from './keys';

export const createActivity = (input: ActivityCreateInput) => api<Activity>('POST', '/api/activities', input);

export function useCreateActivity() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createActivity,
    onSuccess: (activity) => {
      toast({ title: 'Activity logged', description: activity.subject });
      return refreshActivities(queryClient);
    },
    onError: (error) => {
      toastError('Failed to log the activity', error);
    },
  });
}
