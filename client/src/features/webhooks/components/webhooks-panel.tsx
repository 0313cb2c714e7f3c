import {
  WEBHOOK_DELIVERY_STATUS_LABELS,
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENT_TYPES,
  type WebhookEndpointView,
} from '@shared/contracts/webhooks-vocabulary';
import { Link2, MoreHorizontal, Plus } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { type Column, DataTable } from '@/components/ui/data-table';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { EmptyState, ErrorState } from '@/components/ui/feedback';
import { Pagination } from '@/components/ui/pagination';
import { toast } from '@/components/ui/use-toast';
import { formatTimeAgo } from '@/lib/format';
import { toastError } from '@/lib/toast-error';
import { useDeleteWebhook } from '../api/delete-webhook';
import { useWebhooks, WEBHOOKS_PAGE_SIZE } from '../api/get-webhooks';
import { useSendWebhookTest } from '../api/send-webhook-test';
import { useUpdateWebhook } from '../api/update-webhook';
import { WebhookDeliveriesDialog } from './webhook-deliveries-dialog';
import { WebhookFormDialog } from './webhook-form-dialog';
import { WebhookSecretDialog } from './webhook-secret-dialog';

const DELIVERY_TONES = { pending: 'yellow', succeeded: 'green', failed: 'red' } as const;

/**
 * The Settings screen's "Webhooks" tab (admins): the endpoints other systems listen on, with their events,
 * whether they are enabled (and why not) and their last delivery; per endpoint its delivery log with "Send test
 * event" and "Resend", edit, disable or enable, its signing secret (reveal, copy, rotate) and delete.
 */
