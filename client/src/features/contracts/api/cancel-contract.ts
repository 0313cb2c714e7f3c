import type { CancelContractInput } from '@shared/contracts/contract-api';
import type { Contract } from '@shared/contracts/contract-responses';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';
import { refreshContractData } from './get-contracts';

/** Any open contract -> canceled, with the reason (required). */
export const cancelContract = ({ id, input }: { id: string; input: CancelContractInput }) =>
  api<Contract>('POST', `/api/contracts/${encodeURIComponent(id)}/cancel`, input);

export function useCancelContract() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelContract,
    onSuccess: () => {
      toast({ title: 'Contract canceled', description: 'No further invoices will be issued for it.' });
      return refreshContractData(queryClient);
    },
    onError: (error) => {
      toastError('Failed to cancel contract', error);
    },
  });
}
