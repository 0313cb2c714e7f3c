import type { Deal, DealPayload } from '@shared/contracts/deals';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';
import { refreshPipeline } from './keys';

/** POST /api/deals: an existing customer, or a prospect the deal creates as a customer. */
export const createDeal = (input: DealPayload) => api<Deal>('POST', '/api/deals', input);

export function useCreateDeal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createDeal,
    onSuccess: (deal, input) => {
      toast({ title: 'Deal created', description: `${deal.title} is in ${deal.stageName}.` });
      return Promise.all([
        refreshPipeline(queryClient),
        input.prospect ? queryClient.invalidateQueries({ queryKey: ['/api/customers'] }) : undefined,
      ]);
    },
    onError: (error) => {
      toastError('Failed to create deal', error);
    },
  });
}