export function WebhooksPanel() {
  const [page, setPage] = useState(0);
  const endpoints = useWebhooks(page);
  const [editing, setEditing] = useState<WebhookEndpointView | null | 'new'>(null);
  const [secretOf, setSecretOf] = useState<{ endpoint: WebhookEndpointView; justCreated: boolean } | null>(null);
  const [logOf, setLogOf] = useState<WebhookEndpointView | null>(null);
  const [deleting, setDeleting] = useState<WebhookEndpointView | null>(null);
  const update = useUpdateWebhook();
  const remove = useDeleteWebhook();
  const test = useSendWebhookTest();
  const rows = endpoints.data?.rows ?? [];
  const total = endpoints.data?.total ?? 0;

  const toggle = (endpoint: WebhookEndpointView) =>
    update.mutate(
      { id: endpoint.id, enabled: !endpoint.enabled },
      {
        onSuccess: (changed) =>
          toast({
            title: changed.enabled ? 'Endpoint enabled' : 'Endpoint disabled',
            description: changed.enabled ? 'New events are sent to it again.' : 'It gets no events until enabled.',
          }),
        onError: (error) => toastError('Failed to change the endpoint', error),
      },
    );

  const columns: Column<WebhookEndpointView>[] = [
    {
      id: 'url',
      header: 'Endpoint',
      rowHeader: true,
      role: 'identity',
      cell: (endpoint) => (
        <>
          <span className="break-all font-medium text-slate-900">{endpoint.url}</span>
          {endpoint.description && (
            <span className="block text-xs font-normal text-muted-foreground">{endpoint.description}</span>
          )}
        </>
      ),
    },
    {
      id: 'events',
      header: 'Events',
      cellClassName: 'whitespace-nowrap',
      cell: (endpoint) => (
        <span title={endpoint.events.map((type) => WEBHOOK_EVENT_LABELS[type]).join(', ')}>
          {endpoint.events.length === WEBHOOK_EVENT_TYPES.length
            ? 'All events'
            : endpoint.events.length === 1
              ? WEBHOOK_EVENT_LABELS[endpoint.events[0]]
              : `${endpoint.events.length} events`}
        </span>
      ),
    },
    {
      id: 'status',
      header: 'Status',
      role: 'status',
      cell: (endpoint) => (
        <>
          <Badge tone={endpoint.enabled ? 'green' : 'red'}>{endpoint.enabled ? 'Enabled' : 'Disabled'}</Badge>
          {!endpoint.enabled && endpoint.disabledReason && (
            <span className="mt-1 block max-w-56 text-xs text-muted-foreground">{endpoint.disabledReason}</span>
          )}
          {endpoint.enabled && endpoint.failingSince && (
            <span className="mt-1 block max-w-56 text-xs text-amber-700">
              Failing since {new Date(endpoint.failingSince).toLocaleString('en-US')}
            </span>
          )}
        </>
      ),
    },
    {
      id: 'last',
      header: 'Last delivery',
      cellClassName: 'whitespace-nowrap',
      cell: (endpoint) =>
        endpoint.lastDelivery ? (
          <>
            <Badge tone={DELIVERY_TONES[endpoint.lastDelivery.status]}>
              {WEBHOOK_DELIVERY_STATUS_LABELS[endpoint.lastDelivery.status]}
              {endpoint.lastDelivery.httpStatus ? ` · ${endpoint.lastDelivery.httpStatus}` : ''}
            </Badge>
            <time
              className="block text-xs text-muted-foreground"
              dateTime={endpoint.lastDelivery.at}
              title={new Date(endpoint.lastDelivery.at).toLocaleString('en-US')}
            >
              {formatTimeAgo(endpoint.lastDelivery.at)}
            </time>
          </>
        ) : (
          <span className="text-muted-foreground">None yet</span>
        ),
    },
    {
      id: 'actions',
      header: 'Actions',
      hideHeader: true,
      align: 'right',
      role: 'actions',
      cell: (endpoint) => (
        <div className="flex justify-end gap-2">
          <Button variant="outline" size="sm" onClick={() => setLogOf(endpoint)}>
            Deliveries
          </Button>
          <DropdownMenu>
            <DropdownMenuTrigger asChild>
              <Button variant="outline" size="sm" aria-label={`More actions for ${endpoint.url}`}>
                <MoreHorizontal aria-hidden />
              </Button>
            </DropdownMenuTrigger>
            <DropdownMenuContent>
              <DropdownMenuItem disabled={!endpoint.enabled} onSelect={() => test.mutate(endpoint.id)}>
                Send test event
              </DropdownMenuItem>
              <DropdownMenuItem onSelect={() => setEditing(endpoint)}>Edit</DropdownMenuItem>
              <DropdownMenuItem onSelect={() => setSecretOf({ endpoint, justCreated: false })}>
                Signing secret
              </DropdownMenuItem>
              <DropdownMenuItem onSelect={() => toggle(endpoint)}>
                {endpoint.enabled ? 'Disable' : 'Enable'}
              </DropdownMenuItem>
              <DropdownMenuSeparator />
              <DropdownMenuItem className="text-destructive" onSelect={() => setDeleting(endpoint)}>
                Delete
              </DropdownMenuItem>
            </DropdownMenuContent>
          </DropdownMenu>
        </div>
      ),
    },
  ];

  return (
    <Card className="max-w-5xl">
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3 pb-5">
        <div className="grid min-w-0 flex-1 basis-72 gap-1.5">
          <CardTitle className="text-lg">Webhooks</CardTitle>
          <CardDescription>
            Other systems hear of invoices, payments, credit notes, contracts, delivery and payouts as they happen:
            signed HTTPS requests (Standard Webhooks), retried for a day when they fail.
          </CardDescription>
        </div>
        <Button className="shrink-0" onClick={() => setEditing('new')}>
          <Plus aria-hidden />
          Add Endpoint
        </Button>
      </CardHeader>
      <CardContent>
        {endpoints.isError ? (
          <ErrorState title="The webhook endpoints could not be loaded">Please reload the page.</ErrorState>
        ) : (
          <DataTable
            caption="Webhook endpoints"
            columns={columns}
            rows={rows}
            rowKey={(endpoint) => endpoint.id}
            rowProps={(endpoint) => ({
              'data-testid': 'webhook-endpoint',
              'data-status': endpoint.enabled ? 'enabled' : 'disabled',
            })}
            loading={endpoints.isPending}
            frame="inset"
            density="compact"
            empty={
              <EmptyState icon={<Link2 aria-hidden />} title="No endpoints yet">
                Add one for each system that should hear of events, with only the events it needs.
              </EmptyState>
            }
          />
        )}
        <Pagination page={page} pages={Math.ceil(total / WEBHOOKS_PAGE_SIZE)} onPageChange={setPage} className="mt-4" />
      </CardContent>
      <WebhookFormDialog
        open={editing !== null}
        onOpenChange={(open) => !open && setEditing(null)}
        endpoint={editing === 'new' ? null : editing}
        onCreated={(endpoint) => setSecretOf({ endpoint, justCreated: true })}
      />
      <WebhookSecretDialog
        endpoint={secretOf?.endpoint ?? null}
        justCreated={secretOf?.justCreated}
        onOpenChange={(open) => !open && setSecretOf(null)}
      />
      <WebhookDeliveriesDialog endpoint={logOf} onOpenChange={(open) => !open && setLogOf(null)} />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete endpoint"
        description={`${deleting?.url ?? ''} gets no more events, and its delivery log is deleted. This cannot be undone.`}
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.id, { onSettled: () => setDeleting(null) })}
      />
    </Card>
  );
}
