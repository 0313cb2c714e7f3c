import { and, asc, count, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { sqlBillingContactName, sqlBillingEmail } from '../../db/billing-recipient';
import type { Db } from '../../db/client';
import {
  contractAdjustments,
  contractLineItems,
  contracts,
  customers,
  inventoryHolds,
  packageItems,
  packages,
  products,
  users,
} from '../../db/schema';
import { type BoundedTotal, boundedTotal, countBound } from '../../lib/bounded-count';
import { likePattern } from '../../lib/http';
import { prepared } from '../../lib/prepared';

export type ContractRow = typeof contracts.$inferSelect;
export type ContractInsert = typeof contracts.$inferInsert;
export type LineItemInsert = typeof contractLineItems.$inferInsert;
export type ProductRow = typeof products.$inferSelect;
export type PackageRow = typeof packages.$inferSelect;
export type CustomerRef = Pick<typeof customers.$inferSelect, 'id' | 'name' | 'email' | 'company' | 'contactPerson'>;
/**
 * The customer a contract is sent to, with whom its requests for payment reach (the pay-link e-mail): its billing
 * contact's e-mail and name when it has one, else its own (db/billing-recipient.ts).
 */
export type SendableCustomer = CustomerRef & { billingEmail: string; billingContactName: string | null };

/** A contract row with the names the list shows beside it. */
export type ContractListRow = {
  contract: ContractRow;
  customerName: string | null;
  /** The bill-to customer's name (the customer's own when billed to it). */
  billToName: string | null;
  salesRepFirstName: string | null;
  salesRepLastName: string | null;
};

export type ContractDetailRows = ContractListRow & {
  /** The hold of a sent contract on its inventory slots (inventory_holds), if it has one. */
  holdUntil: Date | null;
  /** The contract that renews this one (contracts.renewal_of_id), if any. */
  renewedBy: { id: string; status: string } | null;
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
  /** Only contracts paused for this reason (contracts.pause_reason). */
  pauseReason?: string;
  /**
   * Only running contracts (active or paused) whose auto-stop date falls from `from` to `from` + `days`: the
   * reports' "expiring within 30 days" (reports.repo selectContractFigures, contracts_auto_stop_idx).
   */
  expiring?: { from: string; days: number };
  limit: number;
  offset: number;
};

/** The customer a contract is billed to (contracts.bill_to_customer_id: the customer itself, or its agency). */
const billTo = alias(customers, 'bill_to');

const listColumns = {
  contract: contracts,
  customerName: customers.name,
  billToName: billTo.name,
  salesRepFirstName: users.firstName,
  salesRepLastName: users.lastName,
};

type PageStatements = ReturnType<typeof preparePage>;
const pageStatements = new WeakMap<Db, Map<number, PageStatements>>();

/**
 * The page and count statements of one combination of filters, built once and prepared by name: the
 * conditions are placeholders, so the SQL text is the same on every call (docs/decisions/017-performance.md).
 */
function preparePage(db: Db, mask: number) {
  const conditions: SQL[] = [];
  if (mask & 1) conditions.push(eq(contracts.status, sql.placeholder('status')));
  if (mask & 2) conditions.push(eq(contracts.customerId, sql.placeholder('customerId')));
  if (mask & 4) conditions.push(eq(contracts.salesRepId, sql.placeholder('salesRepId')));
  if (mask & 16) conditions.push(eq(contracts.pauseReason, sql.placeholder('pauseReason')));
  if (mask & 32) {
    conditions.push(
      sql`${contracts.status} in ('active', 'paused') and ${contracts.autoStopDate} is not null and ${contracts.autoStopDate} between ${sql.placeholder('expiringFrom')}::date and ${sql.placeholder('expiringFrom')}::date + ${sql.placeholder('expiringDays')}::int`,
    );
  }
  const search = (mask & 8) !== 0;
  // contracts.search_text (title, description, id, customer's name; lower-cased, bounded), kept by triggers:
  // the column contracts_created_idx includes and contracts_search_idx (trigrams) indexes (decision 045).
  if (search) conditions.push(sql`${contracts.searchText} like ${sql.placeholder('pattern')}`);
  const where = conditions.length ? and(...conditions) : undefined;
  // A search is planned for its own pattern on every call (no statement name: PostgreSQL's unnamed statement
  // gets a custom plan), since the plan depends on how many rows the pattern matches: a common one walks
  // contracts_created_idx newest first and stops at the page's end, a rare one reads the trigram index and
  // sorts its few matches. A named statement would switch to one generic plan for every pattern.
  const name = (kind: string) => (search ? '' : `contracts_${kind}_${mask}`);
  const page = search
    ? searchPage(db, where)
    : db
        .select(listColumns)
        .from(contracts)
        .leftJoin(customers, eq(customers.id, contracts.customerId))
        .leftJoin(billTo, eq(billTo.id, contracts.billToCustomerId))
        .leftJoin(users, eq(users.id, contracts.salesRepId))
        .where(where)
        .orderBy(desc(contracts.createdAt), desc(contracts.id))
        .limit(sql.placeholder('limit'))
        .offset(sql.placeholder('offset'))
        .prepare(name('page'));
  // A bounded count: the matching rows up to `bound`, never the whole table.
  const matches = db.select({ one: sql`1` }).from(contracts).where(where).limit(sql.placeholder('bound')).as('matches');
  const total = db.select({ total: count() }).from(matches).prepare(name('count'));
  return { page, total };
}

/**
 * A search's page: the page's ids first, from contracts alone (id, created_at and search_text are all in
 * contracts_created_idx, so walking it newest first reads no table rows when q is the only filter), then
 * those rows with the names beside them.
 */
function searchPage(db: Db, where: SQL | undefined) {
  const found = db
    .select({ id: contracts.id, createdAt: contracts.createdAt })
    .from(contracts)
    .where(where)
    .orderBy(desc(contracts.createdAt), desc(contracts.id))
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .as('found');
  return db
    .select(listColumns)
    .from(found)
    .innerJoin(contracts, eq(contracts.id, found.id))
    .leftJoin(customers, eq(customers.id, contracts.customerId))
    .leftJoin(billTo, eq(billTo.id, contracts.billToCustomerId))
    .leftJoin(users, eq(users.id, contracts.salesRepId))
    .orderBy(desc(found.createdAt), desc(found.id))
    .prepare('');
}

/**
 * One statement for the page (with the customer's and rep's names joined in) and one for the total, bounded
 * (server/lib/bounded-count.ts): exact up to 1,000 rows past the page's start, "at least" beyond.
 */
export async function selectContractPage(
  db: Db,
  filter: ContractFilter,
): Promise<{ rows: ContractListRow[] } & BoundedTotal> {
  const mask =
    (filter.status ? 1 : 0) |
    (filter.customerId ? 2 : 0) |
    (filter.salesRepId ? 4 : 0) |
    (filter.q ? 8 : 0) |
    (filter.pauseReason ? 16 : 0) |
    (filter.expiring ? 32 : 0);
  let byMask = pageStatements.get(db);
  if (!byMask) {
    byMask = new Map();
    pageStatements.set(db, byMask);
  }
  let statements = byMask.get(mask);
  if (!statements) {
    statements = preparePage(db, mask);
    byMask.set(mask, statements);
  }
  const values = {
    status: filter.status,
    customerId: filter.customerId,
    salesRepId: filter.salesRepId,
    pattern: filter.q ? likePattern(filter.q) : undefined,
    pauseReason: filter.pauseReason,
    expiringFrom: filter.expiring?.from,
    expiringDays: filter.expiring?.days,
  };
  const bound = countBound(filter);
  const [rows, [{ total }]] = await Promise.all([
    statements.page.execute({ ...values, limit: filter.limit, offset: filter.offset }),
    statements.total.execute({ ...values, bound: bound + 1 }),
  ]);
  return { rows, ...boundedTotal(total, bound) };
}

/**
 * A contract with its customer, package (items and their products) and line items (with products):
 * three statements whatever the size of the contract.
 */
export async function selectContractDetail(db: Db, id: string): Promise<ContractDetailRows | null> {
  const [[head], itemRows, lineRows] = await Promise.all([
    prepared(db, 'contract_detail', prepareDetail).execute({ id }),
    prepared(db, 'contract_detail_package_items', preparePackageItems).execute({ id }),
    prepared(db, 'contract_detail_lines', prepareLines).execute({ id }),
  ]);
  if (!head) return null;
  return { ...head, packageItems: itemRows, lineItems: lineRows };
}

const prepareDetail = (db: Db) =>
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
      holdUntil: inventoryHolds.holdUntil,
      renewedBy: { id: renewals.id, status: renewals.status },
    })
    .from(contracts)
    .leftJoin(customers, eq(customers.id, contracts.customerId))
    .leftJoin(billTo, eq(billTo.id, contracts.billToCustomerId))
    .leftJoin(users, eq(users.id, contracts.salesRepId))
    .leftJoin(packages, eq(packages.id, contracts.packageId))
    .leftJoin(inventoryHolds, eq(inventoryHolds.contractId, contracts.id))
    .leftJoin(renewals, eq(renewals.renewalOfId, contracts.id))
    .where(eq(contracts.id, sql.placeholder('id')))
    .limit(1)
    .prepare('contract_detail');

