import { COMPANY_LOGO_PATH, type CompanyLogoInfo } from '@shared/contracts/company-vocabulary';
import { useMutation } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { ApiError, TOKEN_KEY } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';

/** Sends the logo as a multipart form with one `file`; the server reads its type from its content. */
export async function uploadCompanyLogo(file: File): Promise<CompanyLogoInfo> {
  const form = new FormData();
  form.append('file', file, file.name);
  const token = localStorage.getItem(TOKEN_KEY);
  const response = await fetch(COMPANY_LOGO_PATH, {
    method: 'PUT',
    body: form,
    credentials: 'include',
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
  const text = await response.text();
  let body: Record<string, unknown> | null = null;
  try {
    body = JSON.parse(text);
  } catch {
    body = null;
  }
  if (!response.ok) throw new ApiError(response.status, text || response.statusText, body);
  return body as unknown as CompanyLogoInfo;
}

/** The logo's address with its fingerprint, so that a new logo is fetched at once. */
export const companyLogoUrl = (sha256: string | null) =>
  sha256 ? `${COMPANY_LOGO_PATH}?v=${sha256.slice(0, 12)}` : COMPANY_LOGO_PATH;

export function useUploadCompanyLogo() {
  return useMutation({
    mutationFn: uploadCompanyLogo,
    onSuccess: () => toast({ title: 'Logo uploaded', description: 'Documents made from now on carry it.' }),
    onError: (error) => toastError('Failed to upload the logo', error),
  });
}
