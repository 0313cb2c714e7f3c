import type { PipelineSettings, PipelineSettingsValues } from '@shared/contracts/deals';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';
import { pipelineSettingsQueryKey } from './get-pipeline-settings';
import { refreshPipeline } from './keys';

/** PUT /api/settings/pipeline: the stages in order (a stage left out is removed), the lost reasons, rottenDays. */
export const updatePipelineSettings = (input: PipelineSettingsValues) =>
  api<PipelineSettings>('PUT', '/api/settings/pipeline', input);

export function useUpdatePipelineSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePipelineSettings,
    onSuccess: (saved) => {
      queryClient.setQueryData(pipelineSettingsQueryKey, saved);
      toast({
        title: 'Pipeline settings saved',
        description: 'The stages, lost reasons and stale days have been updated.',
      });
      return refreshPipeline(queryClient);
    },
    onError: (error) => {
      toastError('Failed to update pipeline settings', error);
    },
  });
}
