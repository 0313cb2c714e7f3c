import type { CreateCustomerInput, Customer } from '@shared/contracts/customers';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';
import { customersQueryKey } from './get-customers';

export const createCustomer = (input: CreateCustomerInput) => api<Customer>('POST', '/api/customers', input);

export function useCreateCustomer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createCustomer,
    onSuccess: (customer) => {
      toast({ title: 'Customer created', description: `${customer.name} has been added to your customers.` });
      return queryClient.invalidateQueries({ queryKey: customersQueryKey });
    },
    onError: (error) => {
      toastError('Failed to create customer', error);
    },
  });
}
