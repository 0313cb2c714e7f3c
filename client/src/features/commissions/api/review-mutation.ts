import type { Payout } from '@shared/contracts/commissions';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { toastError } from '@/lib/toast-error';
import { refreshCommissionData } from './keys';

export const payoutActionPath = (id: string, action: 'approve' | 'reject' | 'disburse') =>
  `/api/payouts/${encodeURIComponent(id)}/${action}`;

export const repOf = (payout: Payout) => payout.repName ?? 'the rep';

/** A review action: a toast either way, and the figures and lists refetch (also after a 409). */
export function useReviewMutation<T>(
  mutationFn: (input: T) => Promise<Payout>,
  messages: { success: (payout: Payout) => { title: string; description: string }; failure: string },
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (payout) => {
      toast(messages.success(payout));
      return refreshCommissionData(queryClient);
    },
    onError: (error) => {
      toastError(messages.failure, error);
      return refreshCommissionData(queryClient);
    },
  });
}
