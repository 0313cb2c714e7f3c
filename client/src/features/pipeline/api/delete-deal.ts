import type { Deal } from '@shared/contracts/deals';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';
import { refreshPipeline } from './keys';

/** Only an open deal without a contract can be deleted; the server says why otherwise (the toast shows it). */
export const deleteDeal = (deal: Pick<Deal, 'id'>) =>
  api<{ message: string }>('DELETE', `/api/deals/${encodeURIComponent(deal.id)}`);

export function useDeleteDeal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (deal: Pick<Deal, 'id' | 'title'>) => deleteDeal(deal),
    onSuccess: (_result, deal) => {
      toast({ title: 'Deal deleted', description: `${deal.title} has been removed.` });
      return refreshPipeline(queryClient);
    },
    onError: (error) => {
      toastError('Failed to delete deal', error);
    },
  });
}
