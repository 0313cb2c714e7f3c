import { can } from '@shared/permissions';
import { Inbox } from 'lucide-react';
import { Fragment, useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { AccessDenied, EmptyState, ErrorState, Skeleton } from '@/components/ui/feedback';
import { PageHeader } from '@/components/ui/page-header';
import { Pagination } from '@/components/ui/pagination';
import { useCurrentUser } from '@/features/auth/api/me';
import { PAGE_SIZE, useOutbox } from '@/features/outbox/api/get-outbox';

const STATUS_TONE = { queued: 'yellow', sent: 'green', failed: 'red' } as const;

export default function OutboxPage() {
  const { user } = useCurrentUser();
  const [page, setPage] = useState(0);
  const [openId, setOpenId] = useState<string | null>(null);
  const { data, isLoading, error } = useOutbox(page);
  if (!can(user, 'outbox:read')) return <AccessDenied message="You don't have permission to view the outbox" />;

  const pages = data ? Math.max(1, Math.ceil(data.total / PAGE_SIZE)) : 1;
  return (
    <>
      <PageHeader
        title="Outbox"
        description="Every e-mail the product sends. Without an SMTP server configured, messages stay queued here."
      />
      {isLoading && <Skeleton className="h-64 rounded-xl" />}
      {error && <ErrorState title="Could not load the outbox" />}
      {data && data.rows.length === 0 && <EmptyState icon={<Inbox />} title="No e-mails yet" />}
      {data && data.rows.length > 0 && (
        <div className="overflow-hidden rounded-xl border bg-white">
          <table className="w-full text-sm">
            <thead className="bg-muted/60 text-left text-xs uppercase tracking-wide text-muted-foreground">
              <tr>
                <th className="px-4 py-3 font-medium">To</th>
                <th className="px-4 py-3 font-medium">Subject</th>
                <th className="px-4 py-3 font-medium">Status</th>
                <th className="px-4 py-3 font-medium">Attempts</th>
                <th className="px-4 py-3 font-medium">Created</th>
              </tr>
            </thead>
            <tbody>
              {data.rows.map((m) => (
                <Fragment key={m.id}>
                  <tr className="border-t hover:bg-muted/40">
                    <td className="px-4 py-3">{m.to}</td>
                    <td className="px-4 py-3">
                      <button
                        type="button"
                        className="text-left font-medium text-primary hover:underline"
                        aria-expanded={openId === m.id}
                        onClick={() => setOpenId(openId === m.id ? null : m.id)}
                      >
                        {m.subject}
                      </button>
                    </td>
                    <td className="px-4 py-3">
                      <Badge tone={STATUS_TONE[m.status]}>{m.status}</Badge>
                    </td>
                    <td className="px-4 py-3 tabular-nums">{m.attempts}</td>
                    <td className="px-4 py-3 text-muted-foreground">{new Date(m.createdAt).toLocaleString('en-US')}</td>
                  </tr>
                  {openId === m.id && (
                    <tr className="border-t bg-slate-50">
                      <td colSpan={5} className="px-4 py-3">
                        <pre className="whitespace-pre-wrap font-sans text-sm text-slate-700">{m.text}</pre>
                        {m.lastError && <p className="mt-2 text-sm text-destructive">Last error: {m.lastError}</p>}
                      </td>
                    </tr>
                  )}
                </Fragment>
              ))}
            </tbody>
          </table>
          <div className="flex items-center justify-between border-t px-4 py-3 text-sm text-muted-foreground">
            <span>
              {data.total} e-mail{data.total === 1 ? '' : 's'}
            </span>
            <Pagination page={page} pages={pages} onPageChange={setPage} className="" />
          </div>
        </div>
      )}
    </>
  );
}
