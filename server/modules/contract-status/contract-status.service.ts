import { CONTRACT_TRANSITIONS, type ContractAction } from '@shared/contracts/contract-lifecycle';
import type { ContractStatus, PauseReason } from '@shared/contracts/contract-vocabulary';
import type { WebhookEventType } from '@shared/contracts/webhooks-vocabulary';
import type { SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { recordAudits } from '../../lib/audit';
import { businessToday } from '../../lib/business-day';
import { notifyContractActivated } from '../notifications/contract-notices';
import { emitWebhookEvent } from '../webhooks/webhook-events';
import {
  type ContractRow,
  closePause,
  keepFirstActivation,
  lockContractOfInvoiceRow,
  lockContractRow,
  lockContractsOfInvoiceRows,
  openPause,
  type ProviderIds,
  recordProviderIds,
  updateContractStatuses,
  WITHOUT_INSERTION_ORDER,
} from './contract-status.repo';

export type { ContractRow } from './contract-status.repo';

/**
 * The one writer of a contract's status after it is created: staff actions (send, activate, pause, resume,
 * cancel), a first payment's activation and the billing run's completion all come here, inside their own
 * transaction. For each change: the allowed-from table (shared/contracts/contract-lifecycle.ts), ONE
 * conditional UPDATE whose row count decides, the audit event, the pause interval billing skips, and the
 * notice that follows. A contract not in a status the action applies to is left alone (the caller answers).
 */

export type StatusChange = {
  action: ContractAction;
  /** Who did it (null: the system, e.g. a payment or the billing run). */
  actorId: string | null;
  /** The public origin, for links in the notices that follow. */
  baseUrl: string;
  /** cancel: the reason given, kept on the contract and in the audit event. */
  cancelReason?: string | null;
  /** What caused a change nobody made by hand ("first payment (stripe)"), kept in the audit event. */
  cause?: string;
  /** A first payment: payment processing has started, its provider ids are recorded where none are. */
  paymentStarted?: ProviderIds;
  /** pause: by staff ('manual', the default) or by dunning ('non_payment', billed on resume). */
  pauseReason?: PauseReason;
  /** The day a pause or resume takes effect (default the business's today). */
  on?: string;
  /** A further condition the contracts must meet at the moment of the change (the billing run's term end). */
  onlyIf?: SQL;
};

export type ChangedContract = { row: ContractRow; previousStatus: string };

/** Changes one contract's status; null when its status does not allow the action. */
export async function changeContractStatus(
  tx: Db,
  contractId: string,
  change: StatusChange,
): Promise<ChangedContract | null> {
  const [changed] = await changeContractStatuses(tx, [contractId], change);
  return changed ?? null;
}

/** Changes the status of every named contract the action applies to (one statement); answers those changed. */
export async function changeContractStatuses(
  tx: Db,
  contractIds: readonly string[],
  change: StatusChange,
): Promise<ChangedContract[]> {
  const rule = CONTRACT_TRANSITIONS[change.action];
  const now = new Date();
  const changed = await updateContractStatuses(tx, contractIds, {
    from: rule.from,
    set: {
      ...(change.paymentStarted ? recordProviderIds(change.paymentStarted) : {}),
      status: rule.to,
      pauseReason: rule.to === 'paused' ? (change.pauseReason ?? 'manual') : null,
      ...(change.action === 'send' ? { sentAt: now } : {}),
      ...(change.action === 'activate' ? { activatedAt: now } : {}),
      ...(change.action === 'resume' ? { activatedAt: keepFirstActivation() } : {}),
      ...(change.action === 'cancel' ? { canceledAt: now, cancelReason: change.cancelReason ?? null } : {}),
    },
    onlyIf: change.onlyIf,
  });
  if (changed.length === 0) return [];

  await recordAudits(
    tx,
    changed.map(({ row, previousStatus }) => ({
      actorId: change.actorId,
      action: `contract.${rule.done}`,
      entity: 'contract',
      entityId: row.id,
      before: { status: previousStatus },
      after: {
        status: row.status,
        ...(change.action === 'cancel' ? { cancelReason: row.cancelReason } : {}),
        ...(change.action === 'pause' && row.pauseReason === 'non_payment' ? { pauseReason: 'non_payment' } : {}),
        ...(change.cause ? { reason: change.cause } : {}),
      },
    })),
  );
  const ids = changed.map(({ row }) => row.id);
  await emitStatusEvents(tx, change.action, changed);
  const on = change.on ?? businessToday();
  if (change.action === 'pause') await openPause(tx, ids, on, change.pauseReason ?? 'manual');
  if (change.action === 'resume') await closePause(tx, ids, on);
  if (change.action === 'activate') {
    for (const { row } of changed) {
      await notifyContractActivated(tx, { contract: row, actorId: change.actorId, baseUrl: change.baseUrl });
    }
  }
  return changed;
}

/**
 * The event other systems hear of for each status a contract reaches, whichever action took it there
 * (product.md section 17): active by activation or by resume raises contract.activated; completed has no
 * event of its own.
 */
const STATUS_EVENTS = {
  sent: 'contract.sent',
  active: 'contract.activated',
  paused: 'contract.paused',
  canceled: 'contract.canceled',
} as const satisfies Partial<Record<ContractStatus, WebhookEventType>>;

/**
 * The webhook events of a status change, in its transaction, one statement per event type for all the
 * contracts changed. A contract with an insertion order raises `contract.accepted` when the customer signs it
 * (modules/insertion-orders); a sent contract with none that becomes active was accepted by its first payment
 * or by staff: `contract.accepted` then, once per contract.
 */
async function emitStatusEvents(tx: Db, action: ContractAction, changed: readonly ChangedContract[]): Promise<void> {
  const status = CONTRACT_TRANSITIONS[action].to;
  const type = STATUS_EVENTS[status as keyof typeof STATUS_EVENTS];
  if (!type) return;
  if (action === 'activate') {
    const accepted = changed.filter(({ previousStatus }) => previousStatus === 'sent').map(({ row }) => row.id);
    await emitWebhookEvent(tx, 'contract.accepted', { ids: accepted, where: WITHOUT_INSERTION_ORDER }, { once: true });
  }
  await emitWebhookEvent(tx, type, { ids: changed.map(({ row }) => row.id) });
}

/**
 * The first lock of every path that moves money on a contract (opening or settling a checkout, a payment,
 * a void, issuing its invoices): its contract row, then its invoices, then its checkout sessions, then
 * payments and commissions. With one order everywhere, two such paths on one contract wait for each other
 * instead of deadlocking (docs/decisions/010-resilience-and-races.md). Answers whether the contract exists.
 */
export async function lockContractForMoney(tx: Db, contractId: string): Promise<boolean> {
  return lockContractRow(tx, contractId);
}

/**
 * lockContractForMoney for the contracts of several invoices (a batch of charges), in one statement and in
 * contract id order, so that two batches sharing contracts wait for each other instead of deadlocking. Answers
 * each invoice found with its contract and customer (they never change).
 */
export async function lockContractsOfInvoices(tx: Db, invoiceIds: readonly string[]) {
  return lockContractsOfInvoiceRows(tx, invoiceIds);
}

/** lockContractForMoney for the contract of an invoice. Answers whether the invoice exists. */
export async function lockContractOfInvoice(tx: Db, invoiceId: string): Promise<boolean> {
  return lockContractOfInvoiceRow(tx, invoiceId);
}
