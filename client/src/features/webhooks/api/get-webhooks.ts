import type { WebhookEndpointView } from '@shared/contracts/webhooks-vocabulary';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiPage, withQuery } from '@/lib/api-client';

/** The key every webhook query starts with; a change to an endpoint invalidates it (and its log). */
export const webhooksQueryKey = ['/api/webhooks'] as const;

export const WEBHOOKS_PAGE_SIZE = 20;

export const webhooksQueryOptions = (page: number) =>
  queryOptions({
    queryKey: [...webhooksQueryKey, { page }],
    queryFn: () =>
      apiPage<WebhookEndpointView>(
        withQuery('/api/webhooks', { limit: WEBHOOKS_PAGE_SIZE, offset: page * WEBHOOKS_PAGE_SIZE }),
      ),
  });

/**
 * One page of endpoints, newest first; the previous page stays on screen while the next one loads. While an
 * endpoint's last delivery is pending the list is read again every few seconds, so its result shows.
 */
export function useWebhooks(page: number) {
  return useQuery({
    ...webhooksQueryOptions(page),
    placeholderData: keepPreviousData,
    refetchInterval: (query) =>
      query.state.data?.rows.some((row) => row.lastDelivery?.status === 'pending') ? 3_000 : false,
  });
}
