import { useMutation } from '@tanstack/react-query';
import { downloadFile } from '@/lib/download';
import { toastError } from '@/lib/toast-error';

/** Fetches the invoice PDF with the caller's credentials and saves it as <number>.pdf. */
export async function downloadInvoicePdf(invoice: { id: string; number: string }): Promise<void> {
  await downloadFile(`/api/invoices/${encodeURIComponent(invoice.id)}/pdf`, { name: `${invoice.number}.pdf` });
}

export function useDownloadInvoicePdf() {
  return useMutation({
    mutationFn: downloadInvoicePdf,
    onError: (error) => {
      toastError('Failed to download the PDF', error);
    },
  });
}
