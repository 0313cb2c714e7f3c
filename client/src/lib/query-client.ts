import { QueryClient } from '@tanstack/react-query';

/** Data never goes stale by default: no retries, no refetch on an interval or on window focus (ui-spec section 9). */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { staleTime: Number.POSITIVE_INFINITY, retry: false, refetchOnWindowFocus: false, refetchInterval: false },
    mutations: { retry: false },
  },
});
