import type { Product, ProductPayload } from '@shared/contracts/products';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';
import { productsQueryKey } from './get-products';

export const createProduct = (input: ProductPayload) => api<Product>('POST', '/api/products', input);

export function useCreateProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createProduct,
    onSuccess: (product) => {
      toast({ title: 'Product created', description: `${product.name} has been added to the catalog.` });
      return queryClient.invalidateQueries({ queryKey: productsQueryKey });
    },
    onError: (error) => {
      toastError('Failed to create product', error);
    },
  });
}
