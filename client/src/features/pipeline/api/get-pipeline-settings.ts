import type { PipelineSettings } from '@shared/contracts/deals';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const pipelineSettingsQueryKey = ['/api/settings/pipeline'] as const;

/** The stages in order, the lost reasons a lost deal chooses from, and the days after which a deal is stale. */
export const pipelineSettingsQueryOptions = queryOptions({
  queryKey: pipelineSettingsQueryKey,
  queryFn: () => api<PipelineSettings>('GET', '/api/settings/pipeline'),
});

export function usePipelineSettings(options: { enabled?: boolean } = {}) {
  return useQuery({ ...pipelineSettingsQueryOptions, enabled: options.enabled ?? true });
}
