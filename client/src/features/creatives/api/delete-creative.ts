import type { Creative } from '@shared/contracts/creatives';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';
import { CLIENT_CREATIVES_KEY } from './get-client-creatives';
import { contractCreativesKey } from './get-contract-creatives';

export const deleteCreative = (creative: Pick<Creative, 'id'>) =>
  api<{ message: string }>('DELETE', `/api/creatives/${encodeURIComponent(creative.id)}`);

export function useDeleteCreative() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (creative: Creative) => deleteCreative(creative),
    onSuccess: (_result, creative) => {
      toast({ title: 'Creative deleted', description: creative.originalName });
      void queryClient.invalidateQueries({ queryKey: CLIENT_CREATIVES_KEY });
      void queryClient.invalidateQueries({ queryKey: contractCreativesKey(creative.contractId) });
    },
    onError: (error) => toastError('Failed to delete the creative', error),
  });
}
