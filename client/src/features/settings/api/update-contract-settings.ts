import type { ContractSettings } from '@shared/contracts/settings';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';
import { contractSettingsQueryKey } from './get-contract-settings';

export const updateContractSettings = (input: ContractSettings) =>
  api<ContractSettings>('PUT', '/api/settings/contracts', input);

export function useUpdateContractSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateContractSettings,
    onSuccess: (saved) => {
      queryClient.setQueryData(contractSettingsQueryKey, saved);
      toast({
        title: 'Contract settings saved',
        description: 'Payment pausing, the grace period and the dunning steps have been updated.',
      });
      return queryClient.invalidateQueries({ queryKey: contractSettingsQueryKey });
    },
    onError: (error) => {
      toastError('Failed to update contract settings', error);
    },
  });
}
