import type { Contract } from '@shared/contracts/contract-responses';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';
import { refreshContractData } from './get-contracts';

/** A sent contract e-mailed again (the same pay link, or a new portal invitation), with today's figures. */
export const resendContract = (id: string) => api<Contract>('POST', `/api/contracts/${encodeURIComponent(id)}/resend`);

export function useResendContract() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => resendContract(id),
    onSuccess: (contract) => {
      toast({
        title: 'Contract sent again',
        description: contract.customer?.email
          ? `The contract was e-mailed to ${contract.customer.email} again.`
          : 'The contract was e-mailed to the customer again.',
      });
      return refreshContractData(queryClient);
    },
    onError: (error) => {
      toastError('Failed to resend contract', error);
    },
  });
}
