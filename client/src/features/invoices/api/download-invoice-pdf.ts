import { useMutation } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api-client';
import { downloadFile } from '@/lib/download';

/** Fetches the invoice PDF with the caller's credentials and saves it as <number>.pdf. */
export async function downloadInvoicePdf(invoice: { id: string; number: string }): Promise<void> {
  await downloadFile(`/api/invoices/${encodeURIComponent(invoice.id)}/pdf`, { name: `${invoice.number}.pdf` });
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
