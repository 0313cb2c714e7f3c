import type { Package, PackagePayload } from '@shared/contracts/packages';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';
import { packagesQueryKey } from './get-packages';

export const createPackage = (input: PackagePayload) => api<Package>('POST', '/api/packages', input);

export function useCreatePackage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createPackage,
    onSuccess: (pkg) => {
      toast({ title: 'Package created', description: `${pkg.name} is ready to use on contracts.` });
      return queryClient.invalidateQueries({ queryKey: packagesQueryKey });
    },
    onError: (error) => {
      toastError('Failed to create package', error);
    },
  });
}
