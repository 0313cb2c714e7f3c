import { useMutation } from '@tanstack/react-query';
import { downloadFile } from '@/lib/download';
import { toastError } from '@/lib/toast-error';

/** Which receipt: an invoice's latest payment's, or the payment named. */
export type ReceiptOf = { invoiceId: string; invoiceNumber: string; paymentId?: string };

/** Fetches a payment's receipt PDF with the caller's credentials and saves it as receipt-<invoice number>.pdf. */
export async function downloadReceiptPdf(receipt: ReceiptOf): Promise<void> {
  const query = receipt.paymentId ? `?payment=${encodeURIComponent(receipt.paymentId)}` : '';
  await downloadFile(`/api/invoices/${encodeURIComponent(receipt.invoiceId)}/receipt${query}`, {
    name: `receipt-${receipt.invoiceNumber}.pdf`,
  });
}

export function useDownloadReceiptPdf() {
  return useMutation({
    mutationFn: downloadReceiptPdf,
    onError: (error) => {
      toastError('Failed to download the receipt', error);
    },
  });
}
