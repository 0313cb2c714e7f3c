import { shortContractId } from '@shared/contracts/contract-vocabulary';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';
import { refreshContractData } from './get-contracts';

export const deleteContract = (id: string) =>
  api<{ message: string }>('DELETE', `/api/contracts/${encodeURIComponent(id)}`);

/** A refused delete (409: payment processing started, or a final status) carries the server's reason. */
export function useDeleteContract() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteContract(id),
    onSuccess: (_result, id) => {
      toast({ title: 'Contract deleted', description: `Contract ${shortContractId(id)} has been removed.` });
      // The deleted contract's own query is left alone: refetching it would only answer 404.
      return refreshContractData(queryClient, {
        predicate: (query) => !(query.queryKey[1] === 'detail' && query.queryKey[2] === id),
      });
    },
    onError: (error) => {
      toastError('Failed to delete contract', error, 'There was an error deleting the contract.');
    },
  });
}
