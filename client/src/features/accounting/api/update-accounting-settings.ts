import type { AccountingSettingsInput } from '@shared/contracts/accounting';
import type { AccountingSettings } from '@shared/contracts/accounting-vocabulary';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';
import { accountingSettingsQueryKey } from './get-accounting-settings';

export const updateAccountingSettings = (input: AccountingSettingsInput) =>
  api<AccountingSettings>('PUT', '/api/accounting/settings', input);

/** Saves every code (admins); the Accounting screen's notice reads the saved ones. */
export function useUpdateAccountingSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateAccountingSettings,
    onSuccess: (saved) => {
      queryClient.setQueryData(accountingSettingsQueryKey, saved);
      toast({ title: 'Account codes saved', description: 'The next exports use these codes.' });
    },
    onError: (error) => {
      toastError('Failed to save the account codes', error);
    },
  });
}
