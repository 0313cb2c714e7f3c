import type { Payout } from '@shared/contracts/commissions';
import { formatAmount } from '@shared/money';
import { api } from '@/lib/api-client';
import { payoutActionPath, repOf, useReviewMutation } from './review-mutation';

/** POST /api/payouts/{id}/disburse: approved -> disbursed (the money has been paid to the rep). */
export const disbursePayout = ({ id }: { id: string }) => api<Payout>('POST', payoutActionPath(id, 'disburse'), {});

export const useDisbursePayout = () =>
  useReviewMutation(disbursePayout, {
    success: (p) => ({
      title: 'Payout disbursed',
      description: `${formatAmount(p.approvedAmount)} marked as paid to ${repOf(p)}.`,
    }),
    failure: 'Failed to mark payout disbursed',
  });
