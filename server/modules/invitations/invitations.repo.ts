import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { customers, users } from '../../db/schema';

/**
 * The records a link is sent for and the password it sets; the links themselves are password-tokens.repo.ts.
 */

/** The customer invited to the client portal: whom its account is for and where the link goes. */
export async function selectInvitedCustomer(db: Db, id: string) {
  const [row] = await db
    .select({ id: customers.id, name: customers.name, email: customers.email, contactPerson: customers.contactPerson })
    .from(customers)
    .where(eq(customers.id, id))
    .limit(1);
  return row;
}

/** The account a password reset is sent to. */
export async function selectUser(db: Db, id: string): Promise<typeof users.$inferSelect | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

/**
 * Sets the password of an active account: one conditional UPDATE, so a user deactivated meanwhile is not
 * changed. Answers whether it was set.
 */
export async function setActiveUserPassword(tx: Db, userId: string, passwordHash: string): Promise<boolean> {
  const updated = await tx
    .update(users)
    .set({ passwordHash, passwordSetAt: new Date(), updatedAt: new Date() })
    .where(and(eq(users.id, userId), eq(users.isActive, true)))
    .returning({ id: users.id });
  return updated.length > 0;
}
