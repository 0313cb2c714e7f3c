import type { AgencyOfRecord } from '@shared/contracts/agencies';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api, withQuery } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';
import { customersQueryKey } from './get-customers';

/** DELETE /api/customers/{id}/agency?agencyId=: ends that agency's representation (begun: yesterday; to come: deleted). */
export const removeAgencyOfRecord = (period: Pick<AgencyOfRecord, 'advertiserId' | 'agencyId'>) =>
  api<AgencyOfRecord[]>(
    'DELETE',
    withQuery(`/api/customers/${encodeURIComponent(period.advertiserId)}/agency`, { agencyId: period.agencyId }),
  );

export function useRemoveAgencyOfRecord() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeAgencyOfRecord,
    onSuccess: () => {
      toast({ title: 'Agency of record removed' });
      return queryClient.invalidateQueries({ queryKey: customersQueryKey });
    },
    onError: (error) => {
      toastError('Failed to remove the agency of record', error);
    },
  });
}
