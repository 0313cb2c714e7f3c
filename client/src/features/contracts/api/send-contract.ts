import type { Contract } from '@shared/contracts/contract-responses';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';
import { refreshContractData } from './get-contracts';

/** Draft -> sent: e-mails the contract (with its pay link, or a portal invitation). */
export const sendContract = (id: string) => api<Contract>('POST', `/api/contracts/${encodeURIComponent(id)}/send`);

export function useSendContract() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => sendContract(id),
    onSuccess: (contract) => {
      toast({
        title: 'Contract sent',
        description: contract.customer?.email
          ? `The contract was e-mailed to ${contract.customer.email}.`
          : 'The contract was e-mailed to the customer.',
      });
      return refreshContractData(queryClient);
    },
    onError: (error) => {
      toastError('Failed to send contract', error);
    },
  });
}
