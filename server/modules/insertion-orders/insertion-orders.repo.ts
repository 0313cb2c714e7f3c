import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { sqlBillingContactName, sqlBillingEmail } from '../../db/billing-recipient';
import type { Db } from '../../db/client';
import {
  contractLineItems,
  contracts,
  customers,
  insertionOrderEvents,
  insertionOrders,
  packages,
  products,
  users,
} from '../../db/schema';
import { rowsOf } from '../../lib/db-rows';

export type InsertionOrderRow = typeof insertionOrders.$inferSelect;
export type InsertionOrderInsert = typeof insertionOrders.$inferInsert;
export type InsertionOrderEventRow = typeof insertionOrderEvents.$inferSelect;
export type ContractRow = typeof contracts.$inferSelect;
export type IoCustomer = Pick<
  typeof customers.$inferSelect,
  'id' | 'name' | 'email' | 'company' | 'address' | 'city' | 'state' | 'zipCode' | 'country' | 'contactPerson'
>;

/**
 * The customer an IO is addressed to: the contract's bill-to (the customer itself, or its agency of record:
 * product.md section 20), with its billing contact's e-mail and name (db/billing-recipient.ts), who receives
 * the link and signs.
 */
export type IoBillTo = IoCustomer & { billingEmail: string; billingContactName: string | null };

/**
 * What an IO freezes of a contract: the row, its bill-to, the advertiser (the contract's customer), its rep's
 * name and e-mail, its package's name.
 */
export type IoContractRows = {
  contract: ContractRow;
  billTo: IoBillTo;
  advertiser: { id: string; name: string };
  rep: { id: string; firstName: string; lastName: string; email: string } | null;
  packageName: string | null;
};

const billTo = alias(customers, 'bill_to');

export async function selectContractForIo(db: Db, contractId: string): Promise<IoContractRows | null> {
  const [row] = await db
    .select({
      contract: contracts,
      billTo: {
        id: billTo.id,
        name: billTo.name,
        email: billTo.email,
        company: billTo.company,
        address: billTo.address,
        city: billTo.city,
        state: billTo.state,
        zipCode: billTo.zipCode,
        country: billTo.country,
        contactPerson: billTo.contactPerson,
        billingEmail: sqlBillingEmail('bill_to'),
        billingContactName: sqlBillingContactName('bill_to'),
      },
      advertiser: { id: customers.id, name: customers.name },
      repId: users.id,
      repFirstName: users.firstName,
      repLastName: users.lastName,
      repEmail: users.email,
      packageName: packages.name,
    })
    .from(contracts)
    .innerJoin(customers, eq(customers.id, contracts.customerId))
    .innerJoin(billTo, eq(billTo.id, contracts.billToCustomerId))
    .leftJoin(users, eq(users.id, contracts.salesRepId))
    .leftJoin(packages, eq(packages.id, contracts.packageId))
    .where(eq(contracts.id, contractId))
    .limit(1);
  if (!row) return null;
  return {
    contract: row.contract,
    billTo: row.billTo,
    advertiser: row.advertiser,
    rep:
      row.repId === null
        ? null
        : { id: row.repId, firstName: row.repFirstName!, lastName: row.repLastName!, email: row.repEmail! },
    packageName: row.packageName,
  };
}

/** The contract's lines as sold, with their product's name and ad type, in their order. */
export async function selectIoLines(db: Db, contractId: string) {
  return db
    .select({ line: contractLineItems, productName: products.name, adType: products.adType })
    .from(contractLineItems)
    .innerJoin(products, eq(products.id, contractLineItems.productId))
    .where(eq(contractLineItems.contractId, contractId))
    .orderBy(asc(contractLineItems.position), asc(contractLineItems.id));
}

/**
 * The contract's row lock (the send's transaction may hold it already) and its next version number: versions
 * are numbered under this lock, the unique (contract_id, version) is the backstop.
 */
