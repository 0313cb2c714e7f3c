import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { OutboxEmail } from './get-outbox';

/** One message of the outbox as it was sent (GET /api/outbox/{id}), links that grant something masked. */
export const outboxEmailQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ['/api/outbox', 'message', id],
    queryFn: () => api<OutboxEmail>('GET', `/api/outbox/${encodeURIComponent(id)}`),
    staleTime: 0,
  });

export function useOutboxEmail(id: string | null) {
  return useQuery({ ...outboxEmailQueryOptions(id ?? ''), enabled: id !== null });
}
