import { useMutation } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { apiFetch, errorMessage } from '@/lib/api-client';

/** Fetches a PDF with the caller's credentials and saves it under `fileName`. */
export async function savePdf(path: string, fileName: string): Promise<void> {
  const response = await apiFetch('GET', path);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Fetches the invoice PDF with the caller's credentials and saves it as <number>.pdf. */
export function downloadInvoicePdf(invoice: { id: string; number: string }): Promise<void> {
  return savePdf(`/api/invoices/${encodeURIComponent(invoice.id)}/pdf`, `${invoice.number}.pdf`);
}

export function useDownloadInvoicePdf() {
  return useMutation({
    mutationFn: downloadInvoicePdf,
    onError: (error) => {
      toast({
        variant: 'destructive',
        title: 'Failed to download the PDF',
        description: errorMessage(error, 'Please try again'),
      });
    },
  });
}
