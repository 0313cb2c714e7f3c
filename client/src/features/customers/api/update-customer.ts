import type { Customer, UpdateCustomerInput } from '@shared/contracts/customers';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';
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
      toastError('Failed to update customer', error);
    },
  });
}
