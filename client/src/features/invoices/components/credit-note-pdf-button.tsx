import { useDownloadCreditNotePdf } from '../api/download-credit-note-pdf';
import { DocumentPdfButton, type PdfDocument } from './pdf-button';

/** Downloads a credit note's PDF. */
export function CreditNotePdfButton({ note, label }: { note: PdfDocument; label?: string }) {
  const download = useDownloadCreditNotePdf();
  return <DocumentPdfButton document={note} download={download} label={label} />;
}
