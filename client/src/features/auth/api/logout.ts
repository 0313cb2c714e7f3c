import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import { toast } from '@/components/ui/use-toast';
import { api, TOKEN_KEY } from '@/lib/api-client';
import { meQueryKey } from './me';

/** Removes the stored token first, then tells the server; all cached data is cleared. */
export function useLogout() {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  // The current-user query is set to null in place (its mounted observer must see it, so it is not
  // removed); every other cached query is dropped so nothing of this user stays in memory.
  const signedOut = () => {
    queryClient.setQueryData(meQueryKey, null);
    queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== meQueryKey[0] });
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
