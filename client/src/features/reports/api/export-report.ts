import type { ReportRange } from '@shared/contracts/reports';
import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';

/** GET /api/reports/export as a file download (the server names it in Content-Disposition). */
export async function downloadReportCsv(range: ReportRange): Promise<string> {
  const response = await apiFetch('GET', `/api/reports/export?range=${range}`);
  const blob = await response.blob();
  const name =
    /filename="([^"]+)"/.exec(response.headers.get('Content-Disposition') ?? '')?.[1] ?? `report-${range}.csv`;
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
  return name;
}

export function useExportReport() {
  return useMutation({ mutationFn: downloadReportCsv });
}
