import type { AccountingExport } from '@shared/contracts/accounting-vocabulary';
import { useMutation } from '@tanstack/react-query';
import { downloadFile } from '@/lib/download';
import { toastError } from '@/lib/toast-error';

export type ExportFileRequest = { batch: Pick<AccountingExport, 'id'>; part: AccountingExport['parts'][number] };

/** GET /api/accounting/exports/{id}/file?part=N: one part's file, the same bytes on every download. */
export function downloadExport({ batch, part }: ExportFileRequest) {
  return downloadFile(`/api/accounting/exports/${batch.id}/file?part=${part.part}`, { fallbackName: part.fileName });
}

export function useDownloadExport() {
  return useMutation({
    mutationFn: downloadExport,
    onError: (error) => {
      toastError('Download failed', error);
    },
  });
}
