import type { Contact, ContactInput } from '@shared/contracts/contacts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';
import { customerContactsQueryKey } from './get-customer-contacts';

export type ContactChanges = Partial<ContactInput>;

export const updateContact = ({
  customerId,
  contactId,
  changes,
}: {
  customerId: string;
  contactId: string;
  changes: ContactChanges;
}) =>
  api<Contact>(
    'PATCH',
    `/api/customers/${encodeURIComponent(customerId)}/contacts/${encodeURIComponent(contactId)}`,
    changes,
  );

/** What a change says when it succeeds: making one primary or billing names what it became. */
function savedTitle(changes: ContactChanges): string {
  if (changes.isPrimary === true) return 'Primary contact changed';
  if (changes.isBilling === true) return 'Billing contact changed';
  return 'Contact updated';
}

/** A change of one contact; the previous primary or billing contact loses its mark, so the whole list is refetched. */
export function useUpdateContact(customerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ contactId, changes }: { contactId: string; changes: ContactChanges }) =>
      updateContact({ customerId, contactId, changes }),
    onSuccess: (contact, { changes }) => {
      toast({ title: savedTitle(changes), description: contact.name });
      return queryClient.invalidateQueries({ queryKey: customerContactsQueryKey(customerId) });
    },
    onError: (error) => {
      toastError('Failed to update the contact', error);
    },
  });
}
