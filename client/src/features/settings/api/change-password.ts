import type { PasswordChangeInput } from '@shared/contracts/settings';
import { useMutation } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';

export const changePassword = (input: PasswordChangeInput) =>
  api<{ message: string }>('PUT', '/api/profile/password', input);

/** Changes the caller's password; the server keeps this session and signs out the others. */
export function useChangePassword() {
  return useMutation({
    mutationFn: changePassword,
    onSuccess: () => {
      toast({ title: 'Password changed', description: 'Use your new password the next time you sign in.' });
    },
    onError: (error) => {
      toastError('Password change failed', error, 'Failed to change password. Please try again.');
    },
  });
}
