import { ACTIVITY_TYPE_LABELS, type ActivityType } from '@shared/contracts/activity-vocabulary';
import type {
  CustomerTimeline,
  CustomerTimelineQuery,
  TimelineEntry,
  TimelineKind,
} from '@shared/contracts/customer-timeline';
import { formatDocumentDate } from '@shared/document-date';
import { formatCents } from '@shared/money';
import type { Db } from '../../db/client';
import { businessDayOf, businessToday, getBusinessTimeZone } from '../../lib/business-day';
import { notFound } from '../../lib/errors';
import { type SummaryRow, summaryOf } from '../audit/audit.service';
import { customerExists, selectTimeline, type TimelineRow, type TimelineWindow } from './customer-timeline.repo';

/**
 * The customer's story (product.md section 19): what happened to its contracts and deals (their audit trail),
 * its invoices (issued, paid, overdue), payments, credit notes and activities, newest first, in the words of the
 * audit trail's sentences (audit-summary.ts: one sentence per kind of event, wherever it is shown). Staff read every
 * customer (customers.service visibleTo), so they read every customer's story.
 *
 * Paged by time: a page ends before the millisecond of the first event it leaves out, so events of the same moment
 * (a transaction's, the billing run's) are never split between two pages; `nextBefore` is the end of that
 * millisecond. A moment with more events than a page holds is answered whole.
 */

/** The most events one moment may hold in an answer (a page's events all of one millisecond). */
const MOMENT_MAX = 1_000;

const ms = (at: Date) => at.getTime();

export async function customerTimeline(
  db: Db,
  customerId: string,
  query: CustomerTimelineQuery,
): Promise<CustomerTimeline> {
  if (!(await customerExists(db, customerId))) throw notFound('Customer');
  const window: Omit<TimelineWindow, 'before' | 'from' | 'limit'> = {
    customerId,
    today: businessToday(),
    zone: getBusinessTimeZone(),
  };
  const before = query.before ? new Date(query.before) : null;
  const rows = await selectTimeline(db, { ...window, before, from: null, limit: query.limit + 1 });
  const toEntries = (page: TimelineRow[]) => page.map(toEntry);
  if (rows.length <= query.limit) return { entries: toEntries(rows), nextBefore: null };

  // The first event left out: the page stops before its millisecond, and the next page starts at its end.
  const boundary = ms(rows[query.limit].at);
  const page = rows.slice(0, query.limit).filter((row) => ms(row.at) > boundary);
  if (page.length > 0) return { entries: toEntries(page), nextBefore: new Date(boundary + 1).toISOString() };
  const moment = await selectTimeline(db, {
    ...window,
    before: new Date(boundary + 1),
    from: new Date(boundary),
    limit: MOMENT_MAX,
  });
  return { entries: toEntries(moment), nextBefore: new Date(boundary).toISOString() };
}

const contractLink = (id: string | null) => (id ? `/contracts/${id}` : null);
const join = (...parts: (string | null | undefined | false)[]) => parts.filter(Boolean).join(' · ') || null;
const excerpt = (text: string | null, max = 160) =>
  text ? (text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text) : null;
const day = (value: string | null) => (value ? formatDocumentDate(value) : null);

/** A record's event worded by the audit trail's rule for it. */
function sentence(event: Omit<SummaryRow, 'label'> & { label?: string | null }): string {
  return summaryOf({ label: null, ...event });
}

function toEntry(row: TimelineRow): TimelineEntry {
  const entry = (kind: TimelineKind, title: string, detail: string | null, link: string | null): TimelineEntry => ({
    id: `${row.source}:${row.id}`,
    at: row.at.toISOString(),
    kind,
    title,
    detail,
    link,
    actorName: row.actorName,
  });
  const invoiceRefs: Record<string, string> =
    row.invoiceId && row.invoiceNumber ? { [row.invoiceId]: row.invoiceNumber } : {};

  switch (row.source) {
    case 'activity': {
      const type = ACTIVITY_TYPE_LABELS[row.activityType as ActivityType] ?? row.activityType;
      const due = row.dueAt ? `Due ${formatDocumentDate(businessDayOf(row.dueAt))}` : null;
      return entry(
        'activity',
        `${type}: ${row.subject}`,
        join(due, row.done ? 'Done' : null, excerpt(row.body)),
        row.dealId ? '/pipeline' : null,
      );
    }
    case 'issued':
      return entry(
        'invoice',
        sentence({
          action: 'invoice.issued',
          entity: 'invoice',
          entityId: row.id,
          label: row.number,
          refs: {},
          before: null,
          after: { number: row.number, totalCents: row.amountCents },
        }),
        join(row.contractTitle, row.dueDate ? `due ${day(row.dueDate)}` : null),
        contractLink(row.contractId),
      );
    case 'paid':
      return entry(
        'invoice',
        sentence({
          action: 'invoice.paid',
          entity: 'invoice',
          entityId: row.id,
          label: row.number,
          refs: {},
          before: null,
          after: { amountPaidCents: row.amountCents },
        }),
        row.contractTitle,
        contractLink(row.contractId),
      );
    case 'overdue':
      return entry(
        'invoice',
        `Invoice ${row.number} overdue: ${formatCents(row.amountDueCents ?? 0)} was due ${day(row.dueDate)}`,
        row.contractTitle,
        contractLink(row.contractId),
      );
    case 'payment': {
      const action =
        row.status === 'failed' ? 'payment.failed' : row.kind === 'refund' ? 'payment.refunded' : 'payment.recorded';
      return entry(
        'payment',
        sentence({
          action,
          entity: 'payment',
          entityId: row.id,
          refs: invoiceRefs,
          before: null,
          after: {
            invoiceId: row.invoiceId,
            invoiceNumber: row.invoiceNumber,
            amountCents: row.amountCents,
            method: row.method,
            cardBrand: row.cardBrand,
            cardLast4: row.cardLast4,
            failureMessage: row.failureMessage,
          },
        }),
        join(row.reference ? `Reference ${row.reference}` : null, row.contractTitle),
        contractLink(row.contractId),
      );
    }
    case 'credit_note':
      return entry(
        'credit_note',
        sentence({
          action: 'credit_note.issued',
          entity: 'credit_note',
          entityId: row.id,
          label: row.number,
          refs: invoiceRefs,
          before: null,
          after: {
            number: row.number,
            invoiceId: row.invoiceId,
            amountCents: row.amountCents,
            reason: row.reason,
            toBalanceCents: row.toBalanceCents,
          },
        }),
        row.contractTitle,
        contractLink(row.contractId),
      );
    case 'audit': {
      const deal = row.entity === 'deal';
      const label = deal ? row.dealTitle : row.contractTitle;
      // The records its sentence names; not the customer, whose page this is ("created for ..." is left out).
      const refs: Record<string, string> = {};
      const after = (row.after ?? {}) as Record<string, unknown>;
      const name = (field: string, value: string | null) => {
        if (typeof after[field] === 'string' && value) refs[after[field] as string] = value;
      };
      name('lineId', row.lineName);
      name('renewedBy', row.renewalTitle);
      name('contractId', row.draftTitle);
      if (row.entityId && label) refs[row.entityId] = label;
      const title = summaryOf({
        action: row.action!,
        entity: row.entity!,
        entityId: row.entityId!,
        label,
        refs,
        before: row.before,
        after: row.after,
      });
      const kind: TimelineKind = deal ? 'deal' : row.action?.startsWith('delivery.') ? 'delivery' : 'contract';
      return entry(kind, title, null, deal ? '/pipeline' : contractLink(row.contractId));
    }
  }
}
