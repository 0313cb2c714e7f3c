import type { Deal } from '@shared/contracts/deals';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from 'wouter';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-client';
import { paths } from '@/lib/paths';
import { toastError } from '@/lib/toast-error';
import { dealQueryKey } from './get-deal';
import { refreshPipeline } from './keys';

/**
 * POST /api/deals/:id/contract: a draft contract for the deal's customer with its lines, starting on its flight
 * start; the deal moves to the stage marked "Contract drafted" and answers with its contractId.
 */
export const createDealContract = (deal: Pick<Deal, 'id'>) =>
  api<Deal>('POST', `/api/deals/${encodeURIComponent(deal.id)}/contract`);

export function useCreateDealContract() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createDealContract,
    onSuccess: (deal) => {
      queryClient.setQueryData(dealQueryKey(deal.id), deal);
      toast({
        title: 'Draft contract created',
        description: (
          <>
            {deal.title} now has a draft contract.{' '}
            {deal.contractId && (
              <Link href={paths.editContract(deal.contractId)} className="font-medium text-primary underline">
                Open contract
              </Link>
            )}
          </>
        ),
      });
      return Promise.all([
        refreshPipeline(queryClient),
        queryClient.invalidateQueries({ queryKey: ['/api/contracts'] }),
        queryClient.invalidateQueries({ queryKey: ['/api/customers'] }),
      ]);
    },
    onError: (error) => {
      toastError('Failed to create the contract', error);
    },
  });
}
