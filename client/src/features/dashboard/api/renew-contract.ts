import type { Contract } from '@shared/contracts/contract-responses';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api, errorMessage } from '@/lib/api-client';

/** A draft renewing the contract from its auto-stop date (POST /api/contracts/{id}/renew). */
export const renewContract = (id: string) => api<Contract>('POST', `/api/contracts/${encodeURIComponent(id)}/renew`);

export function useRenewContract(onRenewed: (renewal: Contract) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => renewContract(id),
    onSuccess: (renewal) => {
      toast({ title: 'Renewal draft created', description: 'Review the renewal and send it to the customer.' });
      void queryClient.invalidateQueries({ queryKey: ['/api/renewals'] });
      void queryClient.invalidateQueries({ queryKey: ['/api/contracts'] });
      onRenewed(renewal);
    },
    onError: (error) => {
      toast({
        variant: 'destructive',
        title: 'Could not renew the contract',
        description: errorMessage(error, 'Please try again'),
      });
      void queryClient.invalidateQueries({ queryKey: ['/api/renewals'] });
    },
  });
}
