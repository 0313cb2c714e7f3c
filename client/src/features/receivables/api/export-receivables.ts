import { useMutation } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { errorMessage, withQuery } from '@/lib/api-client';
import { downloadFile } from '@/lib/download';
import { type ReceivablesFilter, receivablesParams } from './get-receivables';

/** GET /api/receivables/export: the filtered customers as a CSV file download (named by the server). */
export function downloadReceivablesCsv(filter: ReceivablesFilter) {
  return downloadFile(withQuery('/api/receivables/export', receivablesParams(filter)), {
    fallbackName: 'receivables.csv',
  });
}

export function useExportReceivables() {
  return useMutation({
    mutationFn: downloadReceivablesCsv,
    onError: (error) => {
      toast({ variant: 'destructive', title: 'Export failed', description: errorMessage(error, 'Please try again') });
    },
  });
}
