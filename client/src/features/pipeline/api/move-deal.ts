import type { Deal, DealMoveValues, PipelineStage, PipelineSummary } from '@shared/contracts/deals';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';
import type { PipelineFilters } from '../lib/filters';
import { movedDeal, summaryAfterMove, withDealFirst, withoutDeal } from '../lib/optimistic-move';
import { dealQueryKey } from './get-deal';
import { type StageDeals, stageDealsQueryKey } from './get-deals';
import { pipelineSummaryQueryOptions } from './get-pipeline-summary';
import { refreshPipeline } from './keys';

/**
 * POST /api/deals/:id/move. Refused with the server's reason: a deal changed meanwhile (409, stale `version`), Won
 * without a signed or active contract, a lost stage without a reason.
 */
export const moveDeal = ({ id, ...input }: DealMoveValues & { id: string }) =>
  api<Deal>('POST', `/api/deals/${encodeURIComponent(id)}/move`, input);

/** The deal as the board showed it, where it goes, the lost reason, and the filters of the board it was on. */
export type MoveDealVariables = { deal: Deal; to: PipelineStage; reason?: string; filters: PipelineFilters };

/**
 * Moves a card at once (both columns and the header figures), then asks the server; a refusal puts everything
 * back and says why in a toast. Either way the board is refetched afterwards.
 */
export function useMoveDeal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ deal, to, reason }: MoveDealVariables) =>
      moveDeal({ id: deal.id, stageId: to.id, reason, version: deal.version }),
    onMutate: async ({ deal, to, reason, filters }) => {
      const keys = {
        from: stageDealsQueryKey(deal.stageId, filters),
        to: stageDealsQueryKey(to.id, filters),
        summary: pipelineSummaryQueryOptions(filters).queryKey,
      };
      await Promise.all(Object.values(keys).map((queryKey) => queryClient.cancelQueries({ queryKey })));
      const previous = {
        from: queryClient.getQueryData<StageDeals>(keys.from),
        to: queryClient.getQueryData<StageDeals>(keys.to),
        summary: queryClient.getQueryData<PipelineSummary>(keys.summary),
      };
      const after = movedDeal(deal, to, reason);
      if (previous.from) queryClient.setQueryData(keys.from, withoutDeal(previous.from, deal.id));
      if (previous.to) queryClient.setQueryData(keys.to, withDealFirst(previous.to, after));
      if (previous.summary) queryClient.setQueryData(keys.summary, summaryAfterMove(previous.summary, deal, after));
      return { keys, previous };
    },
    onError: (error, _variables, context) => {
      if (context) {
        queryClient.setQueryData(context.keys.from, context.previous.from);
        queryClient.setQueryData(context.keys.to, context.previous.to);
        queryClient.setQueryData(context.keys.summary, context.previous.summary);
      }
      toastError('Could not move the deal', error);
    },
    onSuccess: (deal) => {
      queryClient.setQueryData(dealQueryKey(deal.id), deal);
    },
    onSettled: () => refreshPipeline(queryClient),
  });
}
