import { count, desc } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { outboxEmails } from '../../db/schema';

export type OutboxRow = typeof outboxEmails.$inferSelect;

/** A page of the outbox, newest first, and the number of messages in it. */
export async function selectOutboxPage(
  db: Db,
  page: { limit: number; offset: number },
): Promise<{ rows: OutboxRow[]; total: number }> {
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(outboxEmails).orderBy(desc(outboxEmails.createdAt)).limit(page.limit).offset(page.offset),
    db.select({ total: count() }).from(outboxEmails),
  ]);
  return { rows, total };
}
