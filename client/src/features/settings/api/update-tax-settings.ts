import type { TaxSettings } from '@shared/contracts/settings';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api, errorMessage } from '@/lib/api-client';
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
      toast({
        variant: 'destructive',
        title: 'Failed to update tax settings',
        description: errorMessage(error, 'Please try again'),
      });
    },
  });
}
