import type { AccessLinkResponse } from '@shared/contracts/invitations';
import { useMutation } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';

/** E-mails the user a single-use set-password link (72 hours); their password stays until they use it. */
export const sendPasswordReset = (userId: string) =>
  api<AccessLinkResponse>('POST', `/api/users/${encodeURIComponent(userId)}/send-password-reset`);

export function useSendPasswordReset() {
  return useMutation({
    mutationFn: sendPasswordReset,
    onSuccess: (result) => toast({ title: 'Password reset sent', description: result.message }),
    onError: (error) => toastError('Failed to send password reset', error),
  });
}
