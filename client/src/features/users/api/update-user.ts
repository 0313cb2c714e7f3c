import type { User } from '@shared/contracts/auth';
import type { UpdateUserInput } from '@shared/contracts/users';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';
import { usersQueryKey } from './get-users';

export const updateUser = ({ id, input }: { id: string; input: UpdateUserInput }) =>
  api<User>('PATCH', `/api/users/${id}`, input);

export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateUser,
    onSuccess: (user) => {
      toast({ title: 'User updated', description: `${user.firstName} ${user.lastName}'s account has been saved.` });
      return queryClient.invalidateQueries({ queryKey: usersQueryKey });
    },
    onError: (error) => {
      toastError('Failed to update user', error);
    },
  });
}
