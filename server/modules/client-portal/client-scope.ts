import { canReadContract } from '@shared/contracts/contract-access';
import { can } from '@shared/permissions';
import type { contracts } from '../../db/schema';
import type { SessionUser } from '../sessions/sessions';

type ContractRef = Pick<typeof contracts.$inferSelect, 'customerId' | 'status' | 'salesRepId'>;

/**
 * A client sees the contracts of the customer its account is linked to, once they are sent (never drafts);
 * any other contract answers 404 to it (docs/decisions/004-permissions.md).
 */
export function clientOwnsContract(actor: SessionUser, contract: ContractRef): boolean {
  return (
    can(actor, 'portal:access') &&
    actor.customerId !== null &&
    contract.customerId === actor.customerId &&
    contract.status !== 'draft'
  );
}

/** Staff who may read the contract, or the client who owns it. */
export function canSeeContract(actor: SessionUser, contract: ContractRef): boolean {
  return canReadContract(actor, contract) || clientOwnsContract(actor, contract);
}
