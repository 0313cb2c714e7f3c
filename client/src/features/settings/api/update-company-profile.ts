import type { CompanyProfileInput } from '@shared/contracts/company';
import type { CompanyProfile } from '@shared/contracts/company-vocabulary';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';
import { companyProfileQueryKey } from './get-company-profile';

export const updateCompanyProfile = (input: CompanyProfileInput) =>
  api<CompanyProfile>('PUT', '/api/settings/company', input);

export function useUpdateCompanyProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateCompanyProfile,
    onSuccess: (saved) => {
      queryClient.setQueryData(companyProfileQueryKey, saved);
      toast({
        title: 'Company profile saved',
        description: 'Invoices, credit notes, insertion orders and customer e-mails print it from now on.',
      });
    },
    onError: (error) => {
      toastError('Failed to update the company profile', error);
    },
  });
}
