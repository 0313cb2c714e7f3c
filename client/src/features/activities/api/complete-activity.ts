import type { Activity } from '@shared/contracts/activities';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';
import type { ActivitiesFilter } from './get-activities';
import { activitiesQueryKey, refreshActivities } from './keys';

/** POST /api/activities/:id/complete: done in one call (one already done is answered as it is). */
export const completeActivity = (activity: Pick<Activity, 'id'>) =>
  api<Activity>('POST', `/api/activities/${encodeURIComponent(activity.id)}/complete`);

type Page = { rows: Activity[]; total: number; totalIsLowerBound: boolean };

/**
 * "Mark done": the row shows done at once (a list of open ones drops it), and the lists are asked again once the
 * server has answered.
 */
export function useCompleteActivity() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (activity: Pick<Activity, 'id' | 'subject'>) => completeActivity(activity),
    onMutate: async (activity) => {
      await queryClient.cancelQueries({ queryKey: activitiesQueryKey });
      for (const [key, page] of queryClient.getQueriesData<Page>({ queryKey: activitiesQueryKey })) {
        if (!page?.rows.some((row) => row.id === activity.id)) continue;
        const filter = (key[1] ?? {}) as ActivitiesFilter;
        const rows =
          filter.done === false
            ? page.rows.filter((row) => row.id !== activity.id)
            : page.rows.map((row) => (row.id === activity.id ? { ...row, done: true, overdue: false } : row));
        queryClient.setQueryData<Page>(key, { ...page, rows, total: page.total - (page.rows.length - rows.length) });
      }
    },
    onSuccess: (activity) => {
      toast({ title: 'Marked done', description: activity.subject });
    },
    onError: (error) => {
      toastError('Failed to mark the activity done', error);
    },
    onSettled: () => refreshActivities(queryClient),
  });
}
