import { Download } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { useDownloadInvoicePdf } from '../api/download-invoice-pdf';

/** Downloads the invoice's PDF. */
export function PdfButton({ invoice, label = 'PDF' }: { invoice: { id: string; number: string }; label?: string }) {
  const download = useDownloadInvoicePdf();
  return (
    <Button
      variant="outline"
      size="sm"
      disabled={download.isPending}
      onClick={() => download.mutate(invoice)}
      aria-label={`Download ${invoice.number} as PDF`}
    >
      <Download aria-hidden /> {download.isPending ? 'Preparing...' : label}
    </Button>
  );
}
