import type { NotificationList } from '@shared/contracts/notifications';
import type { Db } from '../../db/client';
import { notFound } from '../../lib/errors';
import * as repo from './notifications.repo';

/** The caller's bell: their newest notifications and how many are unread. Nobody sees another's. */
export async function listOwn(db: Db, userId: string, limit: number): Promise<NotificationList> {
  const { rows, unreadCount } = await repo.selectUserNotifications(db, userId, limit);
  return {
    unreadCount,
    items: rows.map((row) => ({
      id: row.id,
      type: row.type,
      title: row.title,
      body: row.body,
      link: row.link,
      readAt: row.readAt ? row.readAt.toISOString() : null,
      createdAt: row.createdAt.toISOString(),
    })),
  };
}

/** Another user's notification answers 404, like one that does not exist. */
export async function readOne(db: Db, userId: string, id: string): Promise<{ unreadCount: number }> {
  if (!(await repo.markRead(db, userId, id))) throw notFound('Notification');
  return { unreadCount: await repo.countUnread(db, userId) };
}

export async function readAll(db: Db, userId: string): Promise<{ unreadCount: number }> {
  await repo.markAllRead(db, userId);
  return { unreadCount: await repo.countUnread(db, userId) };
}
