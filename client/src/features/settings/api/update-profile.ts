import type { User } from '@shared/contracts/auth';
import type { ProfileInput } from '@shared/contracts/settings';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { meQueryKey } from '@/features/auth/api/me';
import { api } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';

export const updateProfile = (input: ProfileInput) => api<User>('PUT', '/api/profile', input);

/** Saves the caller's name and email, then refetches the current user (the header shows them). */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: () => {
      toast({ title: 'Profile updated', description: 'Your profile information has been saved.' });
      return queryClient.invalidateQueries({ queryKey: meQueryKey });
    },
    onError: (error) => {
      toastError('Update failed', error, 'Failed to update profile. Please try again.');
    },
  });
}
