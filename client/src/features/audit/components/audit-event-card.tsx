import type { AuditChange, AuditEvent } from '@shared/contracts/audit';
import { useState } from 'react';
import { Link } from 'wouter';
import { Badge } from '@/components/ui/badge';
import { Card } from '@/components/ui/card';
import { type Column, DataTable } from '@/components/ui/data-table';

const WHEN = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
/** Changes shown before "Show all" (a created record lists every field). */
const FOLDED = 8;

/** A change per row, named by its field, in the event's order. */
const CHANGE_COLUMNS: Column<AuditChange>[] = [
  {
    id: 'field',
    header: 'Field',
    rowHeader: true,
    cellClassName: 'whitespace-nowrap py-1.5 font-normal text-slate-700',
    cell: (change) => <span title={change.field}>{change.label}</span>,
  },
  {
    id: 'before',
    header: 'Before',
    cellClassName: 'max-w-[16rem] break-words py-1.5 text-red-700',
    cell: (change) => (
      <>
        <span className="sr-only">Before: </span>
        {change.beforeText}
      </>
    ),
  },
  {
    id: 'after',
    header: 'After',
    cellClassName: 'max-w-[16rem] break-words py-1.5 text-emerald-700',
    cell: (change) => (
      <>
        <span className="sr-only">After: </span>
        {change.afterText}
      </>
    ),
  },
];

/**
 * One event: what happened in a sentence, the record (linked while it exists), who and when, and its field-level
 * before/after (field labels, money as dollars, linked records by name: shown as the server words them).
 */
export function AuditEventCard({
  event,
  onRecord,
}: {
  event: AuditEvent;
  /** Filters the trail to this event's record (its whole history). */
  onRecord?: (entity: string, entityId: string) => void;
}) {
  const [all, setAll] = useState(false);
  const changes: AuditChange[] = all ? event.changes : event.changes.slice(0, FOLDED);
  return (
    <Card className="p-4" data-testid="audit-event">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="text-sm font-semibold text-slate-900" data-testid="audit-summary">
            {event.summary}
          </p>
          <p className="mt-0.5 text-xs text-muted-foreground">
            {event.label && (
              <>
                {event.link ? (
                  <Link href={event.link} className="text-primary underline-offset-2 hover:underline">
                    {event.label}
                  </Link>
                ) : (
                  <span className="text-slate-700">{event.label}</span>
                )}
                {' · '}
              </>
            )}
            by <span className="font-medium text-slate-700">{event.actorName ?? 'System'}</span>
            {event.apiKeyName && (
              <>
                {' '}
                with the API key <span className="font-medium text-slate-700">{event.apiKeyName}</span>
              </>
            )}{' '}
            · <time dateTime={event.createdAt}>{WHEN.format(new Date(event.createdAt))}</time>
          </p>
        </div>
        {onRecord ? (
          <button
            type="button"
            className="shrink-0 rounded-full focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
            aria-label={`Show the history of ${event.entity} ${event.entityId}`}
            title="Show this record's history"
            onClick={() => onRecord(event.entity, event.entityId)}
          >
            <Badge tone="grey" className="hover:bg-slate-200">
              {event.entity} #{event.entityId.slice(-6)}
            </Badge>
          </button>
        ) : (
          <Badge tone="grey" className="shrink-0">
            {event.entity} #{event.entityId.slice(-6)}
          </Badge>
        )}
      </div>
      {event.changes.length > 0 ? (
        <DataTable
          caption="Changes of this event"
          columns={CHANGE_COLUMNS}
          rows={changes}
          rowKey={(change) => change.field}
          density="compact"
          className="min-w-[18rem] text-xs"
          frameClassName="mt-3 rounded-md"
        />
      ) : (
        <p className="mt-2 text-xs text-muted-foreground">No field changes recorded.</p>
      )}
      {event.changes.length > FOLDED && (
        <button
          type="button"
          className="mt-2 text-xs font-medium text-primary hover:underline"
          aria-expanded={all}
          onClick={() => setAll(!all)}
        >
          {all ? 'Show fewer' : `Show all ${event.changes.length} fields`}
        </button>
      )}
    </Card>
  );
}
