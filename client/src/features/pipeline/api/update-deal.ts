import type { Deal, DealPatchInput } from '@shared/contracts/deals';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';
import { dealQueryKey } from './get-deal';
import { refreshPipeline } from './keys';

/** PATCH /api/deals/:id with the deal's `version` as last seen: a deal changed meanwhile is refused (409). */
export const updateDeal = ({ id, input }: { id: string; input: DealPatchInput }) =>
  api<Deal>('PATCH', `/api/deals/${encodeURIComponent(id)}`, input);

export function useUpdateDeal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateDeal,
    onSuccess: (deal) => {
      queryClient.setQueryData(dealQueryKey(deal.id), deal);
      toast({ title: 'Deal saved', description: `${deal.title} has been updated.` });
      return refreshPipeline(queryClient);
    },
    onError: (error) => {
      toastError('Failed to save deal', error);
    },
  });
}
