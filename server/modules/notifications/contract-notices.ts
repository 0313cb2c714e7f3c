import { shortContractId } from '@shared/contracts/contract-vocabulary';
import type { Db } from '../../db/client';
import { businessToday } from '../../lib/business-day';
import { notify } from '../../lib/notify';
import { selectCustomerName, selectExpiringContracts } from './notifications.repo';

/** Days ahead a running contract's auto-stop date is announced to its rep. */
export const EXPIRY_NOTICE_DAYS = 30;

type ContractFacts = {
  id: string;
  salesRepId: string | null;
  title: string | null;
  description: string | null;
  customerId: string;
};

const contractName = (c: Pick<ContractFacts, 'id' | 'title' | 'description'>) =>
  c.title?.trim() || c.description?.trim().slice(0, 60) || `Contract #${shortContractId(c.id, 6)}`;

/**
 * "Contract activated", to the contract's rep, in the activation's transaction. A rep who activated it
 * themselves is not told what they just did; a manager's, finance's or the customer's first payment's
 * activation is news to them.
 */
export async function notifyContractActivated(
  tx: Db,
  facts: { contract: ContractFacts; actorId: string | null; baseUrl: string },
): Promise<void> {
  const { contract } = facts;
  if (!contract.salesRepId || contract.salesRepId === facts.actorId) return;
  const customerName = (await selectCustomerName(tx, contract.customerId)) ?? 'the customer';
  const name = contractName(contract);
  const link = `/contracts/${contract.id}`;
  await notify(tx, {
    to: { userIds: [contract.salesRepId] },
    type: 'contract_activated',
    title: 'Contract activated',
    body: `${name} for ${customerName} is now active.`,
    link,
    entity: 'contract',
    entityId: contract.id,
    email: {
      subject: `Contract activated: ${name}`,
      text: `${name} for ${customerName} is now active.\n\n${facts.baseUrl}${link}`,
    },
  });
}

/**
 * The daily "contract expiring" notices: every active or paused contract whose auto-stop date falls within
 * the next 30 days tells its rep once (dedupe key per contract and end date, decided by the unique index
 * notifications_user_dedupe_key, so overlapping runs on several instances notify once). A contract whose
 * end date is moved gets a new notice for the new date. Returns how many contracts were announced.
 */
export async function notifyExpiringContracts(
  db: Db,
  options: { baseUrl: string; today?: string; batch?: number },
): Promise<number> {
  const today = options.today ?? businessToday();
  const due = await selectExpiringContracts(db, { today, days: EXPIRY_NOTICE_DAYS, limit: options.batch ?? 500 });
  if (!due.length) return 0;
  await db.transaction(async (tx) => {
    for (const row of due) {
      const name = contractName(row);
      const days = Math.round((Date.parse(row.auto_stop_date) - Date.parse(today)) / 86_400_000);
      const when = days === 0 ? 'today' : days === 1 ? 'tomorrow' : `in ${days} days`;
      const body = `${name} for ${row.customer_name} ends on ${row.auto_stop_date} (${when}).`;
      const link = `/contracts/${row.id}`;
      await notify(tx, {
        to: { userIds: [row.sales_rep_id] },
        type: 'contract_expiring',
        title: 'Contract ending soon',
        body,
        link,
        entity: 'contract',
        entityId: row.id,
        dedupeKey: `contract_expiring:${row.id}:${row.auto_stop_date}`,
        email: { subject: `Contract ending soon: ${name}`, text: `${body}\n\n${options.baseUrl}${link}` },
      });
    }
  });
  return due.length;
}

/**
 * "Contract paused for non-payment" or "Contract resumed" (dunning, product.md section 14), to the contract's
 * rep and to finance, in the transaction that changed the status.
 */
export async function notifyNonPaymentPause(
  tx: Db,
  facts: { contract: ContractFacts; change: 'paused' | 'resumed'; overdueInvoices: string[]; baseUrl: string },
): Promise<void> {
  const { contract } = facts;
  const customerName = (await selectCustomerName(tx, contract.customerId)) ?? 'the customer';
  const name = contractName(contract);
  const link = `/contracts/${contract.id}`;
  const paused = facts.change === 'paused';
  const title = paused ? 'Contract paused for non-payment' : 'Contract resumed';
  const body = paused
    ? `${name} for ${customerName} is paused: ${facts.overdueInvoices.join(', ')} still unpaid. It resumes by itself when the overdue invoices are paid.`
    : `${name} for ${customerName} is active again: its overdue invoices are paid. The periods of the pause are billed.`;
  await notify(tx, {
    to: { userIds: contract.salesRepId ? [contract.salesRepId] : [], roles: ['finance'] },
    type: paused ? 'contract_paused' : 'contract_resumed',
    title,
    body,
    link,
    entity: 'contract',
    entityId: contract.id,
    email: { subject: `${title}: ${name}`, text: `${body}\n\n${facts.baseUrl}${link}` },
  });
}
