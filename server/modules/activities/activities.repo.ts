import type { ActivityDueFilter } from '@shared/contracts/activity-vocabulary';
import type { Role } from '@shared/roles';
import { and, count, eq, inArray, isNull, lte, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { activities, contacts, customers, deals, users } from '../../db/schema';

export type ActivityRow = typeof activities.$inferSelect;

/** An activity with the names its answer shows: customer, deal, contact and owner. */
export type ActivityListRow = {
  activity: ActivityRow;
  customerName: string;
  dealTitle: string | null;
  contactName: string | null;
  ownerFirstName: string;
  ownerLastName: string;
};

/**
 * The due window of the list's `due` filter: `now` for overdue, and the business's calendar day `today` in
 * `timeZone`, whose midnights the database computes (so a day of 23 or 25 hours counts as the clocks do).
 */
export type DueWindow = { kind: ActivityDueFilter; now: Date; today: string; timeZone: string; upcomingDays: number };

/** Which activities a list covers; `ownerId` is also the scope of a rep who sees only their own. */
export type ActivityFilter = {
  customerId?: string;
  dealId?: string;
  ownerId?: string;
  done?: boolean;
  due?: DueWindow;
};

/** The instant the business's day `today` + `days` begins, in its time zone. */
const midnight = (window: DueWindow, days: number) =>
  sql`((${window.today}::date + ${days}::int)::timestamp at time zone ${window.timeZone})`;

function dueCondition(window: DueWindow): SQL {
  const due = activities.dueAt;
  if (window.kind === 'overdue') {
    return sql`(not ${activities.done} and ${due} < ${window.now.toISOString()}::timestamptz)`;
  }
  if (window.kind === 'today') return sql`(${due} >= ${midnight(window, 0)} and ${due} < ${midnight(window, 1)})`;
  return sql`(${due} >= ${midnight(window, 1)} and ${due} < ${midnight(window, 1 + window.upcomingDays)})`;
}

function conditionsOf(filter: ActivityFilter): SQL | undefined {
  const conditions: SQL[] = [];
  if (filter.customerId) conditions.push(eq(activities.customerId, filter.customerId));
  if (filter.dealId) conditions.push(eq(activities.dealId, filter.dealId));
  if (filter.ownerId) conditions.push(eq(activities.ownerId, filter.ownerId));
  if (filter.done !== undefined) conditions.push(eq(activities.done, filter.done));
  if (filter.due) conditions.push(dueCondition(filter.due));
  return conditions.length ? and(...conditions) : undefined;
}

const owners = alias(users, 'owner');

function listQuery(db: Db) {
  return db
    .select({
      activity: activities,
      customerName: customers.name,
      dealTitle: deals.title,
      contactName: contacts.name,
      ownerFirstName: owners.firstName,
      ownerLastName: owners.lastName,
      total: sql<number>`count(*) over ()`.mapWith(Number),
    })
    .from(activities)
    .innerJoin(customers, eq(customers.id, activities.customerId))
    .innerJoin(owners, eq(owners.id, activities.ownerId))
    .leftJoin(deals, eq(deals.id, activities.dealId))
    .leftJoin(contacts, eq(contacts.id, activities.contactId));
}

/**
 * Open activities first, the soonest due first (those without a due time after them), then the done ones,
 * the most recently done first.
 */
const ORDER = [
  sql`${activities.done} asc`,
  sql`case when not ${activities.done} then ${activities.dueAt} end asc nulls last`,
  sql`coalesce(${activities.doneAt}, ${activities.dueAt}, ${activities.createdAt}) desc`,
  sql`${activities.id} asc`,
];

/** A page of activities and how many match: one statement (a window count), and a count for a page past the end. */
export async function selectActivityPage(
  db: Db,
  filter: ActivityFilter,
  page: { limit: number; offset: number },
): Promise<{ rows: ActivityListRow[]; total: number }> {
  const where = conditionsOf(filter);
  const rows = await listQuery(db)
    .where(where)
    .orderBy(...ORDER)
    .limit(page.limit)
    .offset(page.offset);
  if (rows.length) return { rows: rows.map(({ total: _total, ...row }) => row), total: rows[0].total };
  if (page.offset === 0) return { rows: [], total: 0 };
  const [counted] = await db.select({ n: count() }).from(activities).where(where);
  return { rows: [], total: counted.n };
}

export async function selectActivity(db: Db, id: string): Promise<ActivityListRow | undefined> {
  const [row] = await listQuery(db).where(eq(activities.id, id)).limit(1);
  if (!row) return undefined;
  const { total: _total, ...rest } = row;
  return rest;
}

export async function insertActivity(tx: Db, values: typeof activities.$inferInsert): Promise<ActivityRow> {
  const [row] = await tx.insert(activities).values(values).returning();
  return row;
}

export async function updateActivityRow(
  tx: Db,
  id: string,
  set: Partial<typeof activities.$inferInsert>,
): Promise<ActivityRow | undefined> {
  const [row] = await tx
    .update(activities)
    .set({ ...set, updatedAt: new Date() })
    .where(eq(activities.id, id))
    .returning();
  return row;
}

/** Marks the activity done if it is not yet; undefined when it was done already (or is gone). */
export async function completeActivityRow(tx: Db, id: string, at: Date): Promise<ActivityRow | undefined> {
  const [row] = await tx
    .update(activities)
    .set({ done: true, doneAt: at, updatedAt: at })
    .where(and(eq(activities.id, id), eq(activities.done, false)))
    .returning();
  return row;
}

export async function deleteActivityRow(tx: Db, id: string): Promise<boolean> {
  const deleted = await tx.delete(activities).where(eq(activities.id, id)).returning({ id: activities.id });
  return deleted.length > 0;
}

export async function selectCustomerName(db: Db, id: string): Promise<string | undefined> {
  const [row] = await db.select({ name: customers.name }).from(customers).where(eq(customers.id, id)).limit(1);
  return row?.name;
}

/** The customer a contact belongs to; undefined for no such contact. */
export async function selectContactCustomerId(db: Db, id: string): Promise<string | undefined> {
  const [row] = await db.select({ customerId: contacts.customerId }).from(contacts).where(eq(contacts.id, id)).limit(1);
  return row?.customerId;
}

/** Whether `id` is an active user of one of these roles. */
export async function isActiveUserWithRole(db: Db, id: string, roles: readonly Role[]): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, id), inArray(users.role, [...roles]), eq(users.isActive, true)))
    .limit(1);
  return Boolean(row);
}

export type ClaimedReminder = {
  id: string;
  type: string;
  subject: string;
  dueAt: Date | null;
  ownerId: string;
  customerId: string;
  customerName: string;
};

/**
 * Claims every reminder due by `now` that nobody has sent: ONE conditional UPDATE sets `reminded_at`, and the rows
 * it answers are the reminders this caller sends. Two instances claiming at once cannot both get a row: the
 * second waits for the first's row lock, then finds reminded_at set and skips it (activities_remind_idx).
 */
export async function claimDueReminders(tx: Db, now: Date): Promise<ClaimedReminder[]> {
  return tx
    .update(activities)
    .set({ remindedAt: sql`now()` })
    .from(customers)
    .where(
      and(
        eq(customers.id, activities.customerId),
        lte(activities.remindAt, now),
        isNull(activities.remindedAt),
        eq(activities.done, false),
      ),
    )
    .returning({
      id: activities.id,
      type: activities.type,
      subject: activities.subject,
      dueAt: activities.dueAt,
      ownerId: activities.ownerId,
      customerId: activities.customerId,
      customerName: customers.name,
    });
}
