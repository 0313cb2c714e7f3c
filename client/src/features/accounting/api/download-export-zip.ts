import type { AccountingExport } from '@shared/contracts/accounting-vocabulary';
import { useMutation } from '@tanstack/react-query';
import { downloadFile } from '@/lib/download';
import { toastError } from '@/lib/toast-error';

/** GET /api/accounting/exports/{id}/zip: every part of a batch in one zip. */
export function downloadExportZip(batch: Pick<AccountingExport, 'id' | 'number' | 'format'>) {
  return downloadFile(`/api/accounting/exports/${batch.id}/zip`, {
    fallbackName: `${batch.number}-${batch.format}.zip`,
  });
}

export function useDownloadExportZip() {
  return useMutation({
    mutationFn: downloadExportZip,
    onError: (error) => {
      toastError('Download failed', error);
    },
  });
}
