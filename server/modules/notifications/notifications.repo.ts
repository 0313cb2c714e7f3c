import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { notifications } from '../../db/schema';
import { rowsOf } from '../../lib/db-rows';

export type NotificationRow = Pick<
  typeof notifications.$inferSelect,
  'id' | 'type' | 'title' | 'body' | 'link' | 'readAt' | 'createdAt'
>;

const columns = {
  id: notifications.id,
  type: notifications.type,
  title: notifications.title,
  body: notifications.body,
  link: notifications.link,
  readAt: notifications.readAt,
  createdAt: notifications.createdAt,
};

/** The newest notifications of one user (notifications_user_created_idx) and their unread count (the partial index). */
export async function selectUserNotifications(
  db: Db,
  userId: string,
  limit: number,
): Promise<{ rows: NotificationRow[]; unreadCount: number }> {
  const [rows, unreadCount] = await Promise.all([
    db
      .select(columns)
      .from(notifications)
      .where(eq(notifications.userId, userId))
      .orderBy(desc(notifications.createdAt), desc(notifications.id))
      .limit(limit),
    countUnread(db, userId),
  ]);
  return { rows, unreadCount };
}

export async function countUnread(db: Db, userId: string): Promise<number> {
  const [{ unread }] = await db
    .select({ unread: count() })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
  return unread;
}

/** Marks one of the user's notifications read; false when it is not theirs (or does not exist). Idempotent. */
export async function markRead(db: Db, userId: string, id: string): Promise<boolean> {
  const rows = await db
    .update(notifications)
    .set({ readAt: sql`coalesce(${notifications.readAt}, now())` })
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
    .returning({ id: notifications.id });
  return rows.length === 1;
}

/** Marks every unread notification of the user read; returns how many changed. */
export async function markAllRead(db: Db, userId: string): Promise<number> {
  const rows = await db
    .update(notifications)
    .set({ readAt: sql`now()` })
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)))
    .returning({ id: notifications.id });
  return rows.length;
}

/** The customer's name, as a notice about one of its contracts says it (undefined when it is gone). */
export async function selectCustomerName(db: Db, customerId: string): Promise<string | undefined> {
  const result = await db.execute(sql`select name from customers where id = ${customerId}`);
  return rowsOf<{ name: string }>(result)[0]?.name;
}
