import type { TaxSettings } from '@shared/contracts/settings';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const taxSettingsQueryKey = ['/api/settings/tax'] as const;

export const taxSettingsQueryOptions = queryOptions({
  queryKey: taxSettingsQueryKey,
  queryFn: () => api<TaxSettings>('GET', '/api/settings/tax'),
});

/** Only admin-level screens mount this (ui-spec section 6: the tab and its query are theirs alone). */
export function useTaxSettings() {
  return useQuery(taxSettingsQueryOptions);
}
