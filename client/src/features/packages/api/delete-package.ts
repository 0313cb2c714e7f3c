import type { Package } from '@shared/contracts/packages';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';
import { packagesQueryKey } from './get-packages';

export const deletePackage = (pkg: Pick<Package, 'id'>) =>
  api<{ message: string }>('DELETE', `/api/packages/${encodeURIComponent(pkg.id)}`);

/** A package that contracts use is refused (409); the toast carries the server's reason. */
export function useDeletePackage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (pkg: Pick<Package, 'id' | 'name'>) => deletePackage(pkg),
    onSuccess: (_result, pkg) => {
      toast({ title: 'Package deleted', description: `${pkg.name} has been removed.` });
      return queryClient.invalidateQueries({ queryKey: packagesQueryKey });
    },
    onError: (error) => {
      toastError('Failed to delete package', error);
    },
  });
}
