import type { Contact } from '@shared/contracts/contacts';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { useDeleteContact } from '../api/delete-contact';

/** Asks before deleting one of a customer's contacts; closes when the call ends. */
export function DeleteContactDialog({ contact, onClose }: { contact: Contact | null; onClose: () => void }) {
  const remove = useDeleteContact();
  return (
    <ConfirmDialog
      open={contact !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title="Delete contact?"
      description={
        contact ? (
          <>
            <strong className="font-medium text-slate-900">{contact.name}</strong> will be removed from the customer's
            contacts.
            {contact.isBilling && " Invoices and receipts will go to the customer's own e-mail again."} This cannot be
            undone.
          </>
        ) : null
      }
      confirmLabel={remove.isPending ? 'Deleting...' : 'Delete'}
      busy={remove.isPending}
      onConfirm={() => {
        if (contact) remove.mutate(contact, { onSettled: onClose });
      }}
    />
  );
}
