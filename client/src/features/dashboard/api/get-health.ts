import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export type Health = { status: 'ok' | 'degraded' | 'down'; database: string; outbox: string };

export const healthQueryOptions = queryOptions({
  queryKey: ['/api/health'],
  queryFn: () => api<Health>('GET', '/api/health'),
  staleTime: 30_000,
});

export function useHealth() {
  return useQuery(healthQueryOptions);
}
