import { useMutation } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';

/** E-mails the latest receipt again; 409 while no payment has been received. */
export const resendReceipt = (id: string) =>
  api<{ message?: string } | null>('POST', `/api/contracts/${encodeURIComponent(id)}/resend-receipt`);

export function useResendReceipt() {
  return useMutation({
    mutationFn: (id: string) => resendReceipt(id),
    onSuccess: (result) => {
      toast({
        title: 'Receipt sent',
        description: result?.message ?? 'The latest receipt was e-mailed to the customer.',
      });
    },
    onError: (error) => {
      toastError('Error sending receipt', error, 'Failed to send receipt email');
    },
  });
}