export async function lockContractForVersion(tx: Db, contractId: string): Promise<number | null> {
  const locked = await tx
    .select({ id: contracts.id })
    .from(contracts)
    .where(eq(contracts.id, contractId))
    .for('update');
  if (locked.length === 0) return null;
  const [row] = await tx
    .select({ next: sql<number>`coalesce(max(${insertionOrders.version}), 0)::int + 1` })
    .from(insertionOrders)
    .where(eq(insertionOrders.contractId, contractId));
  return Number(row.next);
}

export async function insertInsertionOrder(tx: Db, values: InsertionOrderInsert): Promise<InsertionOrderRow> {
  const [row] = await tx.insert(insertionOrders).values(values).returning();
  return row;
}

export async function insertIoEvent(tx: Db, values: typeof insertionOrderEvents.$inferInsert): Promise<void> {
  await tx.insert(insertionOrderEvents).values(values);
}

export async function selectIoByToken(db: Db, token: string): Promise<InsertionOrderRow | null> {
  const [row] = await db.select().from(insertionOrders).where(eq(insertionOrders.token, token)).limit(1);
  return row ?? null;
}

export async function selectIoVersion(db: Db, contractId: string, version: number): Promise<InsertionOrderRow | null> {
  const [row] = await db
    .select()
    .from(insertionOrders)
    .where(and(eq(insertionOrders.contractId, contractId), eq(insertionOrders.version, version)))
    .limit(1);
  return row ?? null;
}

export async function selectNewestIo(db: Db, contractId: string): Promise<InsertionOrderRow | null> {
  const [row] = await db
    .select()
    .from(insertionOrders)
    .where(eq(insertionOrders.contractId, contractId))
    .orderBy(desc(insertionOrders.version))
    .limit(1);
  return row ?? null;
}

/** The newest version of each of these contracts. */
export async function selectNewestIos(db: Db, contractIds: readonly string[]): Promise<InsertionOrderRow[]> {
  if (contractIds.length === 0) return [];
  return db
    .selectDistinctOn([insertionOrders.contractId])
    .from(insertionOrders)
    .where(inArray(insertionOrders.contractId, [...contractIds]))
    .orderBy(insertionOrders.contractId, desc(insertionOrders.version));
}

export async function selectIosOfContract(db: Db, contractId: string) {
  const [versions, events] = await Promise.all([
    db
      .select({
        io: insertionOrders,
        sentByFirstName: users.firstName,
        sentByLastName: users.lastName,
      })
      .from(insertionOrders)
      .leftJoin(users, eq(users.id, insertionOrders.sentBy))
      .where(eq(insertionOrders.contractId, contractId))
      .orderBy(desc(insertionOrders.version)),
    selectIoEventsOfContract(db, contractId),
  ]);
  return { versions, events };
}

export async function selectIoEventsOfContract(db: Db, contractId: string) {
  return db
    .select({ event: insertionOrderEvents, actorFirstName: users.firstName, actorLastName: users.lastName })
    .from(insertionOrderEvents)
    .leftJoin(users, eq(users.id, insertionOrderEvents.actorId))
    .where(eq(insertionOrderEvents.contractId, contractId))
    .orderBy(asc(insertionOrderEvents.at), asc(insertionOrderEvents.id));
}

export async function selectIoEvents(db: Db, insertionOrderId: string): Promise<InsertionOrderEventRow[]> {
  return db
    .select()
    .from(insertionOrderEvents)
    .where(eq(insertionOrderEvents.insertionOrderId, insertionOrderId))
    .orderBy(asc(insertionOrderEvents.at), asc(insertionOrderEvents.id));
}

/** The first view of a version: true for the one request that set viewed_at. */
export async function markViewed(tx: Db, id: string): Promise<boolean> {
  const rows = await tx
    .update(insertionOrders)
    .set({ viewedAt: sql`now()` })
    .where(and(eq(insertionOrders.id, id), sql`${insertionOrders.viewedAt} is null`))
    .returning({ id: insertionOrders.id });
  return rows.length === 1;
}

