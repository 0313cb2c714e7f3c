import type { AuditChange, AuditEvent } from '@shared/contracts/audit';
import { arrayOf, integer, nullableString, object, string } from '../../lib/response-schema';

/** Any JSON value: a snapshot's before and after values are free-form (strings, numbers, arrays, objects, null). */
const anyValue = {};

/** One event of GET /api/audit (lib/response-schema.ts): only these fields are ever sent. */
export const auditEventResponse = object<AuditEvent>({
  id: integer,
  action: string,
  entity: string,
  entityId: string,
  actorId: nullableString,
  actorName: nullableString,
  apiKeyName: nullableString,
  label: nullableString,
  link: nullableString,
  createdAt: string,
  summary: string,
  changes: arrayOf(
    object<AuditChange>({
      field: string,
      before: anyValue,
      after: anyValue,
      label: string,
      beforeText: string,
      afterText: string,
    }),
  ),
});
export const auditListResponse = arrayOf(auditEventResponse);
