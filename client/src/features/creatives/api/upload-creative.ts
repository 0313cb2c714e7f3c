import type { Creative } from '@shared/contracts/creatives';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, TOKEN_KEY } from '@/lib/api-client';
import { CLIENT_CREATIVES_KEY } from './get-client-creatives';
import { contractCreativesKey } from './get-contract-creatives';

export type UploadInput = { contractId: string; file: File; onProgress?: (fraction: number) => void };

/**
 * Uploads one creative as multipart/form-data. XMLHttpRequest rather than fetch, for its upload progress
 * events (the progress bar). Errors come back as ApiError, like every other call.
 */
export function uploadCreative({ contractId, file, onProgress }: UploadInput): Promise<Creative> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/client/creatives');
    xhr.withCredentials = true;
    const token = localStorage.getItem(TOKEN_KEY);
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress?.(event.loaded / event.total);
    };
    xhr.onload = () => {
      const text = xhr.responseText || xhr.statusText;
      let body: Record<string, unknown> | null = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = null;
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as unknown as Creative);
      else reject(new ApiError(xhr.status, text, body));
    };
    xhr.onerror = () => reject(new Error('The upload failed: the connection was interrupted.'));
    const form = new FormData();
    form.append('contractId', contractId);
    form.append('file', file, file.name);
    xhr.send(form);
  });
}

export function useUploadCreative() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadCreative,
    onSuccess: (creative) => {
      void queryClient.invalidateQueries({ queryKey: CLIENT_CREATIVES_KEY });
      void queryClient.invalidateQueries({ queryKey: contractCreativesKey(creative.contractId) });
    },
  });
}
