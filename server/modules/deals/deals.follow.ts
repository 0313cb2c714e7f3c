import { LOST_REASON_CONTRACT_CANCELED, type StageKind } from '@shared/contracts/deal-vocabulary';
import type { WebhookEventType } from '@shared/contracts/webhooks-vocabulary';
import type { Db } from '../../db/client';
import { recordAudits } from '../../lib/audit';
import { emitWebhookEvent, onWebhookEvent } from '../webhooks/webhook-events';
import { type MovedDeal, moveDealsOfContracts, type StageRow, selectStageBy, selectStages } from './deals.repo';

/**
 * A deal follows its contract (product.md section 19), in the transaction of the contract's change: sent, the
 * deal moves to the stage that follows a sent contract (IO sent); its insertion order accepted or the contract
 * active, Won; the contract canceled, Lost ("Contract canceled"). It hears of them by the events the contract
 * raises (webhooks/webhook-events.ts, `onWebhookEvent`), one UPDATE for all the deals of the contracts named,
 * then their audit events and `deal.won` / `deal.lost`.
 */

type Rule = {
  /** The stage moved to. */
  stage: (db: Db) => Promise<StageRow | undefined>;
  /** The kinds of stage a deal may be moved from. */
  from: readonly StageKind[];
  closes: boolean;
  lostReason: string | null;
  cause: string;
};

const RULES: Partial<Record<WebhookEventType, Rule>> = {
  'contract.sent': {
    stage: (db) => selectStageBy(db, { milestone: 'contract_sent' }),
    from: ['open'],
    closes: false,
    lostReason: null,
    cause: 'contract sent',
  },
  'contract.accepted': {
    stage: (db) => selectStageBy(db, { kind: 'won' }),
    from: ['open', 'lost'],
    closes: true,
    lostReason: null,
    cause: 'contract accepted',
  },
  'contract.activated': {
    stage: (db) => selectStageBy(db, { kind: 'won' }),
    from: ['open', 'lost'],
    closes: true,
    lostReason: null,
    cause: 'contract active',
  },
  'contract.canceled': {
    stage: (db) => selectStageBy(db, { kind: 'lost' }),
    from: ['open', 'won'],
    closes: true,
    lostReason: LOST_REASON_CONTRACT_CANCELED,
    cause: 'contract canceled',
  },
};

async function follow(tx: Db, type: WebhookEventType, contractIds: readonly string[]): Promise<void> {
  const rule = RULES[type];
  if (!rule) return;
  const to = await rule.stage(tx);
  if (!to) return;
  const moved = await moveDealsOfContracts(tx, contractIds, {
    toStageId: to.id,
    fromKinds: rule.from,
    closes: rule.closes,
    lostReason: rule.lostReason,
  });
  if (moved.length === 0) return;
  await audit(tx, moved, to, rule);
  const ids = moved.map((deal) => deal.id);
  if (to.kind === 'won') await emitWebhookEvent(tx, 'deal.won', { ids });
  if (to.kind === 'lost') await emitWebhookEvent(tx, 'deal.lost', { ids });
}

async function audit(tx: Db, moved: readonly MovedDeal[], to: StageRow, rule: Rule): Promise<void> {
  const names = new Map((await selectStages(tx)).map((stage) => [stage.id, stage.name]));
  const action = to.kind === 'won' ? 'deal.won' : to.kind === 'lost' ? 'deal.lost' : 'deal.moved';
  await recordAudits(
    tx,
    moved.map((deal) => ({
      actorId: null,
      action,
      entity: 'deal',
      entityId: deal.id,
      before: { stage: names.get(deal.fromStageId) ?? null },
      after: {
        stage: to.name,
        contractId: deal.contractId,
        reason: rule.lostReason ?? rule.cause,
      },
    })),
  );
}

/** Deals follow their contracts from now on in this process (registering again changes nothing). */
export function followContracts(): void {
  onWebhookEvent(Object.keys(RULES) as WebhookEventType[], follow);
}
