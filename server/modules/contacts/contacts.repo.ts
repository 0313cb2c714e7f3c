import { and, asc, count, desc, eq, ne, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { contacts, customers } from '../../db/schema';
import { likePattern } from '../../lib/http';

export type ContactRow = typeof contacts.$inferSelect;
export type ContactFields = Pick<
  typeof contacts.$inferInsert,
  'name' | 'role' | 'email' | 'phone' | 'notes' | 'isPrimary' | 'isBilling'
>;
/** The two flags a customer has at most one contact with (the partial unique indexes contacts_primary_key and _billing_key). */
export type ContactFlag = 'isPrimary' | 'isBilling';

export async function customerExists(db: Db, customerId: string): Promise<boolean> {
  const [row] = await db.select({ id: customers.id }).from(customers).where(eq(customers.id, customerId)).limit(1);
  return Boolean(row);
}

/**
 * A page of the customer's contacts (contacts_customer_idx): the primary first, then the billing contact, then
 * by name; `q` searches the name, role and e-mail. And the number matching.
 */
export async function selectContactPage(
  db: Db,
  filter: { customerId: string; q?: string; limit: number; offset: number },
): Promise<{ rows: ContactRow[]; total: number }> {
  const conditions: SQL[] = [eq(contacts.customerId, filter.customerId)];
  if (filter.q) {
    conditions.push(
      sql`lower(${contacts.name} || ' ' || coalesce(${contacts.role}, '') || ' ' || coalesce(${contacts.email}, '')) like ${likePattern(filter.q)}`,
    );
  }
  const where = and(...conditions);
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(contacts)
      .where(where)
      .orderBy(desc(contacts.isPrimary), desc(contacts.isBilling), asc(contacts.name), asc(contacts.id))
      .limit(filter.limit)
      .offset(filter.offset),
    db.select({ total: count() }).from(contacts).where(where),
  ]);
  return { rows, total };
}

/** The contact, when it is the customer's. */
export async function selectContact(db: Db, customerId: string, contactId: string): Promise<ContactRow | undefined> {
  const [row] = await db
    .select()
    .from(contacts)
    .where(and(eq(contacts.id, contactId), eq(contacts.customerId, customerId)))
    .limit(1);
  return row;
}

/** The customer's contact, its row locked (FOR UPDATE) until the transaction ends. */
export async function lockContact(tx: Db, customerId: string, contactId: string): Promise<ContactRow | undefined> {
  const [row] = await tx
    .select()
    .from(contacts)
    .where(and(eq(contacts.id, contactId), eq(contacts.customerId, customerId)))
    .for('update');
  return row;
}

/**
 * Takes `flag` away from the customer's other contacts, in one statement: the customer's previous primary (or
 * billing) contact, when another one is about to get it. Answers the contacts changed, as they are now.
 * Two of these racing leave the second one's own flag to the partial unique index (23505: the service's 409).
 */
export async function clearFlagOfOthers(
  tx: Db,
  customerId: string,
  flag: ContactFlag,
  keepId: string | null,
): Promise<ContactRow[]> {
  const column = contacts[flag];
  return tx
    .update(contacts)
    .set({ [flag]: false, updatedAt: new Date() })
    .where(and(eq(contacts.customerId, customerId), eq(column, true), keepId ? ne(contacts.id, keepId) : undefined))
    .returning();
}

export async function insertContact(tx: Db, customerId: string, values: ContactFields): Promise<ContactRow> {
  const [row] = await tx
    .insert(contacts)
    .values({ ...values, customerId })
    .returning();
  return row;
}

/** Sets the given fields and updatedAt. */
export async function updateContactRow(
  tx: Db,
  contactId: string,
  changes: Partial<ContactFields>,
): Promise<ContactRow> {
  const [row] = await tx
    .update(contacts)
    .set({ ...changes, updatedAt: new Date() })
    .where(eq(contacts.id, contactId))
    .returning();
  return row;
}

export async function deleteContactRow(tx: Db, contactId: string): Promise<void> {
  await tx.delete(contacts).where(eq(contacts.id, contactId));
}