/** Only a version still with the customer, of a contract still sent, may be accepted or declined. */
const stillOpen = (id: string) =>
  and(
    eq(insertionOrders.id, id),
    eq(insertionOrders.status, 'sent'),
    sql`exists (select 1 from contracts c where c.id = ${insertionOrders.contractId} and c.status = 'sent')`,
  );

/** Accepts a version: one conditional UPDATE; null when it was no longer open (accepted, declined, superseded). */
export async function acceptIoRow(
  tx: Db,
  id: string,
  values: Pick<
    InsertionOrderInsert,
    | 'acceptedAt'
    | 'signerName'
    | 'signerEmail'
    | 'signerIp'
    | 'signerUserAgent'
    | 'signedPdfKey'
    | 'signedPdfSha256'
    | 'signedPdfBytes'
  >,
): Promise<InsertionOrderRow | null> {
  const [row] = await tx
    .update(insertionOrders)
    .set({ ...values, status: 'accepted' })
    .where(stillOpen(id))
    .returning();
  return row ?? null;
}

export async function declineIoRow(tx: Db, id: string, reason: string): Promise<InsertionOrderRow | null> {
  const [row] = await tx
    .update(insertionOrders)
    .set({ status: 'declined', declinedAt: sql`now()`, declineReason: reason })
    .where(stillOpen(id))
    .returning();
  return row ?? null;
}

/** Marks a contract's open or accepted version superseded: the versions changed, one statement. */
export async function supersedeIoRows(tx: Db, contractId: string): Promise<InsertionOrderRow[]> {
  return tx
    .update(insertionOrders)
    .set({ status: 'superseded', supersededAt: sql`now()` })
    .where(and(eq(insertionOrders.contractId, contractId), inArray(insertionOrders.status, ['sent', 'accepted'])))
    .returning();
}

/** The contract's status and its newest version's status (null: none), read in the caller's transaction. */
export async function selectPaymentGate(
  tx: Db,
  contractId: string,
): Promise<{ contractStatus: string; version: number | null; status: string | null } | null> {
  const result = await tx.execute(sql`
    select c.status as contract_status, io.version, io.status
    from contracts c
    left join lateral (
      select version, status from insertion_orders where contract_id = c.id order by version desc limit 1
    ) io on true
    where c.id = ${contractId}`);
  const row = rowsOf<{ contract_status: string; version: number | null; status: string | null }>(result)[0];
  return row
    ? {
        contractStatus: row.contract_status,
        version: row.version === null ? null : Number(row.version),
        status: row.status,
      }
    : null;
}

/** Which version of this contract a file's SHA-256 is: as sent, or as signed. */
export async function selectVersionByHash(db: Db, contractId: string, sha256: string) {
  const [row] = await db
    .select({
      version: insertionOrders.version,
      kind: sql<'sent' | 'signed'>`case when ${insertionOrders.pdfSha256} = ${sha256} then 'sent' else 'signed' end`,
    })
    .from(insertionOrders)
    .where(
      and(
        eq(insertionOrders.contractId, contractId),
        sql`(${insertionOrders.pdfSha256} = ${sha256} or ${insertionOrders.signedPdfSha256} = ${sha256})`,
      ),
    )
    .orderBy(desc(insertionOrders.version))
    .limit(1);
  return row ?? null;
}

/** The contract's access fields (rep, customer, status) for the staff and client routes' rules. */
export async function selectContractAccess(db: Db, contractId: string) {
  const [row] = await db
    .select({
      id: contracts.id,
      salesRepId: contracts.salesRepId,
      customerId: contracts.customerId,
      status: contracts.status,
      createdBy: contracts.createdBy,
    })
    .from(contracts)
    .where(eq(contracts.id, contractId))
    .limit(1);
  return row ?? null;
}
