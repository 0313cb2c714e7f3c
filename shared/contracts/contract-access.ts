import { can } from '../permissions';
import type { Role } from '../roles';

/**
 * Who may see and change a contract (product.md section 3): holders of the "any" permission, or the
 * contract's own sales rep with the "own" permission. Others' contracts answer 404 on the server. The same
 * rules decide for everything reached through a contract (its invoices, schedule, creatives, figures).
 */
type ContractOwner = { salesRepId: string | null };
type Caller = { id: string; role: Role };
/** A contract as the client rule reads it: whom it is billed to and whether it was sent. */
type ContractRef = ContractOwner & { billToCustomerId: string; status: string };
/** A caller with the customer its client account is linked to (null for staff and unlinked clients). */
type LinkedCaller = Caller & { customerId: string | null };

/** Whether the caller may see this contract at all. */
export function canReadContract(actor: Caller, contract: ContractOwner): boolean {
  if (can(actor, 'contract:read:any')) return true;
  return can(actor, 'contract:read:own') && contract.salesRepId === actor.id;
}

/** Whether the caller may change this contract: any contract, or their own as its sales rep. */
export function canWriteContract(actor: Caller, contract: ContractOwner): boolean {
  if (can(actor, 'contract:write:any')) return true;
  return can(actor, 'contract:write:own') && contract.salesRepId === actor.id;
}

/** Whether the caller may record this contract's delivery: any contract's, or their own as its sales rep. */
export function canRecordDelivery(actor: Caller, contract: ContractOwner): boolean {
  if (can(actor, 'delivery:write:any')) return true;
  return can(actor, 'delivery:write:own') && contract.salesRepId === actor.id;
}

export const CONTRACT_ACCESS_MESSAGES = {
  /** A contract the caller may see but not change (the answer is 403). */
  cannotChange: "You don't have permission to change this contract",
} as const;

/**
 * A client sees the contracts billed to the customer its account is linked to, once they are sent (never
 * drafts): an agency's users every contract billed to the agency, whichever advertiser's; an advertiser's users
 * those billed to itself, never those billed to its agency (product.md section 20, decision 060). Any other
 * contract answers 404 to it (docs/decisions/004-permissions.md).
 */
export function clientOwnsContract(actor: LinkedCaller, contract: ContractRef): boolean {
  return (
    can(actor, 'portal:access') &&
    actor.customerId !== null &&
    contract.billToCustomerId === actor.customerId &&
    contract.status !== 'draft'
  );
}

/** Staff who may read the contract, or the client who owns it. */
export function canSeeContract(actor: LinkedCaller, contract: ContractRef): boolean {
  return canReadContract(actor, contract) || clientOwnsContract(actor, contract);
}
