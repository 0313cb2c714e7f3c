import type { Contract } from '@shared/contracts/contract-responses';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';
import { refreshContractData } from './get-contracts';

/** The status actions without a body: POST /api/contracts/:id/activate, /pause and /resume. */
export type StatusAction = 'activate' | 'pause' | 'resume';

const DONE: Record<StatusAction, { title: string; verb: string }> = {
  activate: { title: 'Contract activated', verb: 'activate' },
  pause: { title: 'Contract paused', verb: 'pause' },
  resume: { title: 'Contract resumed', verb: 'resume' },
};

export const changeContractStatus = ({ id, action }: { id: string; action: StatusAction }) =>
  api<Contract>('POST', `/api/contracts/${encodeURIComponent(id)}/${action}`);

export function useChangeContractStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeContractStatus,
    onSuccess: (_contract, { action }) => {
      toast({ title: DONE[action].title });
      return refreshContractData(queryClient);
    },
    onError: (error, { action }) => {
      toastError(`Failed to ${DONE[action].verb} contract`, error);
    },
  });
}
