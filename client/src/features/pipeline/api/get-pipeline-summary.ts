import type { PipelineSummary } from '@shared/contracts/deals';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, withQuery } from '@/lib/api-client';
import { filterParams, type PipelineFilters } from '../lib/filters';
import { pipelineSummaryQueryKey } from './keys';

/** The board's columns in order, each with its deals' count, total and weighted total (in dollars). */
export const pipelineSummaryQueryOptions = (filters: PipelineFilters) =>
  queryOptions({
    queryKey: [...pipelineSummaryQueryKey, filters],
    queryFn: () => api<PipelineSummary>('GET', withQuery('/api/pipeline/summary', filterParams(filters))),
    staleTime: 0,
  });

/** The previous figures stay on screen while those of other filters load. */
export function usePipelineSummary(filters: PipelineFilters, options: { enabled?: boolean } = {}) {
  return useQuery({
    ...pipelineSummaryQueryOptions(filters),
    enabled: options.enabled ?? true,
    placeholderData: keepPreviousData,
  });
}
