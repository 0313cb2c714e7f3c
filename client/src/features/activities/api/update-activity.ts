import type { Activity, ActivityPatchInput } from '@shared/contracts/activities';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';
import { refreshActivities } from './keys';

export const updateActivity = ({ id, input }: { id: string; input: ActivityPatchInput }) =>
  api<Activity>('PATCH', `/api/activities/${encodeURIComponent(id)}`, input);

export function useUpdateActivity() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateActivity,
    onSuccess: (activity) => {
      toast({ title: 'Activity saved', description: activity.subject });
      return refreshActivities(queryClient);
    },
    onError: (error) => {
      toastError('Failed to save the activity', error);
    },
  });
}
