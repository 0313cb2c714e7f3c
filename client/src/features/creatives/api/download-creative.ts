import type { Creative } from '@shared/contracts/creatives';
import { useMutation } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api-client';
import { downloadFile } from '@/lib/download';

/** Fetches the creative with the caller's credentials and saves it under the server's name (else its own). */
export async function downloadCreative(creative: Pick<Creative, 'id' | 'originalName'>): Promise<void> {
  await downloadFile(`/api/creatives/${encodeURIComponent(creative.id)}/download`, {
    fallbackName: creative.originalName,
  });
}

export function useDownloadCreative() {
  return useMutation({
    mutationFn: downloadCreative,
    onError: (error) =>
      toast({
        variant: 'destructive',
        title: 'Failed to download the creative',
        description: errorMessage(error, 'Please try again'),
      }),
  });
}
