import type { CommissionStatus } from '@shared/contracts/commissions';
import { useMutation } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { apiFetch, errorMessage, withQuery } from '@/lib/api-client';

/** GET /api/commissions/export: the filtered history as a CSV file download (named by the server). */
export async function downloadCommissionsCsv(filter: { status: CommissionStatus | 'all'; repId?: string }) {
  const response = await apiFetch('GET', withQuery('/api/commissions/export', filter));
  const blob = await response.blob();
  const name = /filename="([^"]+)"/.exec(response.headers.get('Content-Disposition') ?? '')?.[1] ?? 'commissions.csv';
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return name;
}

export function useExportCommissions() {
  return useMutation({
    mutationFn: downloadCommissionsCsv,
    onError: (error) => {
      toast({ variant: 'destructive', title: 'Export failed', description: errorMessage(error, 'Please try again') });
    },
  });
}
