import type { Creative } from '@shared/contracts/creatives';
import { useMutation } from '@tanstack/react-query';
import { downloadFile } from '@/lib/download';
import { toastError } from '@/lib/toast-error';

/** Fetches the creative with the caller's credentials and saves it under the server's name (else its own). */
export async function downloadCreative(creative: Pick<Creative, 'id' | 'originalName'>): Promise<void> {
  await downloadFile(`/api/creatives/${encodeURIComponent(creative.id)}/download`, {
    fallbackName: creative.originalName,
  });
}

export function useDownloadCreative() {
  return useMutation({
    mutationFn: downloadCreative,
    onError: (error) => toastError('Failed to download the creative', error),
  });
}
