import { apiFetch } from './api-client';

/** How a download is named: always `name`, or the server's name (Content-Disposition) else `fallbackName`. */
export type DownloadName = { name: string } | { fallbackName: string };

/**
 * The file name a Content-Disposition header gives: the exact one (`filename*=UTF-8''...`, RFC 5987) when
 * present, else the plain `filename="..."`; `fallback` when it gives neither or its encoding is broken.
 */
export function fileNameFromDisposition(header: string | null, fallback: string): string {
  const value = header ?? '';
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(value)?.[1];
  if (encoded !== undefined) {
    try {
      return decodeURIComponent(encoded);
    } catch {
      return fallback;
    }
  }
  return /filename="([^"]+)"/.exec(value)?.[1] ?? fallback;
}

/**
 * Fetches a file with the caller's credentials (the bearer token or the session cookie, lib/api-client.ts)
 * and saves it; a refused request throws the API's error. Answers the name it was saved under.
 */
export async function downloadFile(path: string, naming: DownloadName): Promise<string> {
  const response = await apiFetch('GET', path);
  const name =
    'name' in naming
      ? naming.name
      : fileNameFromDisposition(response.headers.get('Content-Disposition'), naming.fallbackName);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return name;
}
