import { Download } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { type ReceiptOf, useDownloadReceiptPdf } from '../api/download-receipt-pdf';

/** Downloads a payment's receipt as a PDF (the one the payer gets from the success page). */
export function ReceiptButton({ receipt, label = 'Receipt' }: { receipt: ReceiptOf; label?: string }) {
  const download = useDownloadReceiptPdf();
  return (
    <Button
      variant="outline"
      size="sm"
      disabled={download.isPending}
      onClick={() => download.mutate(receipt)}
      aria-label={`Download the receipt for ${receipt.invoiceNumber}`}
    >
      <Download aria-hidden /> {download.isPending ? 'Preparing...' : label}
    </Button>
  );
}
