import { and, asc, count, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { contractLineItems, contracts, customers, packageItems, packages, products, users } from '../../db/schema';
import { likePattern } from '../../lib/http';

export type ContractRow = typeof contracts.$inferSelect;
export type ContractInsert = typeof contracts.$inferInsert;
export type LineItemInsert = typeof contractLineItems.$inferInsert;
export type ProductRow = typeof products.$inferSelect;
export type PackageRow = typeof packages.$inferSelect;
export type CustomerRef = Pick<typeof customers.$inferSelect, 'id' | 'name' | 'email' | 'company' | 'contactPerson'>;

/** A contract row with the names the list shows beside it. */
export type ContractListRow = {
  contract: ContractRow;
  customerName: string | null;
  salesRepFirstName: string | null;
  salesRepLastName: string | null;
};

export type ContractDetailRows = ContractListRow & {
  customer: CustomerRef | null;
  package: PackageRow | null;
  packageItems: { item: typeof packageItems.$inferSelect; product: ProductRow | null }[];
  lineItems: { line: typeof contractLineItems.$inferSelect; product: ProductRow }[];
};

export type ContractFilter = {
  status?: string;
  q?: string;
  customerId?: string;
  /** Only this sales rep's contracts. */
  salesRepId?: string;
  limit: number;
  offset: number;
};

const listColumns = {
  contract: contracts,
  customerName: customers.name,
  salesRepFirstName: users.firstName,
  salesRepLastName: users.lastName,
};

/** One statement for the page (with the customer's and rep's names joined in) and one for the total. */
export async function selectContractPage(
  db: Db,
  filter: ContractFilter,
): Promise<{ rows: ContractListRow[]; total: number }> {
  const conditions: SQL[] = [];
  if (filter.status) conditions.push(eq(contracts.status, filter.status));
  if (filter.customerId) conditions.push(eq(contracts.customerId, filter.customerId));
  if (filter.salesRepId) conditions.push(eq(contracts.salesRepId, filter.salesRepId));
  if (filter.q) {
    // The same expression as contracts_search_idx, so the trigram index serves it.
    conditions.push(
      sql`lower(coalesce(${contracts.description}, '') || ' ' || ${contracts.id}::text) like ${likePattern(filter.q)}`,
    );
  }
  const where = conditions.length ? and(...conditions) : undefined;
  const [rows, [{ total }]] = await Promise.all([
    db
      .select(listColumns)
      .from(contracts)
      .leftJoin(customers, eq(customers.id, contracts.customerId))
      .leftJoin(users, eq(users.id, contracts.salesRepId))
      .where(where)
      .orderBy(desc(contracts.createdAt), desc(contracts.id))
      .limit(filter.limit)
      .offset(filter.offset),
    db.select({ total: count() }).from(contracts).where(where),
  ]);
  return { rows, total };
}

/**
 * A contract with its customer, package (items and their products) and line items (with products):
 * three statements whatever the size of the contract.
 */
export async function selectContractDetail(db: Db, id: string): Promise<ContractDetailRows | null> {
  const packageOfContract = db.select({ id: contracts.packageId }).from(contracts).where(eq(contracts.id, id));
  const [[head], itemRows, lineRows] = await Promise.all([
    db
      .select({
        ...listColumns,
        customer: {
          id: customers.id,
          name: customers.name,
          email: customers.email,
          company: customers.company,
          contactPerson: customers.contactPerson,
        },
        package: packages,
      })
      .from(contracts)
      .leftJoin(customers, eq(customers.id, contracts.customerId))
      .leftJoin(users, eq(users.id, contracts.salesRepId))
      .leftJoin(packages, eq(packages.id, contracts.packageId))
      .where(eq(contracts.id, id))
      .limit(1),
    db
      .select({ item: packageItems, product: products })
      .from(packageItems)
      .leftJoin(products, eq(products.id, packageItems.productId))
      .where(inArray(packageItems.packageId, packageOfContract))
      .orderBy(asc(packageItems.position), asc(packageItems.id)),
    db
      .select({ line: contractLineItems, product: products })
      .from(contractLineItems)
      .innerJoin(products, eq(products.id, contractLineItems.productId))
      .where(eq(contractLineItems.contractId, id))
      .orderBy(asc(contractLineItems.position), asc(contractLineItems.id)),
  ]);
  if (!head) return null;
  return { ...head, packageItems: itemRows, lineItems: lineRows };
}

export async function selectContract(db: Db, id: string): Promise<ContractRow | undefined> {
  const [row] = await db.select().from(contracts).where(eq(contracts.id, id)).limit(1);
  return row;
}

/** The row, locked until the transaction ends: every change re-checks its rules on the locked row. */
export async function lockContract(tx: Db, id: string): Promise<ContractRow | undefined> {
  const [row] = await tx.select().from(contracts).where(eq(contracts.id, id)).for('update');
  return row;
}

export async function selectLineItems(db: Db, contractId: string) {
  return db
    .select()
    .from(contractLineItems)
    .where(eq(contractLineItems.contractId, contractId))
    .orderBy(asc(contractLineItems.position));
}

export async function insertContract(tx: Db, values: ContractInsert): Promise<ContractRow> {
  const [row] = await tx.insert(contracts).values(values).returning();
  return row;
}

export async function updateContractRow(tx: Db, id: string, values: Partial<ContractInsert>): Promise<ContractRow> {
  const [row] = await tx
    .update(contracts)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(contracts.id, id))
    .returning();
  return row;
}

export async function replaceLineItems(tx: Db, contractId: string, lines: Omit<LineItemInsert, 'contractId'>[]) {
  await tx.delete(contractLineItems).where(eq(contractLineItems.contractId, contractId));
  if (lines.length) await tx.insert(contractLineItems).values(lines.map((line) => ({ ...line, contractId })));
}

export async function deleteContractRow(tx: Db, id: string): Promise<void> {
  await tx.delete(contracts).where(eq(contracts.id, id));
}

// --- What a contract refers to -------------------------------------------------------------------------

export async function selectCustomer(db: Db, id: string): Promise<CustomerRef | undefined> {
  const [row] = await db
    .select({
      id: customers.id,
      name: customers.name,
      email: customers.email,
      company: customers.company,
      contactPerson: customers.contactPerson,
    })
    .from(customers)
    .where(eq(customers.id, id))
    .limit(1);
  return row;
}

export async function selectProducts(db: Db, ids: string[]): Promise<ProductRow[]> {
  if (!ids.length) return [];
  return db.select().from(products).where(inArray(products.id, ids));
}

export async function selectPackage(db: Db, id: string): Promise<PackageRow | undefined> {
  const [row] = await db.select().from(packages).where(eq(packages.id, id)).limit(1);
  return row;
}

export async function selectUser(db: Db, id: string) {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

/** The customer's client-portal accounts, active ones first. */
export async function selectClientUsers(db: Db, customerId: string) {
  return db
    .select()
    .from(users)
    .where(and(eq(users.customerId, customerId), eq(users.role, 'client')))
    .orderBy(desc(users.isActive), asc(users.createdAt));
}

export async function selectUserByEmail(db: Db, email: string) {
  const [row] = await db.select().from(users).where(sql`lower(${users.email}) = ${email.toLowerCase()}`).limit(1);
  return row;
}

export async function insertUser(tx: Db, values: typeof users.$inferInsert) {
  const [row] = await tx.insert(users).values(values).returning();
  return row;
}
