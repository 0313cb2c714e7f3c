import { useMutation } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { apiFetch, errorMessage } from '@/lib/api-client';

/** Fetches the invoice PDF with the caller's credentials and saves it as <number>.pdf. */
export async function downloadInvoicePdf(invoice: { id: string; number: string }): Promise<void> {
  const response = await apiFetch('GET', `/api/invoices/${encodeURIComponent(invoice.id)}/pdf`);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = `${invoice.number}.pdf`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
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
