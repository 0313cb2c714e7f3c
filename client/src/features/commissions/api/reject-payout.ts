import type { Payout, RejectPayoutInput } from '@shared/contracts/commissions';
import { formatAmount } from '@shared/money';
import { api } from '@/lib/api-client';
import { payoutActionPath, repOf, useReviewMutation } from './review-mutation';

/** POST /api/payouts/{id}/reject: pending -> rejected; the amount is available to the rep again. */
export const rejectPayout = ({ id, input }: { id: string; input: RejectPayoutInput }) =>
  api<Payout>('POST', payoutActionPath(id, 'reject'), input);

export const useRejectPayout = () =>
  useReviewMutation(rejectPayout, {
    success: (p) => ({
      title: 'Payout rejected',
      description: `${formatAmount(p.requestedAmount)} is available to ${repOf(p)} again.`,
    }),
    failure: 'Failed to reject payout',
  });
