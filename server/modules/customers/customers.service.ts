import type { ListQuery } from '@shared/contracts/common';
import type { Customer, CustomerValues } from '@shared/contracts/customers';
import { centsToAmount } from '@shared/money';
import { can } from '@shared/permissions';
import type { Db } from '../../db/client';
import { recordAudit } from '../../lib/audit';
import type { BoundedTotal } from '../../lib/bounded-count';
import { conflict, notFound } from '../../lib/errors';
import type { SessionUser } from '../sessions/sessions';
import {
  type ContractCounts,
  type CustomerRow,
  type CustomerScope,
  countContractsOfCustomer,
  deleteCustomerRow,
  insertCustomer,
  lockCustomer,
  lockCustomerWithCounts,
  selectCustomerPage,
  selectCustomerWithCounts,
  updateCustomerRow,
} from './customers.repo';

type Actor = SessionUser;
type CustomerChanges = Partial<CustomerValues>;

/** Staff see every customer; a client only the customer its account is linked to (or none). */
function visibleTo(actor: Actor): CustomerScope {
  if (can(actor, 'customer:read:any')) return { all: true };
  if (can(actor, 'customer:read:own') && actor.customerId) return { all: false, customerId: actor.customerId };
  return { all: false, customerId: null };
}

export function toCustomer(row: CustomerRow, counts: ContractCounts, actor?: Actor): Customer {
  const staff = !actor || can(actor, 'customer:read:any');
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    company: row.company,
    phone: row.phone,
    address: row.address,
    city: row.city,
    state: row.state,
    zipCode: row.zipCode,
    country: row.country,
    contactPerson: row.contactPerson,
    website: row.website,
    industry: row.industry,
    notes: staff ? row.notes : null,
    contractCount: counts.contractCount,
    activeContractCount: counts.activeContractCount,
    creditBalance: centsToAmount(row.creditBalanceCents),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function listCustomers(
  db: Db,
  actor: Actor,
  query: ListQuery,
): Promise<{ rows: Customer[] } & BoundedTotal> {
  const q = query.q?.replaceAll('\u0000', '').trim();
  const page = await selectCustomerPage(db, {
    scope: visibleTo(actor),
    q,
    limit: query.limit,
    offset: query.offset,
  });
  return { ...page, rows: page.rows.map((r) => toCustomer(r.row, r, actor)) };
}

export async function getCustomer(db: Db, actor: Actor, id: string): Promise<Customer> {
  const found = await selectCustomerWithCounts(db, id, visibleTo(actor));
  if (!found) throw notFound('Customer');
  return toCustomer(found.row, found, actor);
}

export async function createCustomer(db: Db, actor: Actor, input: CustomerValues): Promise<Customer> {
  return db.transaction(async (tx) => {
    const row = await insertCustomer(tx, { ...input, createdBy: actor.id });
    const customer = toCustomer(row, { contractCount: 0, activeContractCount: 0 });
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'customer.created',
      entity: 'customer',
      entityId: row.id,
      after: customer,
    });
    return customer;
  });
}

export async function updateCustomer(db: Db, actor: Actor, id: string, changes: CustomerChanges): Promise<Customer> {
  return db.transaction(async (tx) => {
    const found = await lockCustomerWithCounts(tx, id);
    if (!found) throw notFound('Customer');
    const before = toCustomer(found.row, found);
    if (Object.keys(changes).length === 0) return before;
    const row = await updateCustomerRow(tx, id, changes);
    const after = toCustomer(row, found);
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'customer.updated',
      entity: 'customer',
      entityId: id,
      before,
      after,
    });
    return after;
  });
}

/** Refused with 409 while contracts exist. The row lock makes a contract created meanwhile wait for the outcome. */
export async function deleteCustomer(db: Db, actor: Actor, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await lockCustomer(tx, id);
    if (!row) throw notFound('Customer');
    const counts = await countContractsOfCustomer(tx, id);
    const n = counts.contractCount;
    if (n > 0) throw conflict(`This customer has ${n} contract${n === 1 ? '' : 's'} and cannot be deleted`);
    await deleteCustomerRow(tx, id);
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'customer.deleted',
      entity: 'customer',
      entityId: id,
      before: toCustomer(row, counts),
    });
  });
}
