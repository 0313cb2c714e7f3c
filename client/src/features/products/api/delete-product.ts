import type { DeleteProductResult, Product } from '@shared/contracts/products';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';
import { productsQueryKey } from './get-products';

export const deleteProduct = (product: Pick<Product, 'id'>) =>
  api<DeleteProductResult>('DELETE', `/api/products/${encodeURIComponent(product.id)}`);

/**
 * The server decides: an unused product is deleted; one a contract or package uses is archived instead,
 * and its message says why.
 */
export function useDeleteProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (product: Pick<Product, 'id' | 'name'>) => deleteProduct(product),
    onSuccess: (result, product) => {
      toast(
        result.archived
          ? { title: 'Product archived', description: result.message }
          : { title: 'Product deleted', description: `${product.name} has been removed from the catalog.` },
      );
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: productsQueryKey }),
        queryClient.invalidateQueries({ queryKey: ['/api/packages'] }),
      ]);
    },
    onError: (error) => {
      toastError('Failed to delete product', error);
    },
  });
}
