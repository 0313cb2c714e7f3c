import {
  WEBHOOK_DELIVERY_STATUS_LABELS,
  type WebhookDeliveryView,
  type WebhookEndpointView,
  webhookEventLabel,
} from '@shared/contracts/webhooks-vocabulary';
import { Inbox, Send } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { type Column, DataTable } from '@/components/ui/data-table';
import { Dialog, DialogContent, DialogFormHeader } from '@/components/ui/dialog';
import { EmptyState, ErrorState } from '@/components/ui/feedback';
import { Pagination } from '@/components/ui/pagination';
import { formatTimeAgo } from '@/lib/format';
import { DELIVERIES_PAGE_SIZE, useWebhookDeliveries } from '../api/get-webhook-deliveries';
import { useResendWebhookDelivery } from '../api/resend-webhook-delivery';
import { useSendWebhookTest } from '../api/send-webhook-test';

const TONES = { pending: 'yellow', succeeded: 'green', failed: 'red' } as const;

const when = (iso: string) => (
  <time dateTime={iso} title={new Date(iso).toLocaleString('en-US')}>
    {formatTimeAgo(iso)}
  </time>
);

/** "In 5 minutes" for a retry to come (formatTimeAgo reads the past). */
function nextTry(iso: string) {
  const seconds = Math.round((Date.parse(iso) - Date.now()) / 1000);
  const words =
    seconds <= 5
      ? 'Now'
      : seconds < 90
        ? `In ${seconds} s`
        : seconds < 5400
          ? `In ${Math.round(seconds / 60)} min`
          : `In ${Math.round(seconds / 3600)} h`;
  return (
    <time dateTime={iso} title={new Date(iso).toLocaleString('en-US')}>
      {words}
    </time>
  );
}

/**
 * An endpoint's delivery log, newest first, paged on the server: each delivery's event, status, the last
 * attempt's HTTP status and duration, the attempts made and the next try; "Resend" sends its event again (same
 * webhook-id), "Send test event" a `webhook.test` through the same pipeline.
 */
export function WebhookDeliveriesDialog({
  endpoint,
  onOpenChange,
}: {
  endpoint: WebhookEndpointView | null;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={endpoint !== null} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-4xl">{endpoint && <DeliveryLog endpoint={endpoint} />}</DialogContent>
    </Dialog>
  );
}

function DeliveryLog({ endpoint }: { endpoint: WebhookEndpointView }) {
  const [page, setPage] = useState(0);
  const log = useWebhookDeliveries(endpoint.id, page);
  const resend = useResendWebhookDelivery(endpoint.id);
  const test = useSendWebhookTest();
  const rows = log.data?.rows ?? [];
  const total = log.data?.total ?? 0;

  const columns: Column<WebhookDeliveryView>[] = [
    {
      id: 'event',
      header: 'Event',
      rowHeader: true,
      role: 'identity',
      cell: (d) => (
        <>
          <span className="font-medium text-slate-900">{webhookEventLabel(d.eventType)}</span>
          <span className="block font-mono text-xs font-normal text-muted-foreground">{d.eventId}</span>
          <span className="block text-xs font-normal text-muted-foreground">{when(d.createdAt)}</span>
        </>
      ),
    },
    {
      id: 'status',
      header: 'Status',
      role: 'status',
      cell: (d) => (
        <>
          <Badge tone={TONES[d.status]}>{WEBHOOK_DELIVERY_STATUS_LABELS[d.status]}</Badge>
          {d.error && d.status !== 'succeeded' && (
            <span className="mt-1 block max-w-56 break-words text-xs text-muted-foreground">{d.error}</span>
          )}
        </>
      ),
    },
    { id: 'http', header: 'HTTP status', align: 'right', cell: (d) => d.httpStatus ?? '—' },
    {
      id: 'duration',
      header: 'Duration',
      align: 'right',
      cellClassName: 'whitespace-nowrap',
      cell: (d) => (d.durationMs === null ? '—' : `${d.durationMs} ms`),
    },
    { id: 'attempts', header: 'Attempts', align: 'right', cell: (d) => d.attempts },
    {
      id: 'next',
      header: 'Next try',
      cellClassName: 'whitespace-nowrap',
      cell: (d) => (d.nextAttemptAt ? nextTry(d.nextAttemptAt) : '—'),
    },
    {
      id: 'actions',
      header: 'Actions',
      hideHeader: true,
      align: 'right',
      role: 'actions',
      cell: (d) => (
        <Button
          variant="outline"
          size="sm"
          disabled={!endpoint.enabled || resend.isPending}
          onClick={() => resend.mutate(d.id)}
          aria-label={`Resend ${d.eventType} ${d.eventId}`}
        >
          Resend
        </Button>
      ),
    },
  ];

  return (
    <div className="grid min-w-0 gap-4">
      <DialogFormHeader
        title="Delivery log"
        description={
          <>
            Events sent to <span className="break-all font-medium text-slate-900">{endpoint.url}</span>. A failed
            delivery is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h.
          </>
        }
      />
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-muted-foreground">
          {total === 1 ? '1 delivery' : `${total.toLocaleString('en-US')} deliveries`}
        </p>
        <Button
          variant="outline"
          size="sm"
          disabled={!endpoint.enabled || test.isPending}
          onClick={() => test.mutate(endpoint.id)}
        >
          <Send aria-hidden />
          Send test event
        </Button>
      </div>
      {log.isError ? (
        <ErrorState title="The delivery log could not be loaded">Please try again.</ErrorState>
      ) : (
        <DataTable
          caption="Deliveries"
          columns={columns}
          rows={rows}
          rowKey={(d) => d.id}
          rowProps={(d) => ({ 'data-testid': 'webhook-delivery', 'data-status': d.status })}
          loading={log.isPending}
          busy={log.isPlaceholderData}
          frame="inset"
          density="compact"
          empty={
            <EmptyState icon={<Inbox aria-hidden />} title="No deliveries yet">
              Events this endpoint subscribes to show here as they are sent. Try “Send test event”.
            </EmptyState>
          }
        />
      )}
      <Pagination page={page} pages={Math.ceil(total / DELIVERIES_PAGE_SIZE)} onPageChange={setPage} className="mt-0" />
    </div>
  );
}
