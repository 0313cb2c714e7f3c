import type { ContractPayload } from '@shared/contracts/contract-form';
import type { Contract } from '@shared/contracts/contract-responses';
import type { ContractStatus } from '@shared/contracts/contract-vocabulary';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';
import { refreshContractData } from './get-contracts';

export const updateContract = ({
  id,
  payload,
}: {
  id: string;
  payload: ContractPayload;
  previousStatus?: ContractStatus;
}) => api<Contract>('PATCH', `/api/contracts/${encodeURIComponent(id)}`, payload);

export function useUpdateContract() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateContract,
    onSuccess: (contract, { previousStatus }) => {
      toast({
        title: 'Contract updated successfully',
        description:
          previousStatus === 'draft' && contract.status === 'sent'
            ? 'The changes were saved and the contract was sent to the customer.'
            : 'Your changes have been saved.',
      });
      return refreshContractData(queryClient);
    },
    onError: (error) => {
      toastError('Failed to update contract', error);
    },
  });
}
