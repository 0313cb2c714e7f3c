import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /api/health: each line is 'ok' or a word for what is wrong. */
export type Health = {
  status: 'ok' | 'degraded' | 'down';
  database: string;
  outbox: string;
  billing?: string;
  jobs?: string;
};

export const healthQueryOptions = queryOptions({
  queryKey: ['/api/health'],
  queryFn: () => api<Health>('GET', '/api/health'),
  staleTime: 30_000,
  retry: false,
});

export function useHealth() {
  return useQuery(healthQueryOptions);
}

const PROBLEMS: Record<string, Record<string, string>> = {
  database: { unreachable: 'The database is unreachable' },
  outbox: {
    stuck: 'E-mail outbox is stuck: messages have waited over 30 minutes',
    failing: 'E-mails failed to send in the last day',
  },
  billing: {
    stale: 'Billing run is not current: none succeeded since yesterday',
    failing: 'The last billing run failed',
  },
  jobs: {
    failing: 'A background job failed after all its retries in the last day',
    retrying: 'A background job is failing and waits for its next try',
  },
};

/** What is wrong, in words, one line per check that is not ok (empty when all is well). */
export function healthProblems(health: Health): string[] {
  return Object.entries(health)
    .filter(([key, value]) => key !== 'status' && value !== 'ok')
    .map(([key, value]) => PROBLEMS[key]?.[value] ?? `${key.charAt(0).toUpperCase()}${key.slice(1)}: ${value}`);
}
