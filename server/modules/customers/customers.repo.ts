import type { CustomerKind } from '@shared/contracts/agencies';
import { and, asc, count, eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { contracts, customers } from '../../db/schema';
import { type BoundedTotal, boundedTotal, countBound } from '../../lib/bounded-count';
import { businessToday } from '../../lib/business-day';
import { likePattern } from '../../lib/http';
import { type AgencyPeriodRow, agencyOfRecordOnSql } from './agency-of-record.repo';

export type CustomerRow = typeof customers.$inferSelect;
export type ContractCounts = { contractCount: number; activeContractCount: number };
/** A customer with its contract counts and its agency of record on the day asked (null: none). */
export type CustomerWithCounts = ContractCounts & { row: CustomerRow; agencyOfRecord: AgencyPeriodRow | null };

/** Which customers a query may return: every one, the one with this id, or none. */
export type CustomerScope = { all: true } | { all: false; customerId: string | null };

/** The expression of the customers_search_idx trigram index, so the GIN index serves the search. */
const searchText = sql`lower(${customers.name} || ' ' || ${customers.email} || ' ' || coalesce(${customers.company}, ''))`;

/**
 * Each row's contract counts, as subqueries of the same query (served by contracts_customer_idx). Written
 * with explicit table names: Drizzle leaves columns unqualified in a single-table select.
 */
const contractCount = sql<number>`(select count(*)::int from ${contracts} as counted where counted.customer_id = ${customers}.id)`;
const activeContractCount = sql<number>`(select count(*)::int from ${contracts} as counted where counted.customer_id = ${customers}.id and counted.status = 'active')`;

/** Customers with their contract counts and the agency of record covering `day` (YYYY-MM-DD), in one statement. */
function selectCustomers(db: Db, day: string) {
  return db
    .select({ row: customers, contractCount, activeContractCount, agencyOfRecord: agencyOfRecordOnSql(day) })
    .from(customers);
}

function inScope(scope: CustomerScope): SQL | undefined {
  if (scope.all) return undefined;
  return scope.customerId ? eq(customers.id, scope.customerId) : sql`false`;
}

/**
 * A page of customers by name with their contract counts and agency of record on `day` (default: the business's
 * today), and the number matching (bounded); `q` searches the index.
 */
export async function selectCustomerPage(
  db: Db,
  filter: { scope: CustomerScope; day?: string; q?: string; kind?: CustomerKind; limit: number; offset: number },
): Promise<{ rows: CustomerWithCounts[] } & BoundedTotal> {
  const conditions = [inScope(filter.scope)];
  // The agencies of the forms' pickers: served by customers_agencies_idx (name, id where kind = 'agency').
  if (filter.kind) conditions.push(eq(customers.kind, filter.kind));
  if (filter.q) conditions.push(sql`${searchText} like ${likePattern(filter.q)}`);
  const where = and(...conditions);
  const bound = countBound(filter);
  const matches = db
    .select({ one: sql`1` })
    .from(customers)
    .where(where)
    .limit(bound + 1)
    .as('matches');
  const [rows, [{ total }]] = await Promise.all([
    selectCustomers(db, filter.day ?? businessToday())
      .where(where)
      .orderBy(asc(customers.name), asc(customers.id))
      .limit(filter.limit)
      .offset(filter.offset),
    db.select({ total: count() }).from(matches),
  ]);
  return { rows, ...boundedTotal(total, bound) };
}

/** One customer in the scope, with its contract counts. */
export async function selectCustomerWithCounts(
  db: Db,
  id: string,
  scope: CustomerScope,
  day: string,
): Promise<CustomerWithCounts | undefined> {
  const [found] = await selectCustomers(db, day)
    .where(and(eq(customers.id, id), inScope(scope)))
    .limit(1);
  return found;
}

/** The customer with its contract counts, its row locked (FOR UPDATE OF customers) until the transaction ends. */
export async function lockCustomerWithCounts(tx: Db, id: string, day: string): Promise<CustomerWithCounts | undefined> {
  const [found] = await selectCustomers(tx, day).where(eq(customers.id, id)).for('update', { of: customers });
  return found;
}

/** The customer, its row locked (FOR UPDATE) until the transaction ends. */
export async function lockCustomer(tx: Db, id: string): Promise<CustomerRow | undefined> {
  const [row] = await tx.select().from(customers).where(eq(customers.id, id)).for('update');
  return row;
}

export async function insertCustomer(tx: Db, values: typeof customers.$inferInsert): Promise<CustomerRow> {
  const [row] = await tx.insert(customers).values(values).returning();
  return row;
}

/** The customer's row, or undefined. */
export async function selectCustomerRow(db: Db, id: string): Promise<CustomerRow | undefined> {
  const [row] = await db.select().from(customers).where(eq(customers.id, id));
  return row;
}

/**
 * The customer, its row share-locked (FOR SHARE) until the transaction ends: its kind cannot change meanwhile (a
 * change of kind locks it FOR UPDATE), while other readers that share-lock it go on.
 */
export async function shareLockCustomer(tx: Db, id: string): Promise<CustomerRow | undefined> {
  const [row] = await tx.select().from(customers).where(eq(customers.id, id)).for('share');
  return row;
}

export type CustomerRowChanges = Partial<Omit<typeof customers.$inferInsert, 'id' | 'createdAt' | 'createdBy'>>;

/** Sets the given fields and updatedAt. */
export async function updateCustomerRow(tx: Db, id: string, changes: CustomerRowChanges): Promise<CustomerRow> {
  const [row] = await tx
    .update(customers)
    .set({ ...changes, updatedAt: new Date() })
    .where(eq(customers.id, id))
    .returning();
  return row;
}

/** The customer's contracts, all and active, in one aggregate. */
export async function countContractsOfCustomer(tx: Db, id: string): Promise<ContractCounts> {
  const [counts] = await tx
    .select({
      contractCount: count(),
      activeContractCount: sql<number>`count(*) filter (where ${contracts.status} = 'active')::int`,
    })
    .from(contracts)
    .where(eq(contracts.customerId, id));
  return counts;
}

export async function deleteCustomerRow(tx: Db, id: string): Promise<void> {
  await tx.delete(customers).where(eq(customers.id, id));
}
