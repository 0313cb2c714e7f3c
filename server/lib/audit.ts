import type { Db } from '../db/client';
import { auditEvents } from '../db/schema';

export type AuditEntry = {
  actorId: string | null;
  action: string;
  entity: string;
  entityId: string;
  before?: unknown;
  after?: unknown;
};

/** Every change to business data writes one of these, in the same transaction as the change. */
export async function recordAudit(db: Db, entry: AuditEntry): Promise<void> {
  await db.insert(auditEvents).values({
    actorId: entry.actorId,
    action: entry.action,
    entity: entry.entity,
    entityId: entry.entityId,
    before: entry.before === undefined ? null : toJson(entry.before),
    after: entry.after === undefined ? null : toJson(entry.after),
  });
}

/** Several events in one statement (a change made to many records at once). */
export async function recordAudits(db: Db, entries: readonly AuditEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await db.insert(auditEvents).values(
    entries.map((entry) => ({
      actorId: entry.actorId,
      action: entry.action,
      entity: entry.entity,
      entityId: entry.entityId,
      before: entry.before === undefined ? null : toJson(entry.before),
      after: entry.after === undefined ? null : toJson(entry.after),
    })),
  );
}

function toJson(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (key, v) => (key === 'passwordHash' ? undefined : v)));
}
