import { useMutation } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api-client';
import { downloadFile } from '@/lib/download';

/** Fetches the credit note's PDF with the caller's credentials and saves it as <number>.pdf. */
export async function downloadCreditNotePdf(note: { id: string; number: string }): Promise<void> {
  await downloadFile(`/api/credit-notes/${encodeURIComponent(note.id)}/pdf`, { name: `${note.number}.pdf` });
}

export function useDownloadCreditNotePdf() {
  return useMutation({
    mutationFn: downloadCreditNotePdf,
    onError: (error) => {
      toast({
        variant: 'destructive',
        title: 'Failed to download the PDF',
        description: errorMessage(error, 'Please try again'),
      });
    },
  });
}
