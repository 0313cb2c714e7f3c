import type { Role } from '@shared/roles';
import { and, asc, count, desc, eq, ilike, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { contracts, customers, users } from '../../db/schema';
import { likePattern } from '../../lib/http';

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;

/**
 * A page of users by name, and the number matching. `q` searches first name, last name, e-mail and the
 * full name; without `includeClients` client accounts are left out.
 */
export async function selectUserPage(
  db: Db,
  filter: { includeClients: boolean; q?: string; role?: Role; limit: number; offset: number },
): Promise<{ rows: UserRow[]; total: number }> {
  const conditions = [filter.includeClients ? undefined : ne(users.role, 'client')];
  if (filter.q) {
    const pattern = likePattern(filter.q);
    conditions.push(
      or(
        ilike(users.firstName, pattern),
        ilike(users.lastName, pattern),
        ilike(users.email, pattern),
        sql`lower(${users.firstName} || ' ' || ${users.lastName}) like ${pattern}`,
      ),
    );
  }
  if (filter.role) conditions.push(eq(users.role, filter.role));
  const where = and(...conditions);
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(users)
      .where(where)
      .orderBy(asc(users.firstName), asc(users.lastName))
      .limit(filter.limit)
      .offset(filter.offset),
    db.select({ total: count() }).from(users).where(where),
  ]);
  return { rows, total };
}

export async function selectUser(db: Db, id: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

/** The account signing in with this e-mail (given in lower case), compared case-insensitively. */
export async function selectUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(sql`lower(${users.email}) = ${email}`).limit(1);
  return row;
}

/** The id of the account signing in with this e-mail (given in lower case), compared case-insensitively. */
export async function selectUserIdByEmail(db: Db, email: string): Promise<string | undefined> {
  const [row] = await db.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = ${email}`).limit(1);
  return row?.id;
}

/** The customer's client-portal account (an active one first), if any. */
export async function selectLinkedClient(db: Db, customerId: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.customerId, customerId), eq(users.role, 'client')))
    .orderBy(desc(users.isActive), asc(users.createdAt))
    .limit(1);
  return row;
}

export async function insertUser(tx: Db, values: NewUserRow): Promise<UserRow> {
  const [row] = await tx.insert(users).values(values).returning();
  return row;
}

/** INSERT ... ON CONFLICT DO NOTHING: undefined when the e-mail (a unique index) is already taken. */
export async function insertUserUnlessTaken(tx: Db, values: NewUserRow): Promise<UserRow | undefined> {
  const [row] = await tx.insert(users).values(values).onConflictDoNothing().returning();
  return row;
}

/** Sets the given columns (undefined ones are left as they are) and updatedAt. */
export async function updateUserRow(tx: Db, id: string, values: Partial<NewUserRow>): Promise<UserRow> {
  const [row] = await tx
    .update(users)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(users.id, id))
    .returning();
  return row;
}

export async function deleteUserRow(tx: Db, id: string): Promise<void> {
  await tx.delete(users).where(eq(users.id, id));
}

/** How many contracts have the user as their sales rep. */
export async function countContractsOfRep(db: Db, userId: string): Promise<number> {
  const [{ n }] = await db.select({ n: count() }).from(contracts).where(eq(contracts.salesRepId, userId));
  return n;
}

export async function customerExists(db: Db, customerId: string): Promise<boolean> {
  const [row] = await db.select({ id: customers.id }).from(customers).where(eq(customers.id, customerId)).limit(1);
  return Boolean(row);
}
