import type { CommissionStatus } from '@shared/contracts/commissions';
import { useMutation } from '@tanstack/react-query';
import { withQuery } from '@/lib/api-client';
import { downloadFile } from '@/lib/download';
import { toastError } from '@/lib/toast-error';

/** GET /api/commissions/export: the filtered history as a CSV file download (named by the server). */
export function downloadCommissionsCsv(filter: { status: CommissionStatus | 'all'; repId?: string }) {
  return downloadFile(withQuery('/api/commissions/export', filter), { fallbackName: 'commissions.csv' });
}

export function useExportCommissions() {
  return useMutation({
    mutationFn: downloadCommissionsCsv,
    onError: (error) => {
      toastError('Export failed', error);
    },
  });
}
