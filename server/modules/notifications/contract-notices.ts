import { shortContractId } from '@shared/contracts/contract-vocabulary';
import type { Db } from '../../db/client';
import { notify } from '../../lib/notify';
import { selectCustomerName } from './notifications.repo';

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
