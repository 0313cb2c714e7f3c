import type { ContractPayload } from '@shared/contracts/contract-form';
import type { Contract } from '@shared/contracts/contract-responses';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from 'wouter';
import { buttonVariants } from '@/components/ui/styles';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-client';
import { paths } from '@/lib/paths';
import { toastError } from '@/lib/toast-error';
import { refreshContractData } from './get-contracts';

export const createContract = (payload: ContractPayload) => api<Contract>('POST', '/api/contracts', payload);

/** The success toast says what happened to the new contract: sent, live, or kept as a draft. */
function createdDescription(contract: Contract): string {
  if (contract.status === 'sent') return 'The contract was created and sent to the customer.';
  if (contract.status === 'active') return 'The contract was created as active (live) without being sent.';
  return 'The contract was saved as a draft. You can send it to the customer later.';
}

export function useCreateContract() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createContract,
    onSuccess: (contract) => {
      toast({
        title: 'Contract created successfully',
        description: createdDescription(contract),
        action: (
          <Link
            href={paths.contract(contract.id)}
            className={buttonVariants({ size: 'sm', variant: 'outline', className: 'mt-6 shrink-0 text-slate-900' })}
          >
            Open contract
          </Link>
        ),
      });
      return refreshContractData(queryClient);
    },
    onError: (error) => {
      toastError('Failed to create contract', error);
    },
  });
}
