import type { ForecastTargetsInput } from '@shared/contracts/forecast';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';
import { forecastQueryKey } from './keys';

/** PUT /api/forecast/targets: the (rep, month) targets given are set, money in dollars; the others stay. */
export const saveTargets = (input: ForecastTargetsInput) =>
  api<{ saved: number }>('PUT', '/api/forecast/targets', input);

export function useSaveTargets() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveTargets,
    onSuccess: ({ saved }) => {
      toast({ title: 'Targets saved', description: `${saved} ${saved === 1 ? 'target' : 'targets'} set.` });
      return queryClient.invalidateQueries({ queryKey: forecastQueryKey });
    },
    onError: (error) => {
      toastError('Failed to save targets', error);
    },
  });
}
