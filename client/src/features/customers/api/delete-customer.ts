import type { Customer } from '@shared/contracts/customers';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';
import { customersQueryKey } from './get-customers';

export const deleteCustomer = (customer: Pick<Customer, 'id'>) =>
  api<{ message: string }>('DELETE', `/api/customers/${encodeURIComponent(customer.id)}`);

/** A customer with contracts is refused (409); the toast carries the server's reason. */
export function useDeleteCustomer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (customer: Pick<Customer, 'id' | 'name'>) => deleteCustomer(customer),
    onSuccess: (_result, customer) => {
      toast({ title: 'Customer deleted', description: `${customer.name} has been removed.` });
      return queryClient.invalidateQueries({ queryKey: customersQueryKey });
    },
    onError: (error) => {
      toastError('Failed to delete customer', error);
    },
  });
}
