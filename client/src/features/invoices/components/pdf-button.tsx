import type { UseMutationResult } from '@tanstack/react-query';
import { Download } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { useDownloadInvoicePdf } from '../api/download-invoice-pdf';

/** A document with a PDF: an invoice or a credit note, saved as <number>.pdf. */
export type PdfDocument = { id: string; number: string };

/** Downloads a document's PDF with the download given (the invoice's or the credit note's). */
export function DocumentPdfButton({
  document,
  download,
  label = 'PDF',
}: {
  document: PdfDocument;
  download: UseMutationResult<void, Error, PdfDocument>;
  label?: string;
}) {
  return (
    <Button
      variant="outline"
      size="sm"
      disabled={download.isPending}
      onClick={() => download.mutate(document)}
      aria-label={`Download ${document.number} as PDF`}
    >
      <Download aria-hidden /> {download.isPending ? 'Preparing...' : label}
    </Button>
  );
}

/** Downloads the invoice's PDF. */
export function PdfButton({ invoice, label }: { invoice: PdfDocument; label?: string }) {
  const download = useDownloadInvoicePdf();
  return <DocumentPdfButton document={invoice} download={download} label={label} />;
}
