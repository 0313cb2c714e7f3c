import type { Product, ProductPayload } from '@shared/contracts/products';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';
import { productsQueryKey } from './get-products';

export const updateProduct = ({ id, input }: { id: string; input: ProductPayload }) =>
  api<Product>('PATCH', `/api/products/${encodeURIComponent(id)}`, input);

export function useUpdateProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProduct,
    onSuccess: (product) => {
      toast({ title: 'Product updated', description: `${product.name} has been saved.` });
      // Packages show their items' products, so they refresh too.
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: productsQueryKey }),
        queryClient.invalidateQueries({ queryKey: ['/api/packages'] }),
      ]);
    },
    onError: (error) => {
      toastError('Failed to update product', error);
    },
  });
}
