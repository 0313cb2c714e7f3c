import type { Creative } from '@shared/contracts/creatives';
import { useMutation } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { apiFetch, errorMessage } from '@/lib/api-client';

/** The file name the server gives (filename*), else the original name. */
function fileNameOf(response: Response, fallback: string): string {
  const header = response.headers.get('Content-Disposition') ?? '';
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(header)?.[1];
  if (encoded) {
    try {
      return decodeURIComponent(encoded);
    } catch {
      return fallback;
    }
  }
  return fallback;
}

/** Fetches the creative with the caller's credentials and saves it. */
export async function downloadCreative(creative: Pick<Creative, 'id' | 'originalName'>): Promise<void> {
  const response = await apiFetch('GET', `/api/creatives/${encodeURIComponent(creative.id)}/download`);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = fileNameOf(response, creative.originalName);
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
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
