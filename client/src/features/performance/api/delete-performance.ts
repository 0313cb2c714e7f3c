import { formatMonth } from '@shared/contracts/performance-vocabulary';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api, errorMessage } from '@/lib/api-client';
import { contractPerformanceKey } from './get-contract-performance';

export const deletePerformance = ({ contractId, month }: { contractId: string; month: string }) =>
  api<{ message: string }>(
    'DELETE',
    `/api/contracts/${encodeURIComponent(contractId)}/performance/${encodeURIComponent(month)}`,
  );

export function useDeletePerformance() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deletePerformance,
    onSuccess: (_result, { contractId, month }) => {
      toast({ title: 'Figures deleted', description: formatMonth(month) });
      void queryClient.invalidateQueries({ queryKey: contractPerformanceKey(contractId) });
    },
    onError: (error) =>
      toast({
        variant: 'destructive',
        title: 'Failed to delete the figures',
        description: errorMessage(error, 'Please try again'),
      }),
  });
}
