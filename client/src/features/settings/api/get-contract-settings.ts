import type { ContractSettings } from '@shared/contracts/settings';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const contractSettingsQueryKey = ['/api/settings/contracts'] as const;

export const contractSettingsQueryOptions = queryOptions({
  queryKey: contractSettingsQueryKey,
  queryFn: () => api<ContractSettings>('GET', '/api/settings/contracts'),
});

/** Only admin-level screens mount this (ui-spec section 6: the tab and its query are theirs alone). */
export function useContractSettings() {
  return useQuery(contractSettingsQueryOptions);
}
