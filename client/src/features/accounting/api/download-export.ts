import type { AccountingExport } from '@shared/contracts/accounting-vocabulary';
import { useMutation } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api-client';
import { downloadFile } from '@/lib/download';

/** GET /api/accounting/exports/{id}/file: the batch's file, the same bytes on every download. */
export function downloadExport(batch: Pick<AccountingExport, 'id' | 'fileName'>) {
  return downloadFile(`/api/accounting/exports/${batch.id}/file`, { fallbackName: batch.fileName });
}

export function useDownloadExport() {
  return useMutation({
    mutationFn: downloadExport,
    onError: (error) => {
      toast({ variant: 'destructive', title: 'Download failed', description: errorMessage(error, 'Please try again') });
    },
  });
}
