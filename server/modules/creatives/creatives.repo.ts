import { and, count, desc, eq, gt, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { contracts, creatives, users } from '../../db/schema';

export type CreativeRow = typeof creatives.$inferSelect;

const columns = {
  creative: creatives,
  contractTitle: contracts.title,
  contractRef: {
    billToCustomerId: contracts.billToCustomerId,
    status: contracts.status,
    salesRepId: contracts.salesRepId,
  },
  uploaderFirstName: users.firstName,
  uploaderLastName: users.lastName,
};

export type CreativeListRow = {
  creative: CreativeRow;
  contractTitle: string | null;
  /** What the access rules need of the creative's contract. */
  contractRef: { billToCustomerId: string; status: string; salesRepId: string | null };
  uploaderFirstName: string | null;
  uploaderLastName: string | null;
};

/** A page of creatives, newest first, with the contract's title and the uploader's name; and the total. */
export async function selectCreativePage(
  db: Db,
  where: SQL,
  page: { limit: number; offset: number },
): Promise<{ rows: CreativeListRow[]; total: number }> {
  const [rows, [{ total }]] = await Promise.all([
    db
      .select(columns)
      .from(creatives)
      .innerJoin(contracts, eq(contracts.id, creatives.contractId))
      .leftJoin(users, eq(users.id, creatives.uploadedBy))
      .where(where)
      .orderBy(desc(creatives.uploadedAt), desc(creatives.id))
      .limit(page.limit)
      .offset(page.offset),
    db
      .select({ total: count() })
      .from(creatives)
      .innerJoin(contracts, eq(contracts.id, creatives.contractId))
      .where(where),
  ]);
  return { rows, total };
}

/** One creative with its contract (for the access check). */
export async function selectCreative(db: Db, id: string) {
  const [row] = await db
    .select({ ...columns, contract: contracts })
    .from(creatives)
    .innerJoin(contracts, eq(contracts.id, creatives.contractId))
    .leftJoin(users, eq(users.id, creatives.uploadedBy))
    .where(eq(creatives.id, id))
    .limit(1);
  return row;
}

/** The contract creatives are uploaded to or listed for (for the access check and its status). */
export async function selectContract(db: Db, id: string): Promise<typeof contracts.$inferSelect | undefined> {
  const [row] = await db.select().from(contracts).where(eq(contracts.id, id)).limit(1);
  return row;
}

export async function insertCreative(tx: Db, values: typeof creatives.$inferInsert): Promise<CreativeRow> {
  const [row] = await tx.insert(creatives).values(values).returning();
  return row;
}

/** Deletes the row; undefined when it was already gone (a concurrent delete). */
export async function deleteCreativeRow(tx: Db, id: string): Promise<CreativeRow | undefined> {
  const [row] = await tx
    .delete(creatives)
    .where(and(eq(creatives.id, id)))
    .returning();
  return row;
}

/**
 * Until the transaction ends, the uploads of one customer (the client's: the bill-to of the contracts they go to)
 * are decided one at a time (the caps below hold).
 */
export async function lockCustomerUploads(tx: Db, customerId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`creative-upload:${customerId}`}, 0))`);
}

export type UploadUsage = {
  /** The user's uploads in the last hour, and the seconds until the oldest of them leaves that hour. */
  lastHour: number;
  secondsUntilRoom: number;
  /** The bytes of every creative the customer keeps: those of the contracts billed to it. */
  customerBytes: number;
};

export async function selectUploadUsage(db: Db, userId: string, customerId: string): Promise<UploadUsage> {
  const [[recent], [stored]] = await Promise.all([
    db
      .select({
        lastHour: count(),
        secondsUntilRoom: sql<
          number | null
        >`ceil(extract(epoch from min(${creatives.uploadedAt}) + interval '1 hour' - now()))::int`,
      })
      .from(creatives)
      .where(and(eq(creatives.uploadedBy, userId), gt(creatives.uploadedAt, sql`now() - interval '1 hour'`))),
    db
      .select({ bytes: sql<string>`coalesce(sum(${creatives.sizeBytes}), 0)::bigint` })
      .from(creatives)
      .innerJoin(contracts, eq(contracts.id, creatives.contractId))
      .where(eq(contracts.billToCustomerId, customerId)),
  ]);
  return {
    lastHour: Number(recent.lastHour),
    secondsUntilRoom: Math.max(1, Number(recent.secondsUntilRoom ?? 1)),
    customerBytes: Number(stored.bytes),
  };
}
