import { can } from '@shared/permissions';
import { Inbox } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { type Column, DataTable } from '@/components/ui/data-table';
import { EmailText } from '@/components/ui/email-text';
import { AccessDenied, EmptyState, ErrorState } from '@/components/ui/feedback';
import { lazyWhen } from '@/components/ui/lazy-when';
import { PageHeader } from '@/components/ui/page-header';
import { Pagination } from '@/components/ui/pagination';
import { useCurrentUser } from '@/features/auth/api/me';
import { type OutboxEmail, PAGE_SIZE, useOutbox } from '@/features/outbox/api/get-outbox';
import { countLabel } from '@/lib/format';

// The message opens in a dialog, loaded the first time one opens (docs/decisions/017-performance.md).
const OutboxMessageDialog = lazyWhen(
  () => import('@/features/outbox/components/outbox-message-dialog').then((module) => module.OutboxMessageDialog),
  (props) => props.messageId !== null,
);

const STATUS_TONE = { queued: 'yellow', sent: 'green', failed: 'red' } as const;

export default function OutboxPage() {
  const { user } = useCurrentUser();
  const [page, setPage] = useState(0);
  const [openId, setOpenId] = useState<string | null>(null);
  const { data, isLoading, isFetching, error } = useOutbox(page);
  if (!can(user, 'outbox:read')) return <AccessDenied message="You don't have permission to view the outbox" />;

  const pages = data ? Math.max(1, Math.ceil(data.total / PAGE_SIZE)) : 1;
  // A page of the server's, newest first.
  const columns: Column<OutboxEmail>[] = [
    { id: 'to', header: 'To', cell: (m) => <EmailText email={m.to} /> },
    {
      id: 'subject',
      header: 'Subject',
      cell: (m) => (
        <button
          type="button"
          className="rounded-sm text-left font-medium text-primary hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          aria-haspopup="dialog"
          onClick={() => setOpenId(m.id)}
        >
          {m.subject}
        </button>
      ),
    },
    { id: 'status', header: 'Status', cell: (m) => <Badge tone={STATUS_TONE[m.status]}>{m.status}</Badge> },
    { id: 'attempts', header: 'Attempts', cellClassName: 'tabular-nums', cell: (m) => m.attempts },
    {
      id: 'created',
      header: 'Created',
      cellClassName: 'text-muted-foreground',
      cell: (m) => new Date(m.createdAt).toLocaleString('en-US'),
    },
  ];
  return (
    <>
      <PageHeader
        title="Outbox"
        description="Every e-mail the product sends. Without an SMTP server configured, messages stay queued here."
      />
      {error && !data ? (
        <ErrorState title="Could not load the outbox" />
      ) : (
        <DataTable
          caption="Outbox"
          columns={columns}
          rows={data?.rows ?? []}
          rowKey={(m) => m.id}
          loading={!data}
          busy={isFetching && !isLoading}
          frame="card"
          phone="cards"
          empty={<EmptyState icon={<Inbox />} title="No e-mails yet" />}
          footer={
            data && (
              <div className="flex flex-wrap items-center justify-between gap-2 text-sm text-muted-foreground">
                <span>{countLabel(data.total, data.totalIsLowerBound, 'e-mail', 'e-mails')}</span>
                <Pagination
                  page={page}
                  pages={pages}
                  more={data.totalIsLowerBound}
                  onPageChange={setPage}
                  className=""
                />
              </div>
            )
          }
        />
      )}
      <OutboxMessageDialog messageId={openId} onClose={() => setOpenId(null)} />
    </>
  );
}
