import { count, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { outboxEmails } from '../../db/schema';
import { type BoundedTotal, boundedTotal, countBound } from '../../lib/bounded-count';

export type OutboxRow = typeof outboxEmails.$inferSelect;

/** A page of the outbox, newest first, and the number of messages in it (bounded: server/lib/bounded-count.ts). */
export async function selectOutboxPage(
  db: Db,
  page: { limit: number; offset: number },
): Promise<{ rows: OutboxRow[] } & BoundedTotal> {
  const bound = countBound(page);
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(outboxEmails).orderBy(desc(outboxEmails.createdAt)).limit(page.limit).offset(page.offset),
    db.select({ total: count() }).from(
      db
        .select({ one: sql`1` })
        .from(outboxEmails)
        .limit(bound + 1)
        .as('matches'),
    ),
  ]);
  return { rows, ...boundedTotal(total, bound) };
}

/** One message of the outbox, or null. */
export async function selectOutboxEmail(db: Db, id: string): Promise<OutboxRow | null> {
  const [row] = await db.select().from(outboxEmails).where(eq(outboxEmails.id, id));
  return row ?? null;
}
