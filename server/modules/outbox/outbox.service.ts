import type { ListQuery } from '@shared/contracts/common';
import type { Db } from '../../db/client';
import { notFound } from '../../lib/errors';
import { type OutboxRow, selectOutboxEmail, selectOutboxPage } from './outbox.repo';

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

/**
 * One message as it was sent (GET /api/outbox/{id}): recipient, subject, status, attempts and the rendered
 * body, text and HTML, as kept: with the links that grant something masked (lib/capability-links.ts).
 */
export async function getOutboxEmail(db: Db, id: string) {
  const row = await selectOutboxEmail(db, id);
  if (!row) throw notFound('E-mail');
  return toOutboxEmail(row);
}
