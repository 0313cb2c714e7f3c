import type { User } from '@shared/contracts/auth';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';
import { usersQueryKey } from './get-users';

export type DeleteUserTarget = Pick<User, 'id' | 'firstName' | 'lastName'>;

export const deleteUser = (user: DeleteUserTarget) => api<{ message: string }>('DELETE', `/api/users/${user.id}`);

export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteUser,
    onSuccess: (_result, user) => {
      toast({ title: 'User deleted', description: `${user.firstName} ${user.lastName} has been removed.` });
      return queryClient.invalidateQueries({ queryKey: usersQueryKey });
    },
    onError: (error) => {
      toastError('Failed to delete user', error, 'There was an error deleting the user.');
    },
  });
}
