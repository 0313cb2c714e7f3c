import type { ContractPayloadLine } from '@shared/contracts/contract-form-values';
import type { Contract } from '@shared/contracts/contract-responses';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';
import { refreshContractData } from './get-contracts';

/** A line added to a running contract, from its flight start (today when left out). */
export const addContractLine = ({ id, line }: { id: string; line: ContractPayloadLine }) =>
  api<Contract>('POST', `/api/contracts/${encodeURIComponent(id)}/lines`, line);

/** A line of a running contract ended on a day (today when left out). */
export const endContractLine = ({ id, lineId, endDate }: { id: string; lineId: string; endDate: string | null }) =>
  api<Contract>('POST', `/api/contracts/${encodeURIComponent(id)}/lines/${encodeURIComponent(lineId)}/end`, {
    endDate,
  });

function useAmendment<T>(fn: (input: T) => Promise<Contract>, done: { title: string; failed: string }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => {
      toast({
        title: done.title,
        description: 'Issued invoices stay as they are; the next invoice settles the difference.',
      });
      // The contract, its schedule and the lists (all under the contracts key).
      return refreshContractData(queryClient);
    },
    onError: (error) => {
      toastError(done.failed, error);
    },
  });
}

export const useAddContractLine = () =>
  useAmendment(addContractLine, { title: 'Line added', failed: 'Failed to add the line' });

export const useEndContractLine = () =>
  useAmendment(endContractLine, { title: 'Line ended', failed: 'Failed to end the line' });
