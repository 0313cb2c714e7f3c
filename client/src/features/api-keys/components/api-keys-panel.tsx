import { API_KEY_SCOPE_LABELS, type ApiKeyView } from '@shared/contracts/api-key-vocabulary';
import { ROLE_LABELS } from '@shared/roles';
import { KeyRound, Plus } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { type Column, DataTable } from '@/components/ui/data-table';
import { EmptyState, ErrorState } from '@/components/ui/feedback';
import { Pagination } from '@/components/ui/pagination';
import { formatDate, formatTimeAgo } from '@/lib/format';
import { API_KEYS_PAGE_SIZE, useApiKeys } from '../api/get-api-keys';
import { useRevokeApiKey } from '../api/revoke-api-key';
import { CreateApiKeyDialog } from './create-api-key-dialog';

const STATUS = {
  active: { label: 'Active', tone: 'green' },
  expired: { label: 'Expired', tone: 'grey' },
  revoked: { label: 'Revoked', tone: 'red' },
} as const;

/**
 * The Settings screen's "API keys" tab (admins): the keys of the business's other systems with what each may
 * do, who made it, when and from where it was last used and until when it works; a new key's secret is shown
 * once, and a key can be revoked at once.
 */
export function ApiKeysPanel() {
  const [page, setPage] = useState(0);
  const keys = useApiKeys(page);
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiKeyView | null>(null);
  const revoke = useRevokeApiKey();
  const rows = keys.data?.rows ?? [];
  const total = keys.data?.total ?? 0;

  const columns: Column<ApiKeyView>[] = [
    {
      id: 'name',
      header: 'Name',
      rowHeader: true,
      cell: (key) => (
        <>
          <span className="font-medium text-slate-900">{key.name}</span>
          <span className="block font-mono text-xs font-normal text-muted-foreground">{key.hint}</span>
        </>
      ),
    },
    {
      id: 'access',
      header: 'Access',
      cell: (key) => (
        <>
          {API_KEY_SCOPE_LABELS[key.scope]}
          {key.role && <span className="block text-xs text-muted-foreground">{ROLE_LABELS[key.role]}</span>}
        </>
      ),
    },
    {
      id: 'created',
      header: 'Created',
      cellClassName: 'whitespace-nowrap',
      cell: (key) => (
        <>
          {formatDate(key.createdAt)}
          {key.createdBy && <span className="block text-xs text-muted-foreground">by {key.createdBy.name}</span>}
        </>
      ),
    },
    {
      id: 'lastUsed',
      header: 'Last used',
      cellClassName: 'whitespace-nowrap',
      cell: (key) =>
        key.lastUsedAt ? (
          <>
            <time dateTime={key.lastUsedAt} title={new Date(key.lastUsedAt).toLocaleString('en-US')}>
              {formatTimeAgo(key.lastUsedAt)}
            </time>
            {key.lastUsedIp && <span className="block text-xs text-muted-foreground">from {key.lastUsedIp}</span>}
          </>
        ) : (
          <span className="text-muted-foreground">Never</span>
        ),
    },
    {
      id: 'expires',
      header: 'Expires',
      cellClassName: 'whitespace-nowrap',
      cell: (key) => (key.expiresOn ? `After ${formatDate(key.expiresOn)}` : 'Never'),
    },
    {
      id: 'status',
      header: 'Status',
      cell: (key) => <Badge tone={STATUS[key.status].tone}>{STATUS[key.status].label}</Badge>,
    },
    {
      id: 'actions',
      header: 'Actions',
      hideHeader: true,
      align: 'right',
      cell: (key) =>
        key.status === 'active' ? (
          <Button variant="outline" size="sm" onClick={() => setRevoking(key)} aria-label={`Revoke ${key.name}`}>
            Revoke
          </Button>
        ) : null,
    },
  ];

  return (
    <Card className="max-w-5xl">
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3 pb-5">
        <div className="grid min-w-0 flex-1 basis-72 gap-1.5">
          <CardTitle className="text-lg">API keys</CardTitle>
          <CardDescription>
            Keys let the business's other systems use the API (reference at{' '}
            <a
              className="text-primary underline-offset-2 hover:underline"
              href="/api/docs"
              target="_blank"
              rel="noreferrer"
            >
              /api/docs
            </a>
            ). Each change made with a key is recorded in the audit trail under its name.
          </CardDescription>
        </div>
        <Button className="shrink-0" onClick={() => setCreating(true)}>
          <Plus aria-hidden />
          New API Key
        </Button>
      </CardHeader>
      <CardContent>
        {keys.isError ? (
          <ErrorState title="The API keys could not be loaded">Please reload the page.</ErrorState>
        ) : (
          <DataTable
            caption="API keys"
            columns={columns}
            rows={rows}
            rowKey={(key) => key.id}
            rowProps={(key) => ({ 'data-testid': 'api-key-row', 'data-status': key.status })}
            loading={keys.isPending}
            frame="inset"
            density="compact"
            empty={
              <EmptyState icon={<KeyRound aria-hidden />} title="No API keys yet">
                Make one for each system that calls the API, with only the access it needs.
              </EmptyState>
            }
          />
        )}
        <Pagination page={page} pages={Math.ceil(total / API_KEYS_PAGE_SIZE)} onPageChange={setPage} className="mt-4" />
      </CardContent>
      <CreateApiKeyDialog open={creating} onOpenChange={setCreating} />
      <ConfirmDialog
        open={revoking !== null}
        onOpenChange={(open) => !open && setRevoking(null)}
        title="Revoke API key"
        description={`“${revoking?.name ?? ''}” stops working at once: every request made with it is refused. This cannot be undone.`}
        confirmLabel="Revoke"
        busy={revoke.isPending}
        onConfirm={() => revoking && revoke.mutate(revoking.id, { onSettled: () => setRevoking(null) })}
      />
    </Card>
  );
}
