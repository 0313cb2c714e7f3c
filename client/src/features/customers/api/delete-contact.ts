import type { Contact } from '@shared/contracts/contacts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';
import { customerContactsQueryKey } from './get-customer-contacts';

export const deleteContact = (contact: Pick<Contact, 'id' | 'customerId'>) =>
  api<{ message: string }>(
    'DELETE',
    `/api/customers/${encodeURIComponent(contact.customerId)}/contacts/${encodeURIComponent(contact.id)}`,
  );

export function useDeleteContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (contact: Pick<Contact, 'id' | 'customerId' | 'name'>) => deleteContact(contact),
    onSuccess: (_result, contact) => {
      toast({ title: 'Contact deleted', description: `${contact.name} has been removed.` });
      return queryClient.invalidateQueries({ queryKey: customerContactsQueryKey(contact.customerId) });
    },
    onError: (error) => {
      toastError('Failed to delete the contact', error);
    },
  });
}
