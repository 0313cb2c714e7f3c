import { useMutation } from '@tanstack/react-query';
import { withQuery } from '@/lib/api-client';
import { downloadFile } from '@/lib/download';
import { toastError } from '@/lib/toast-error';
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
      toastError('Export failed', error);
    },
  });
}