/** The contract that renews another (contracts_renewal_of_key: at most one). */
const renewals = alias(contracts, 'renewal');

const preparePackageItems = (db: Db) =>
  db
    .select({ item: packageItems, product: products })
    .from(packageItems)
    .leftJoin(products, eq(products.id, packageItems.productId))
    .where(
      inArray(
        packageItems.packageId,
        db
          .select({ id: contracts.packageId })
          .from(contracts)
          .where(eq(contracts.id, sql.placeholder('id'))),
      ),
    )
    .orderBy(asc(packageItems.position), asc(packageItems.id))
    .prepare('contract_detail_package_items');

const prepareLines = (db: Db) =>
  db
    .select({ line: contractLineItems, product: products })
    .from(contractLineItems)
    .innerJoin(products, eq(products.id, contractLineItems.productId))
    .where(eq(contractLineItems.contractId, sql.placeholder('id')))
    .orderBy(asc(contractLineItems.position), asc(contractLineItems.id))
    .prepare('contract_detail_lines');

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

/**
 * What an edit may change on a contract: not its status or pause, which only the contract-status module moves
 * (its allowed-from table and conditional update; server/test/table-owners.test.ts).
 */
export type ContractEdit = Partial<Omit<ContractInsert, 'id' | 'status' | 'pauseReason' | 'createdAt'>>;

