import { Download } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { useDownloadCreditNotePdf } from '../api/download-credit-note-pdf';

/** Downloads a credit note's PDF. */
export function CreditNotePdfButton({ note, label = 'PDF' }: { note: { id: string; number: string }; label?: string }) {
  const download = useDownloadCreditNotePdf();
  return (
    <Button
      variant="outline"
      size="sm"
      disabled={download.isPending}
      onClick={() => download.mutate(note)}
      aria-label={`Download ${note.number} as PDF`}
    >
      <Download aria-hidden /> {download.isPending ? 'Preparing...' : label}
    </Button>
  );
}
