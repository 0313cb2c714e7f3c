import type { Customer, UpdateCustomerInput } from '@shared/contracts/customers';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api, errorMessage } from '@/lib/api-client';
import { customersQueryKey } from './get-customers';

export const updateCustomer = ({ id, input }: { id: string; input: UpdateCustomerInput }) =>
  api<Customer>('PATCH', `/api/customers/${encodeURIComponent(id)}`, input);

export function useUpdateCustomer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateCustomer,
    onSuccess: (customer) => {
      toast({ title: 'Customer updated', description: `${customer.name}'s details have been saved.` });
      return queryClient.invalidateQueries({ queryKey: customersQueryKey });
    },
    onError: (error) => {
      toast({
        variant: 'destructive',
        title: 'Failed to update customer',
        description: errorMessage(error, 'Please try again'),
      });
    },
  });
}
