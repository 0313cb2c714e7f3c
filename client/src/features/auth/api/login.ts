import type { LoginInput, LoginResponse } from '@shared/contracts/auth';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import { toast } from '@/components/ui/use-toast';
import { api, forgetEarlyResponses, TOKEN_KEY } from '@/lib/api-client';
import { PRODUCT_NAME } from '@/lib/paths';
import { toastError } from '@/lib/toast-error';
import { takeReturnPath } from '../session';
import { meQueryKey } from './me';

export function useLogin() {
  const queryClient = useQueryClient();
  const [location, navigate] = useLocation();
  return useMutation({
    mutationFn: (input: LoginInput) => api<LoginResponse>('POST', '/api/auth/login', input),
    onSuccess: async (response) => {
      if (response?.token) localStorage.setItem(TOKEN_KEY, response.token);
      // Nothing index.html asked for before this sign-in is handed to the user signing in.
      forgetEarlyResponses();
      // After a session ended: back to where the user was (someone else starts on the dashboard).
      const returnTo = response?.user ? takeReturnPath(response.user) : null;
      if (returnTo && returnTo !== location) navigate(returnTo);
      await queryClient.invalidateQueries({ queryKey: meQueryKey });
      toast({ title: 'Login successful', description: `Welcome to ${PRODUCT_NAME}!` });
    },
    onError: (error) => {
      toastError('Login failed', error, 'Invalid email or password');
    },
  });
}
