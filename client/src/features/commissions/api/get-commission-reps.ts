import type { CommissionRep } from '@shared/contracts/commissions';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { commissionsQueryKey } from './keys';

/** GET /api/commissions/reps: the reps staff can filter by (only for commission:read:any). */
export const commissionRepsQueryOptions = () =>
  queryOptions({
    queryKey: [...commissionsQueryKey, 'reps'],
    queryFn: () => api<CommissionRep[]>('GET', '/api/commissions/reps'),
    staleTime: 60_000,
  });

export function useCommissionReps(enabled: boolean) {
  return useQuery({ ...commissionRepsQueryOptions(), enabled });
}
