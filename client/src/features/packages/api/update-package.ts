import type { Package, PackagePayload } from '@shared/contracts/packages';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';
import { packagesQueryKey } from './get-packages';

/** PUT replaces the package, its items included. */
export const updatePackage = ({ id, input }: { id: string; input: PackagePayload }) =>
  api<Package>('PUT', `/api/packages/${encodeURIComponent(id)}`, input);

export function useUpdatePackage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePackage,
    onSuccess: (pkg) => {
      toast({ title: 'Package updated', description: `${pkg.name} has been saved.` });
      return queryClient.invalidateQueries({ queryKey: packagesQueryKey });
    },
    onError: (error) => {
      toastError('Failed to update package', error);
    },
  });
}
