import type { AgencyOfRecord, AgencyOfRecordInput } from '@shared/contracts/agencies';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';
import { customersQueryKey } from './get-customers';

/** PUT /api/customers/{id}/agency: answers the advertiser's periods, newest first. */
export const setAgencyOfRecord = ({ customerId, input }: { customerId: string; input: AgencyOfRecordInput }) =>
  api<AgencyOfRecord[]>('PUT', `/api/customers/${encodeURIComponent(customerId)}/agency`, input);

/** The customer (its agency of record), its periods and the agency's advertisers are all under the customers key. */
export function useSetAgencyOfRecord(customerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: AgencyOfRecordInput) => setAgencyOfRecord({ customerId, input }),
    onSuccess: () => {
      toast({ title: 'Agency of record saved' });
      return queryClient.invalidateQueries({ queryKey: customersQueryKey });
    },
    onError: (error) => {
      toastError('Failed to save the agency of record', error);
    },
  });
}
