import { RENEWALS_DUE_DAYS, type RenewalDue } from '@shared/contracts/renewal-vocabulary';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiPage, withQuery } from '@/lib/api-client';

/** Running contracts whose term ends in the next 60 days, soonest first: a rep's own, a manager's team's. */
export const renewalsDueQueryOptions = queryOptions({
  queryKey: ['/api/renewals', { withinDays: RENEWALS_DUE_DAYS, limit: 10 }],
  queryFn: () => apiPage<RenewalDue>(withQuery('/api/renewals', { withinDays: RENEWALS_DUE_DAYS, limit: 10 })),
});

export function useRenewalsDue(enabled = true) {
  return useQuery({ ...renewalsDueQueryOptions, enabled });
}
