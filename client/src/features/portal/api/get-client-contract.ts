import type { ClientContractDetail } from '@shared/contracts/client-portal';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** One of the client's own contracts (GET /api/client/contracts/{id}): any other answers 404. */
export const clientContractQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ['/api/client/contracts', 'detail', id],
    queryFn: () => api<ClientContractDetail>('GET', `/api/client/contracts/${encodeURIComponent(id)}`),
  });

export function useClientContract(id: string) {
  return useQuery(clientContractQueryOptions(id));
}