export async function updateContractRow(tx: Db, id: string, values: ContractEdit): Promise<ContractRow> {
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

// --- Amendments ---------------------------------------------------------------------------------------

export async function insertLineItem(tx: Db, line: LineItemInsert) {
  const [position] = await tx
    .select({ next: sql<number>`coalesce(max(${contractLineItems.position}) + 1, 0)::int` })
    .from(contractLineItems)
    .where(eq(contractLineItems.contractId, line.contractId));
  const [row] = await tx
    .insert(contractLineItems)
    .values({ ...line, position: position?.next ?? 0 })
    .returning();
  return row;
}

/** Sets a line's flight end, only when it ran past that day: the row count decides. */
export async function endLineFlight(tx: Db, contractId: string, lineId: string, endDate: string) {
  const [row] = await tx
    .update(contractLineItems)
    .set({ flightEnd: endDate })
    .where(
      and(
        eq(contractLineItems.id, lineId),
        eq(contractLineItems.contractId, contractId),
        sql`(${contractLineItems.flightEnd} is null or ${contractLineItems.flightEnd} > ${endDate}::date)`,
        sql`${contractLineItems.flightStart} <= ${endDate}::date`,
      ),
    )
    .returning();
  return row;
}

export async function insertAdjustments(tx: Db, rows: (typeof contractAdjustments.$inferInsert)[]) {
  if (rows.length) await tx.insert(contractAdjustments).values(rows);
}

export async function deleteContractRow(tx: Db, id: string): Promise<void> {
  await tx.delete(contracts).where(eq(contracts.id, id));
}

// --- What a contract refers to -------------------------------------------------------------------------

export async function selectCustomer(db: Db, id: string): Promise<SendableCustomer | undefined> {
  const [row] = await prepared(db, 'contract_customer', (d) =>
    d
      .select({
        id: customers.id,
        name: customers.name,
        email: customers.email,
        company: customers.company,
        contactPerson: customers.contactPerson,
        billingEmail: sqlBillingEmail('customers'),
        billingContactName: sqlBillingContactName('customers'),
      })
      .from(customers)
      .where(eq(customers.id, sql.placeholder('id')))
      .limit(1)
      .prepare('contract_customer'),
  ).execute({ id });
  return row;
}

/**
 * Whom a stored contract is sent to: its bill-to customer (the customer itself, or its agency of record) with
 * that customer's billing contact (db/billing-recipient.ts over the bill-to row), and the advertiser's name
 * (the contract's customer) for the e-mail that names both. One statement.
 */
export async function selectContractParties(
  db: Db,
  contractId: string,
): Promise<{ billTo: SendableCustomer; advertiserName: string } | undefined> {
  const [row] = await prepared(db, 'contract_parties', (d) =>
    d
      .select({
        billTo: {
          id: billTo.id,
          name: billTo.name,
          email: billTo.email,
          company: billTo.company,
          contactPerson: billTo.contactPerson,
          billingEmail: sqlBillingEmail('bill_to'),
          billingContactName: sqlBillingContactName('bill_to'),
        },
        advertiserName: customers.name,
      })
      .from(contracts)
      .innerJoin(customers, eq(customers.id, contracts.customerId))
      .innerJoin(billTo, eq(billTo.id, contracts.billToCustomerId))
      .where(eq(contracts.id, sql.placeholder('id')))
      .limit(1)
      .prepare('contract_parties'),
  ).execute({ id: contractId });
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
