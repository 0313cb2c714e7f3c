import type { ApprovePayoutInput, Payout } from '@shared/contracts/commissions';
import { formatAmount } from '@shared/money';
import { api } from '@/lib/api-client';
import { payoutActionPath, repOf, useReviewMutation } from './review-mutation';

/** POST /api/payouts/{id}/approve: pending -> approved for at most the requested amount. */
export const approvePayout = ({ id, input }: { id: string; input: ApprovePayoutInput }) =>
  api<Payout>('POST', payoutActionPath(id, 'approve'), input);

export const useApprovePayout = () =>
  useReviewMutation(approvePayout, {
    success: (p) => ({
      title: 'Payout approved',
      description: `${formatAmount(p.approvedAmount)} approved for ${repOf(p)}.`,
    }),
    failure: 'Failed to approve payout',
  });
