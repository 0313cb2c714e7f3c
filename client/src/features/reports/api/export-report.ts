import type { ReportRange } from '@shared/contracts/reports';
import { useMutation } from '@tanstack/react-query';
import { downloadFile } from '@/lib/download';

/** GET /api/reports/export as a file download (the server names it in Content-Disposition). */
export function downloadReportCsv(range: ReportRange): Promise<string> {
  return downloadFile(`/api/reports/export?range=${range}`, { fallbackName: `report-${range}.csv` });
}

export function useExportReport() {
  return useMutation({ mutationFn: downloadReportCsv });
}
