import type { ListQuery } from '@shared/contracts/common';
import type { Db } from '../../db/client';
import { type OutboxRow, selectOutboxPage } from './outbox.repo';

/** One message as GET /api/outbox answers it. */
function toOutboxEmail(m: OutboxRow) {
  return {
    id: m.id,
    to: m.to,
    // product.md section 10 names these two: the recipient and the rendered body (its text part).
    recipient: m.to,
    body: m.text,
    subject: m.subject,
    status: m.status,
    attempts: m.attempts,
    lastError: m.lastError,
    text: m.text,
    html: m.html,
    entity: m.entity,
    entityId: m.entityId,
    createdAt: m.createdAt.toISOString(),
    sentAt: m.sentAt?.toISOString() ?? null,
  };
}

/** Every e-mail the product sent or keeps, newest first. */
export async function listOutbox(db: Db, query: Pick<ListQuery, 'limit' | 'offset'>) {
  const page = await selectOutboxPage(db, query);
  return { ...page, rows: page.rows.map(toOutboxEmail) };
}
