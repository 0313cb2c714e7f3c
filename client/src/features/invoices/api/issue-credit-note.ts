import type { CreditNote } from '@shared/contracts/credit-notes';
import { formatAmount } from '@shared/money';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';
import { refreshInvoiceData } from './get-invoices';

/** The body in dollars, as the route takes it. */
export type IssueCreditNoteBody = { amount: number; reason: string };

/** A partial credit note on an invoice, with a reason (at most what remains to credit on it). */
export const issueCreditNote = ({ invoiceId, input }: { invoiceId: string; input: IssueCreditNoteBody }) =>
  api<CreditNote>('POST', `/api/invoices/${encodeURIComponent(invoiceId)}/credit-notes`, input);

export function useIssueCreditNote() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: issueCreditNote,
    onSuccess: (note) => {
      toast({
        title: 'Credit note issued',
        description:
          note.toCreditBalance > 0
            ? `${note.number} credits ${formatAmount(note.amount)} on ${note.invoiceNumber}; ${formatAmount(note.toCreditBalance)} went to the customer's credit balance.`
            : `${note.number} credits ${formatAmount(note.amount)} on ${note.invoiceNumber}.`,
      });
      return refreshInvoiceData(queryClient);
    },
    onError: (error) => {
      toastError('Failed to issue credit note', error);
    },
  });
}
