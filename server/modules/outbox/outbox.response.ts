import { arrayOf, integer, nullableString, object, string } from '../../lib/response-schema';
import type { listOutbox } from './outbox.service';

/** One message as GET /api/outbox answers it (outbox.service.ts). */
type OutboxEmail = Awaited<ReturnType<typeof listOutbox>>['rows'][number];

/** One message of GET /api/outbox (lib/response-schema.ts): only these fields are ever sent. */
export const outboxEmailResponse = object<OutboxEmail>({
  id: string,
  to: string,
  recipient: string,
  body: string,
  subject: string,
  status: string,
  attempts: integer,
  lastError: nullableString,
  text: string,
  html: nullableString,
  entity: nullableString,
  entityId: nullableString,
  createdAt: string,
  sentAt: nullableString,
});
export const outboxListResponse = arrayOf(outboxEmailResponse);
