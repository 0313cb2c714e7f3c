import type { PerformanceBody, PerformanceEntry } from '@shared/contracts/performance';
import { formatMonth } from '@shared/contracts/performance-vocabulary';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api, errorMessage } from '@/lib/api-client';
import { contractPerformanceKey } from './get-contract-performance';

export type SavePerformanceInput = { contractId: string; month: string; figures: PerformanceBody };

/** Enters (or replaces) a month's figures. */
export const savePerformance = ({ contractId, month, figures }: SavePerformanceInput) =>
  api<PerformanceEntry>(
    'PUT',
    `/api/contracts/${encodeURIComponent(contractId)}/performance/${encodeURIComponent(month)}`,
    figures,
  );

export function useSavePerformance() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: savePerformance,
    onSuccess: (entry) => {
      toast({ title: 'Figures saved', description: formatMonth(entry.month) });
      void queryClient.invalidateQueries({ queryKey: contractPerformanceKey(entry.contractId) });
    },
    onError: (error) =>
      toast({
        variant: 'destructive',
        title: 'Failed to save the figures',
        description: errorMessage(error, 'Please try again'),
      }),
  });
}
