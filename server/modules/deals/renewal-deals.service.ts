import { LOST_REASON_NOT_RENEWED } from '@shared/contracts/deal-vocabulary';
import type { Db } from '../../db/client';
import { recordAudits } from '../../lib/audit';
import { businessToday } from '../../lib/business-day';
import { previewContracts } from '../billing/billing.service';
import { emitWebhookEvent } from '../webhooks/webhook-events';
import {
  closeUnrenewed,
  insertRenewalDeals,
  linkRenewalDrafts,
  type MovedDeal,
  selectRenewalCandidates,
  selectStageBy,
  selectStages,
} from './deals.repo';

/**
 * Renewals are deals (product.md section 19). At a contract's first renewal notice (60 days before its end, or
 * the first notice it gets when it enters the window later) a renewal deal opens for its rep: the term value
 * of the contract by the billing engine (what its renewal, the same lines for the same term, bills), closing
 * on the end date, source `renewal`, once per contract and end date (deals_renewal_key). Renew links the
 * draft (and moves the deal to Proposal); the contract ending without a renewal closes it Lost ("Not renewed").
 * Run after the renewal notices (the renewal-notices job) and after each Renew; every step is set-based.
 */
export async function runRenewalDeals(
  db: Db,
  options: { today?: string } = {},
): Promise<{ opened: number; linked: number; closed: number }> {
  const today = options.today ?? businessToday();
  const candidates = await selectRenewalCandidates(db);
  const previews = candidates.length ? await previewContracts(db, candidates) : new Map();
  return db.transaction(async (tx) => {
    const stages = await selectStages(tx);
    const first = stages.find((stage) => stage.kind === 'open');
    const opened = first
      ? await insertRenewalDeals(
          tx,
          candidates.map((contract) => ({
            customerId: contract.customerId,
            title: `Renewal: ${contract.title?.trim() || contract.description?.trim().slice(0, 60) || 'contract'}`,
            ownerId: contract.salesRepId!,
            stageId: first.id,
            amountCents:
              previews.get(contract.id)?.termValueCents ?? contract.monthlyAmountCents * (contract.termMonths ?? 1),
            expectedCloseDate: contract.autoStopDate,
            source: 'renewal',
            renewalOfContractId: contract.id,
            renewalEndDate: contract.autoStopDate,
          })),
        )
      : [];
    await recordAudits(
      tx,
      opened.map((deal) => ({
        actorId: null,
        action: 'deal.created',
        entity: 'deal',
        entityId: deal.id,
        after: {
          title: deal.title,
          stage: first!.name,
          amountCents: deal.amountCents,
          customerId: deal.customerId,
          reason: 'renewal notice',
        },
      })),
    );
    const linked = await linkDrafts(tx);
    const lost = await selectStageBy(tx, { kind: 'lost' });
    const closed = lost ? await closeUnrenewed(tx, lost.id, LOST_REASON_NOT_RENEWED, today) : [];
    await auditMoves(tx, closed, 'deal.lost', LOST_REASON_NOT_RENEWED);
    await emitWebhookEvent(tx, 'deal.lost', { ids: closed.map((deal) => deal.id) });
    return { opened: opened.length, linked: linked.length, closed: closed.length };
  });
}

/** Renew's draft linked to the renewal deal of its contract at once (Renew calls this through its hook). */
export async function linkRenewalDeal(db: Db, renewedContractId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await linkDrafts(tx, [renewedContractId]);
  });
}

async function linkDrafts(tx: Db, contractIds?: readonly string[]): Promise<MovedDeal[]> {
  const proposal = await selectStageBy(tx, { milestone: 'contract_drafted' });
  const linked = await linkRenewalDrafts(tx, proposal?.id ?? null, contractIds);
  await auditMoves(tx, linked, 'deal.contract_created', 'renewal drafted');
  return linked;
}

async function auditMoves(
  tx: Db,
  moved: readonly MovedDeal[],
  action: 'deal.lost' | 'deal.contract_created',
  reason: string,
) {
  if (moved.length === 0) return;
  const names = new Map((await selectStages(tx)).map((stage) => [stage.id, stage.name]));
  await recordAudits(
    tx,
    moved.map((deal) => ({
      actorId: null,
      action,
      entity: 'deal',
      entityId: deal.id,
      before: { stage: names.get(deal.fromStageId) ?? null },
      after: { stage: names.get(deal.toStageId) ?? null, contractId: deal.contractId, reason },
    })),
  );
}
