import { useMutation } from '@tanstack/react-query';
import { downloadFile } from '@/lib/download';
import { toastError } from '@/lib/toast-error';

/** Fetches the credit note's PDF with the caller's credentials and saves it as <number>.pdf. */
export async function downloadCreditNotePdf(note: { id: string; number: string }): Promise<void> {
  await downloadFile(`/api/credit-notes/${encodeURIComponent(note.id)}/pdf`, { name: `${note.number}.pdf` });
}

export function useDownloadCreditNotePdf() {
  return useMutation({
    mutationFn: downloadCreditNotePdf,
    onError: (error) => {
      toastError('Failed to download the PDF', error);
    },
  });
}
