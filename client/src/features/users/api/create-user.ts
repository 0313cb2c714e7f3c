import type { User } from '@shared/contracts/auth';
import type { CreateUserInput } from '@shared/contracts/users';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';
import { usersQueryKey } from './get-users';

export const createUser = (input: CreateUserInput) => api<User>('POST', '/api/users', input);

export function useCreateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createUser,
    onSuccess: (user) => {
      toast({ title: 'User created', description: `${user.firstName} ${user.lastName} has been added.` });
      return queryClient.invalidateQueries({ queryKey: usersQueryKey });
    },
    onError: (error) => {
      toastError('Failed to create user', error);
    },
  });
}
