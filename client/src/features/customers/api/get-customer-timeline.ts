import { type CustomerTimeline, TIMELINE_DEFAULT_LIMIT } from '@shared/contracts/customer-timeline-vocabulary';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api, withQuery } from '@/lib/api-client';
import { customersQueryKey } from './get-customers';

/** The key of a customer's story; a page refreshes it after a change that adds to it (an activity logged, say). */
export const customerTimelineQueryKey = (customerId: string) => [...customersQueryKey, customerId, 'timeline'] as const;

/** The customer's story, newest first, a page at a time: each next page is the events before the last one's time. */
export const customerTimelineQueryOptions = (customerId: string) =>
  infiniteQueryOptions({
    queryKey: customerTimelineQueryKey(customerId),
    queryFn: ({ pageParam }) =>
      api<CustomerTimeline>(
        'GET',
        withQuery(`/api/customers/${encodeURIComponent(customerId)}/timeline`, {
          limit: TIMELINE_DEFAULT_LIMIT,
          before: pageParam,
        }),
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextBefore,
    staleTime: 0,
  });

export function useCustomerTimeline(customerId: string, options: { enabled?: boolean } = {}) {
  return useInfiniteQuery({ ...customerTimelineQueryOptions(customerId), enabled: options.enabled ?? true });
}
