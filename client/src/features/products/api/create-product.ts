import type { Product, ProductPayload } from '@shared/contracts/products';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api, errorMessage } from '@/lib/api-client';
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
      toast({
        variant: 'destructive',
        title: 'Failed to create product',
        description: errorMessage(error, 'Please try again'),
      });
    },
  });
}
