import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import { toast } from '@/components/ui/use-toast';
import { api, TOKEN_KEY } from '@/lib/api-client';
import { clearSignedInData, forgetEndedSession } from '../session';

/** Removes the stored token first, then tells the server; all cached data is cleared. */
export function useLogout() {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const signedOut = () => {
    forgetEndedSession();
    clearSignedInData(queryClient);
  };
  return useMutation({
    mutationFn: async () => {
      localStorage.removeItem(TOKEN_KEY);
      await api('POST', '/api/auth/logout');
    },
    onSuccess: () => {
      signedOut();
      navigate('/');
    },
    onError: () => {
      signedOut();
      toast({ variant: 'destructive', title: 'Logout failed', description: 'There was an error logging out' });
    },
  });
}
