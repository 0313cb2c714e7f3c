import type { Contract } from '@shared/contracts/contract-responses';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';
import { refreshContractData } from './get-contracts';

/** A draft renewing the contract from its auto-stop date (POST /api/contracts/{id}/renew). */
export const renewContract = (id: string) => api<Contract>('POST', `/api/contracts/${encodeURIComponent(id)}/renew`);

/**
 * "Renew" wherever it is offered: on a contract's page and on the sales dashboard's "Renewals due" (the dashboard
 * page passes it down, so the dashboard feature does not import this one). Either way the contracts, the
 * customers', the dashboard's figures and the renewals due are asked again, after a refusal too (another
 * user may have renewed it meanwhile).
 */
export function useRenewContract(onRenewed: (renewal: Contract) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => renewContract(id),
    onSuccess: (renewal) => {
      toast({ title: 'Renewal draft created', description: 'Review the renewal and send it to the customer.' });
      void refreshContractData(queryClient);
      void queryClient.invalidateQueries({ queryKey: ['/api/renewals'] });
      onRenewed(renewal);
    },
    onError: (error) => {
      toastError('Could not renew the contract', error);
      void refreshContractData(queryClient);
      void queryClient.invalidateQueries({ queryKey: ['/api/renewals'] });
    },
  });
}
