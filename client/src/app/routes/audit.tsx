import { AUDIT_ENTITIES } from '@shared/contracts/audit-vocabulary';
import { can } from '@shared/permissions';
import { ScrollText } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useSearch } from 'wouter';
import { Button } from '@/components/ui/button';
import { AccessDenied, EmptyState, ErrorState, Skeleton } from '@/components/ui/feedback';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { PageHeader } from '@/components/ui/page-header';
import { Pagination } from '@/components/ui/pagination';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { AUDIT_PAGE_SIZE, type AuditFilter, useAudit } from '@/features/audit/api/get-audit';
import { useAuditUsers } from '@/features/audit/api/get-audit-users';
import { AuditEventCard } from '@/features/audit/components/audit-event-card';
import { useCurrentUser } from '@/features/auth/api/me';
import { errorMessage } from '@/lib/api-client';

const ALL = 'all';
const SPECIAL_LABELS: Record<string, string> = { api_key: 'API key', webhook_endpoint: 'Webhook endpoint' };
const label = (entity: string) =>
  SPECIAL_LABELS[entity] ?? entity.charAt(0).toUpperCase() + entity.slice(1).replaceAll('_', ' ');

export default function AuditPage() {
  const { user } = useCurrentUser();
  const search = new URLSearchParams(useSearch());
  const [filter, setFilter] = useState<AuditFilter>({
    entity: search.get('entity') ?? ALL,
    entityId: search.get('entityId') ?? '',
    userId: search.get('userId') ?? ALL,
    from: '',
    to: '',
    page: 0,
  });
  // The record box filters as you type, a moment after the last key.
  const [recordText, setRecordText] = useState(filter.entityId);
  useEffect(() => {
    const timer = setTimeout(
      () => setFilter((f) => (f.entityId === recordText ? f : { ...f, entityId: recordText, page: 0 })),
      300,
    );
    return () => clearTimeout(timer);
  }, [recordText]);
  const allowed = can(user, 'audit:read');
  const audit = useAudit(filter);
  const users = useAuditUsers();
  if (!allowed) return <AccessDenied message="You don't have permission to view the audit trail" />;

  const set = (patch: Partial<AuditFilter>) => setFilter((f) => ({ ...f, ...patch, page: 0 }));
  const filtered =
    filter.entity !== ALL || filter.entityId !== '' || filter.userId !== ALL || filter.from !== '' || filter.to !== '';
  const pages = audit.data ? Math.max(1, Math.ceil(audit.data.total / AUDIT_PAGE_SIZE)) : 1;

  return (
    <>
      <PageHeader
        title="Audit Trail"
        description="Every change to business data: who made it, when, and each field before and after."
      />
      <form
        className="mb-6 grid gap-3 rounded-xl border bg-white p-4 sm:grid-cols-2 lg:grid-cols-[repeat(5,minmax(0,1fr))_auto] lg:items-end"
        aria-label="Filter the audit trail"
        onSubmit={(event) => event.preventDefault()}
      >
        <div className="grid gap-1.5">
          <Label htmlFor="audit-entity">Entity</Label>
          <Select value={filter.entity} onValueChange={(entity) => set({ entity })}>
            <SelectTrigger id="audit-entity">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={ALL}>All entities</SelectItem>
              {AUDIT_ENTITIES.map((entity) => (
                <SelectItem key={entity} value={entity}>
                  {label(entity)}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="audit-record">Record id</Label>
          <Input
            id="audit-record"
            placeholder="e.g. a contract id"
            value={recordText}
            onChange={(event) => setRecordText(event.target.value)}
          />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="audit-user">User</Label>
          <Select value={filter.userId} onValueChange={(userId) => set({ userId })}>
            <SelectTrigger id="audit-user">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={ALL}>Everyone</SelectItem>
              {(users.data ?? []).map((u) => (
                <SelectItem key={u.id} value={u.id}>
                  {u.firstName} {u.lastName}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="audit-from">From</Label>
          <Input
            id="audit-from"
            type="date"
            value={filter.from}
            max={filter.to || undefined}
            onChange={(e) => set({ from: e.target.value })}
          />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="audit-to">To</Label>
          <Input
            id="audit-to"
            type="date"
            value={filter.to}
            min={filter.from || undefined}
            onChange={(e) => set({ to: e.target.value })}
          />
        </div>
        <Button
          type="button"
          variant="ghost"
          disabled={!filtered}
          onClick={() => {
            setRecordText('');
            setFilter({ entity: ALL, entityId: '', userId: ALL, from: '', to: '', page: 0 });
          }}
        >
          Clear filters
        </Button>
      </form>

      {audit.data && (
        <p className="mb-3 text-sm text-muted-foreground" aria-live="polite" data-testid="audit-total">
          {audit.data.total} {audit.data.total === 1 ? 'event' : 'events'}
          {filtered ? ' match the filters' : ''}
        </p>
      )}
      {audit.isLoading && (
        <div className="grid gap-3" aria-busy="true">
          {Array.from({ length: 4 }, (_, i) => (
            <Skeleton key={i} className="h-28 rounded-xl" />
          ))}
        </div>
      )}
      {audit.isError && (
        <ErrorState title="Could not load the audit trail">{errorMessage(audit.error, 'Please try again.')}</ErrorState>
      )}
      {audit.data && audit.data.rows.length === 0 && (
        <EmptyState icon={<ScrollText />} title={filtered ? 'No events match these filters' : 'No events yet'} />
      )}
      {audit.data && audit.data.rows.length > 0 && (
        <ol className="grid grid-cols-1 gap-3" aria-label="Audit events, newest first">
          {audit.data.rows.map((event) => (
            <li key={event.id} className="min-w-0">
              <AuditEventCard
                event={event}
                onRecord={(entity, entityId) => {
                  setRecordText(entityId);
                  set({ entity, entityId });
                }}
              />
            </li>
          ))}
        </ol>
      )}
      <Pagination page={filter.page} pages={pages} onPageChange={(page) => setFilter((f) => ({ ...f, page }))} />
    </>
  );
}
