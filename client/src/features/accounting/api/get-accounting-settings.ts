import type { AccountingSettings } from '@shared/contracts/accounting-vocabulary';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const accountingSettingsQueryKey = ['/api/accounting/settings'] as const;

export const accountingSettingsQueryOptions = queryOptions({
  queryKey: accountingSettingsQueryKey,
  queryFn: () => api<AccountingSettings>('GET', '/api/accounting/settings'),
});

/** The account codes (finance and admins read them; the Accounting screen's notice and the Settings tab). */
export function useAccountingSettings(options: { enabled?: boolean } = {}) {
  return useQuery({ ...accountingSettingsQueryOptions, enabled: options.enabled ?? true });
}
