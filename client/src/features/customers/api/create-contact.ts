import type { Contact, ContactInput } from '@shared/contracts/contacts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';
import { customerContactsQueryKey } from './get-customer-contacts';

export const createContact = ({ customerId, input }: { customerId: string; input: ContactInput }) =>
  api<Contact>('POST', `/api/customers/${encodeURIComponent(customerId)}/contacts`, input);

export function useCreateContact(customerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ContactInput) => createContact({ customerId, input }),
    onSuccess: (contact) => {
      toast({ title: 'Contact added', description: contact.name });
      return queryClient.invalidateQueries({ queryKey: customerContactsQueryKey(customerId) });
    },
    onError: (error) => {
      toastError('Failed to add the contact', error);
    },
  });
}
