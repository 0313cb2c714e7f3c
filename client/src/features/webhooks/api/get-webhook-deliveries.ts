import type { WebhookDeliveryView } from '@shared/contracts/webhooks-vocabulary';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiPage, withQuery } from '@/lib/api-client';
import { webhooksQueryKey } from './get-webhooks';

export const DELIVERIES_PAGE_SIZE = 20;

export const webhookDeliveriesQueryKey = (id: string) => [...webhooksQueryKey, id, 'deliveries'] as const;

/**
 * One page of an endpoint's delivery log, newest first. While a delivery is still being retried the log is
 * read again every few seconds, so a test event's result shows without a reload.
 */
export function useWebhookDeliveries(id: string, page: number) {
  return useQuery({
    queryKey: [...webhookDeliveriesQueryKey(id), { page }],
    queryFn: () =>
      apiPage<WebhookDeliveryView>(
        withQuery(`/api/webhooks/${id}/deliveries`, {
          limit: DELIVERIES_PAGE_SIZE,
          offset: page * DELIVERIES_PAGE_SIZE,
        }),
      ),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.rows.some((row) => row.status === 'pending') ? 2_000 : false),
  });
}
