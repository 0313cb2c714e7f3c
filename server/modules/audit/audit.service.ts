import type { AuditChange, AuditEvent, AuditQuery } from '@shared/contracts/audit';
import type { ListQuery } from '@shared/contracts/common';
import type { Db } from '../../db/client';
import { badRequest } from '../../lib/errors';
import { type AuditRow, selectAuditPage, selectRecentActivity } from './audit.repo';
import { auditSummary, fieldLabel, fieldValue } from './audit-summary';

/** The screen of each kind of record (in-app paths); records without one get no link. */
const LINKS: Partial<Record<string, (id: string) => string>> = {
  contract: (id) => `/contracts/${id}`,
  customer: (id) => `/customers/${id}`,
  // The Invoices screen shows an invoice in a dialog; it has no page of its own to link to.
  invoice: () => '/invoices',
  payout: () => '/payouts',
  commission: () => '/commissions',
  user: () => '/users',
  product: () => '/products',
  package: () => '/packages',
  settings: () => '/settings',
};

export function recordLink(entity: string, entityId: string, exists = true): string | null {
  const link = LINKS[entity];
  return link && exists ? link(entityId) : null;
}

/** Keys whose values are never shown, whatever a writer put in a snapshot. */
const SECRET_KEY = /password|token|secret|hash|otp/i;
const HIDDEN = '[hidden]';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A snapshot as { "path": value }: nested objects become dotted paths, arrays stay whole values. */
function flatten(value: unknown, prefix = '', out: Map<string, unknown> = new Map()): Map<string, unknown> {
  if (!isPlainObject(value)) {
    if (prefix) out.set(prefix, value);
    return out;
  }
  for (const [key, inner] of Object.entries(value)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (SECRET_KEY.test(key)) out.set(path, HIDDEN);
    else if (isPlainObject(inner) && Object.keys(inner).length > 0) flatten(inner, path, out);
    else out.set(path, inner);
  }
  return out;
}

type Difference = Pick<AuditChange, 'field' | 'before' | 'after'>;

/**
 * The field-level difference of two snapshots: every path whose value differs (a created record: all its
 * fields with before null; a deleted one: all with after null), in the snapshots' own field order.
 */
export function diffSnapshots(before: unknown, after: unknown): Difference[] {
  const a = flatten(before);
  const b = flatten(after);
  const changes: Difference[] = [];
  for (const field of new Set([...a.keys(), ...b.keys()])) {
    const was = a.has(field) ? a.get(field) : null;
    const now = b.has(field) ? b.get(field) : null;
    if (JSON.stringify(was) !== JSON.stringify(now)) {
      changes.push({ field, before: was ?? null, after: now ?? null });
    }
  }
  return changes;
}

/** A difference with its label and shown values (a hidden secret stays "[hidden]"). */
function shownChange(change: Difference, refs: Readonly<Record<string, string>>): AuditChange {
  const text = (value: unknown) => (value === HIDDEN ? HIDDEN : fieldValue(change.field, value, refs));
  return { ...change, label: fieldLabel(change.field), beforeText: text(change.before), afterText: text(change.after) };
}

export function toAuditEvent(row: AuditRow): AuditEvent {
  const differences = diffSnapshots(row.before, row.after);
  return {
    id: row.id,
    action: row.action,
    entity: row.entity,
    entityId: row.entityId,
    actorId: row.actorId,
    actorName: row.actorName,
    apiKeyName: row.apiKeyName,
    label: row.label,
    link: recordLink(row.entity, row.entityId, row.recordExists),
    createdAt: row.createdAt.toISOString(),
    summary: summaryOf(row, differences),
    changes: differences.map((change) => shownChange(change, row.refs)),
  };
}

/** What an event's sentence is made of: an event of the trail, or one a module reads from its own records. */
export type SummaryRow = Pick<AuditRow, 'action' | 'entity' | 'entityId' | 'label' | 'refs' | 'before' | 'after'>;

/**
 * The event's sentence (audit-summary.ts), from its snapshots with secrets hidden: the trail's, and the customer's
 * timeline's (customers/customer-timeline.service.ts, which words its invoices and payments with the same rules).
 */
export function summaryOf(row: SummaryRow, differences = diffSnapshots(row.before, row.after)): string {
  return auditSummary(
    {
      action: row.action,
      entity: row.entity,
      entityId: row.entityId,
      label: row.label,
      before: withoutSecrets(row.before),
      after: withoutSecrets(row.after),
      refs: row.refs,
    },
    differences.map((change) => change.field),
  );
}

/** A snapshot with every secret-looking key's value hidden, at any depth. */
function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [key, SECRET_KEY.test(key) ? HIDDEN : withoutSecrets(inner)]),
  );
}

export async function listAudit(
  db: Db,
  query: AuditQuery & Pick<ListQuery, 'limit' | 'offset'>,
): Promise<{ rows: AuditEvent[]; total: number }> {
  if (query.from && query.to && query.from > query.to) {
    throw badRequest('The start date must not be after the end date', { to: ['Must not be before the start date'] });
  }
  const page = await selectAuditPage(db, query);
  return { rows: page.rows.map(toAuditEvent), total: page.total };
}

/**
 * The newest events, for a report or dashboard. With repId: only what that sales rep may see, i.e. their
 * own actions and events about their contracts.
 */
export async function recentActivity(db: Db, options: { repId?: string; limit: number }): Promise<AuditRow[]> {
  return selectRecentActivity(db, options);
}
