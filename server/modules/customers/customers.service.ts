import type { ListQuery } from '@shared/contracts/common';
import type { Customer, CustomerValues } from '@shared/contracts/customers';
import { can } from '@shared/permissions';
import { and, asc, count, eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { contracts, customers } from '../../db/schema';
import { recordAudit } from '../../lib/audit';
import { conflict, notFound } from '../../lib/errors';
import { likePattern } from '../../lib/http';
import type { SessionUser } from '../auth/sessions';

type Actor = SessionUser;
type CustomerRow = typeof customers.$inferSelect;
type CustomerChanges = Partial<CustomerValues>;

/** The expression of the customers_search_idx trigram index, so the GIN index serves the search. */
const searchText = sql`lower(${customers.name} || ' ' || ${customers.email} || ' ' || coalesce(${customers.company}, ''))`;

/**
 * Each row's contract counts, as subqueries of the same query (served by contracts_customer_idx). Written
 * with explicit table names: Drizzle leaves columns unqualified in a single-table select.
 */
const contractCount = sql<number>`(select count(*)::int from ${contracts} as counted where counted.customer_id = ${customers}.id)`;
const activeContractCount = sql<number>`(select count(*)::int from ${contracts} as counted where counted.customer_id = ${customers}.id and counted.status = 'active')`;

function selectCustomers(db: Db) {
  return db.select({ row: customers, contractCount, activeContractCount }).from(customers);
}

/** Staff see every customer; a client only the customer its account is linked to (or none). */
function visibleTo(actor: Actor): SQL | undefined {
  if (can(actor, 'customer:read:any')) return undefined;
  if (can(actor, 'customer:read:own') && actor.customerId) return eq(customers.id, actor.customerId);
  return sql`false`;
}

export function toCustomer(
  row: CustomerRow,
  counts: { contractCount: number; activeContractCount: number },
  actor?: Actor,
): Customer {
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
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function listCustomers(
  db: Db,
  actor: Actor,
  query: ListQuery,
): Promise<{ rows: Customer[]; total: number }> {
  const conditions = [visibleTo(actor)];
  const q = query.q?.replaceAll('\u0000', '').trim();
  if (q) conditions.push(sql`${searchText} like ${likePattern(q)}`);
  const where = and(...conditions);
  const [rows, [{ total }]] = await Promise.all([
    selectCustomers(db)
      .where(where)
      .orderBy(asc(customers.name), asc(customers.id))
      .limit(query.limit)
      .offset(query.offset),
    db.select({ total: count() }).from(customers).where(where),
  ]);
  return { rows: rows.map((r) => toCustomer(r.row, r, actor)), total };
}

export async function getCustomer(db: Db, actor: Actor, id: string): Promise<Customer> {
  const [found] = await selectCustomers(db)
    .where(and(eq(customers.id, id), visibleTo(actor)))
    .limit(1);
  if (!found) throw notFound('Customer');
  return toCustomer(found.row, found, actor);
}

export async function createCustomer(db: Db, actor: Actor, input: CustomerValues): Promise<Customer> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(customers)
      .values({ ...input, createdBy: actor.id })
      .returning();
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
    const [found] = await selectCustomers(tx).where(eq(customers.id, id)).for('update', { of: customers });
    if (!found) throw notFound('Customer');
    const before = toCustomer(found.row, found);
    if (Object.keys(changes).length === 0) return before;
    const [row] = await tx
      .update(customers)
      .set({ ...changes, updatedAt: new Date() })
      .where(eq(customers.id, id))
      .returning();
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
    const [row] = await tx.select().from(customers).where(eq(customers.id, id)).for('update');
    if (!row) throw notFound('Customer');
    const [counts] = await tx
      .select({
        contractCount: count(),
        activeContractCount: sql<number>`count(*) filter (where ${contracts.status} = 'active')::int`,
      })
      .from(contracts)
      .where(eq(contracts.customerId, id));
    const n = counts.contractCount;
    if (n > 0) throw conflict(`This customer has ${n} contract${n === 1 ? '' : 's'} and cannot be deleted`);
    await tx.delete(customers).where(eq(customers.id, id));
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'customer.deleted',
      entity: 'customer',
      entityId: id,
      before: toCustomer(row, counts),
    });
  });
}
