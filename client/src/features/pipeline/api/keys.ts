import type { QueryClient } from '@tanstack/react-query';

/** The key every deals query starts with (the board's columns, the list, one deal); mutations invalidate it. */
export const dealsQueryKey = ['/api/deals'] as const;

/** The board's header figures. */
export const pipelineSummaryQueryKey = ['/api/pipeline/summary'] as const;

/**
 * After a deal changes, what shows deals is refetched: the columns and the list, the details, the headers' figures,
 * and the customers (a prospect becomes one; a contract drafted from a deal is the customer's).
 */
export function refreshPipeline(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: dealsQueryKey }),
    queryClient.invalidateQueries({ queryKey: pipelineSummaryQueryKey }),
  ]);
}
