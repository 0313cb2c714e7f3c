import type { Deal, DealLoseValues } from '@shared/contracts/deals';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';
import { dealQueryKey } from './get-deal';
import { refreshPipeline } from './keys';

/** POST /api/deals/:id/lose: closes the deal as lost, with one of the settings' lost reasons. */
export const loseDeal = ({ id, ...input }: DealLoseValues & { id: string }) =>
  api<Deal>('POST', `/api/deals/${encodeURIComponent(id)}/lose`, input);

export function useLoseDeal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: loseDeal,
    onSuccess: (deal) => {
      queryClient.setQueryData(dealQueryKey(deal.id), deal);
      toast({ title: 'Deal marked as lost', description: `${deal.title}: ${deal.lostReason ?? 'lost'}.` });
      return refreshPipeline(queryClient);
    },
    onError: (error) => {
      toastError('Failed to mark the deal as lost', error);
    },
  });
}
