import { formatCents } from '@shared/money';
import type { Db } from '../../db/client';
import { notify } from '../../lib/notify';
import type { PayoutRow } from './commissions.repo';

export type PayoutEvent = 'requested' | 'approved' | 'rejected' | 'disbursed';

/**
 * The notifications of a payout's life, inside the transaction of the change: a request goes to finance
 * and admin-level users (who review it); approval, rejection and disbursement go to the rep. E-mail
 * copies follow each recipient's "commission alerts" preference (lib/notify.ts).
 */
export async function notifyPayoutEvent(
  tx: Db,
  baseUrl: string,
  event: PayoutEvent,
  facts: { payout: PayoutRow; repName?: string | null },
): Promise<void> {
  const { payout } = facts;
  const requested = formatCents(Number(payout.requestedCents));
  const approved = payout.approvedCents === null ? requested : formatCents(Number(payout.approvedCents));
  const message = messageFor(event, { requested, approved, reason: payout.rejectReason, repName: facts.repName });
  const path = event === 'requested' ? '/payouts' : '/commissions';
  await notify(tx, {
    to: event === 'requested' ? { roles: ['finance', 'admin', 'super_admin'] } : { userIds: [payout.repId] },
    type: `payout_${event}`,
    title: message.title,
    body: message.body,
    link: path,
    entity: 'payout',
    entityId: payout.id,
    email: { subject: message.title, text: `${message.body}\n\n${baseUrl}${path}` },
  });
}

function messageFor(
  event: PayoutEvent,
  f: { requested: string; approved: string; reason: string | null; repName?: string | null },
): { title: string; body: string } {
  switch (event) {
    case 'requested':
      return {
        title: 'Payout requested',
        body: `${f.repName ?? 'A sales rep'} requested a payout of ${f.requested}. It is waiting for review.`,
      };
    case 'approved':
      return {
        title: 'Payout approved',
        body:
          f.approved === f.requested
            ? `Your payout request of ${f.requested} was approved.`
            : `Your payout request of ${f.requested} was approved for ${f.approved}; the rest is available again.`,
      };
    case 'rejected':
      return {
        title: 'Payout rejected',
        body: `Your payout request of ${f.requested} was rejected: ${f.reason ?? 'no reason given'}. The amount is available again.`,
      };
    case 'disbursed':
      return { title: 'Payout disbursed', body: `Your payout of ${f.approved} has been paid out.` };
  }
}
