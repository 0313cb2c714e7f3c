import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiPage, withQuery } from '@/lib/api-client';

export type OutboxEmail = {
  id: string;
  to: string;
  subject: string;
  status: 'queued' | 'sent' | 'failed';
  attempts: number;
  lastError: string | null;
  text: string;
  html: string | null;
  createdAt: string;
  sentAt: string | null;
};

export const PAGE_SIZE = 25;

export const outboxQueryOptions = (page: number) =>
  queryOptions({
    queryKey: ['/api/outbox', { page }],
    queryFn: () => apiPage<OutboxEmail>(withQuery('/api/outbox', { limit: PAGE_SIZE, offset: page * PAGE_SIZE })),
    staleTime: 0,
  });

export function useOutbox(page: number) {
  return useQuery(outboxQueryOptions(page));
}
