import type { Payout, RequestPayoutInput } from '@shared/contracts/commissions';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';
import { refreshCommissionData } from './keys';

/** POST /api/payouts/request: a pending payout of at most the available amount. */
export const requestPayout = (input: RequestPayoutInput) => api<Payout>('POST', '/api/payouts/request', input);

export function useRequestPayout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: requestPayout,
    onSuccess: () => {
      toast({ title: 'Payout requested', description: 'Your payout request has been submitted for review.' });
      return refreshCommissionData(queryClient);
    },
    onError: (error) => {
      toastError('Failed to request payout', error);
      return refreshCommissionData(queryClient);
    },
  });
}
