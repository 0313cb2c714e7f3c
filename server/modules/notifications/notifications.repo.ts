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

export type ExpiringContractRow = {
  id: string;
  sales_rep_id: string;
  title: string | null;
  description: string | null;
  customer_id: string;
  customer_name: string;
  auto_stop_date: string;
};

/**
 * The running (active or paused) contracts with a rep whose auto-stop date falls within `days` of `today`
 * and whose rep has no notice of that end date yet (the dedupe key per contract and date), soonest first.
 */
export async function selectExpiringContracts(
  db: Db,
  window: { today: string; days: number; limit: number },
): Promise<ExpiringContractRow[]> {
  const result = await db.execute(sql`
    select c.id, c.sales_rep_id, c.title, c.description, c.customer_id, cu.name as customer_name,
           to_char(c.auto_stop_date, 'YYYY-MM-DD') as auto_stop_date
    from contracts c
    join customers cu on cu.id = c.customer_id
    where c.status in ('active', 'paused') and c.auto_stop_date is not null
      and c.auto_stop_date between ${window.today}::date and ${window.today}::date + ${window.days}::int
      and c.sales_rep_id is not null
      and not exists (
        select 1 from notifications n
        where n.user_id = c.sales_rep_id
          and n.dedupe_key = 'contract_expiring:' || c.id || ':' || to_char(c.auto_stop_date, 'YYYY-MM-DD'))
    order by c.auto_stop_date, c.id
    limit ${window.limit}`);
  return rowsOf<ExpiringContractRow>(result);
}
