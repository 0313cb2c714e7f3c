import type { Db } from '../db/client';
import { auditEvents } from '../db/schema';
import { currentApiKeyId } from './request-context';

export type AuditEntry = {
  actorId: string | null;
  action: string;
  entity: string;
  entityId: string;
  before?: unknown;
  after?: unknown;
};

/**
 * Every change to business data writes one of these, in the same transaction as the change. A change made
 * with an API key names the key too (its actor is the admin who made it).
 */
export async function recordAudit(db: Db, entry: AuditEntry): Promise<void> {
  await db.insert(auditEvents).values({
    actorId: entry.actorId,
    apiKeyId: currentApiKeyId(),
    action: entry.action,
    entity: entry.entity,
    entityId: entry.entityId,
    before: entry.before === undefined ? null : toJson(entry.before),
    after: entry.after === undefined ? null : toJson(entry.after),
  });
}

/** Several events in one statement (a change made to many records at once). */
export async function recordAudits(db: Db, entries: readonly AuditEntry[]): Promise<void> {
  // One INSERT per chunk: a statement takes at most 65,535 parameters (seven per event), and a delivery import
  // of 50,000 rows writes more events than that.
  const apiKeyId = currentApiKeyId();
  for (let at = 0; at < entries.length; at += AUDIT_CHUNK) {
    await db.insert(auditEvents).values(
      entries.slice(at, at + AUDIT_CHUNK).map((entry) => ({
        actorId: entry.actorId,
        apiKeyId,
        action: entry.action,
        entity: entry.entity,
        entityId: entry.entityId,
        before: entry.before === undefined ? null : toJson(entry.before),
        after: entry.after === undefined ? null : toJson(entry.after),
      })),
    );
  }
}

/** Audit events per INSERT: 35,000 parameters, well under PostgreSQL's 65,535. */
const AUDIT_CHUNK = 5_000;

function toJson(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (key, v) => (key === 'passwordHash' ? undefined : v)));
}
