import type { TaxSettings } from '@shared/contracts/settings';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';
import { taxSettingsQueryKey } from './get-tax-settings';

export const updateTaxSettings = (input: TaxSettings) => api<TaxSettings>('PUT', '/api/settings/tax', input);

export function useUpdateTaxSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateTaxSettings,
    onSuccess: (saved) => {
      queryClient.setQueryData(taxSettingsQueryKey, saved);
      toast({ title: 'Tax settings saved', description: 'The default tax rate, label and pricing have been updated.' });
      return queryClient.invalidateQueries({ queryKey: taxSettingsQueryKey });
    },
    onError: (error) => {
      toastError('Failed to update tax settings', error);
    },
  });
}
