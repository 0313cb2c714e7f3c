import type { Contact } from '@shared/contracts/contacts';
import { Mail, Pencil, Phone, Plus, Trash2, Users } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ErrorState, Skeleton } from '@/components/ui/feedback';
import { lazyWhen } from '@/components/ui/lazy-when';
import { useCustomerContacts } from '../api/get-customer-contacts';
import { useUpdateContact } from '../api/update-contact';

// The dialogs load the first time they open (docs/decisions/017-performance.md): the form brings its zod schema.
const ContactFormDialog = lazyWhen(
  () => import('./contact-form-dialog').then((module) => module.ContactFormDialog),
  (props) => props.open,
);
const DeleteContactDialog = lazyWhen(
  () => import('./delete-contact-dialog').then((module) => module.DeleteContactDialog),
  (props) => props.contact !== null,
);

/** Editing: a contact, a new one (null), or none (the dialog closed). */
type Editing = { contact: Contact | null } | null;

/**
 * The customer page's "Contacts" (product.md section 19): the people at the customer, its primary and its billing
 * contact marked, and for those who change customers, add, edit, make primary, make billing and delete. Invoices
 * and receipts go to the billing contact, the customer's own e-mail while it has none.
 */
export function ContactsCard({
  customerId,
  customerName,
  canWrite,
}: {
  customerId: string;
  customerName: string;
  canWrite: boolean;
}) {
  const { data, isLoading, error } = useCustomerContacts(customerId);
  const update = useUpdateContact(customerId);
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<Contact | null>(null);
  const contacts = data?.rows ?? [];
  const billing = contacts.find((contact) => contact.isBilling);

  return (
    <Card data-testid="contacts-card">
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3 space-y-0">
        <div className="grid gap-1.5">
          <CardTitle className="flex items-center gap-2">
            <Users className="size-4 text-muted-foreground" aria-hidden /> Contacts
          </CardTitle>
          <CardDescription>
            {billing
              ? `Invoices and receipts go to ${billing.name} (${billing.email}), the billing contact.`
              : "Invoices and receipts go to the customer's e-mail until a contact is made the billing contact."}
          </CardDescription>
        </div>
        {canWrite && (
          <Button size="sm" onClick={() => setEditing({ contact: null })}>
            <Plus aria-hidden /> Add contact
          </Button>
        )}
      </CardHeader>
      <CardContent>
        {isLoading && (
          <div className="grid gap-3" aria-busy="true">
            <span className="sr-only">Loading the contacts</span>
            <Skeleton className="h-12" />
            <Skeleton className="h-12" />
          </div>
        )}
        {error && !data && <ErrorState title="Could not load the contacts">Reload the page to try again.</ErrorState>}
        {data && contacts.length === 0 && (
          <p className="py-3 text-sm text-muted-foreground">
            No contacts yet.
            {canWrite && ' Add the people you deal with: one can be the primary contact, one the billing contact.'}
          </p>
        )}
        {contacts.length > 0 && (
          <ul className="grid divide-y" aria-label={`Contacts of ${customerName}`}>
            {contacts.map((contact) => (
              <li
                key={contact.id}
                className="grid gap-2 py-3 first:pt-0 last:pb-0 sm:grid-cols-[1fr_auto] sm:items-start"
                data-testid="contact-row"
              >
                <div className="grid min-w-0 gap-1 text-sm">
                  <div className="flex flex-wrap items-center gap-2">
                    <span className="break-words font-medium text-slate-900">{contact.name}</span>
                    {contact.isPrimary && <Badge tone="blue">Primary</Badge>}
                    {contact.isBilling && <Badge tone="green">Billing</Badge>}
                  </div>
                  {contact.role && <span className="text-muted-foreground">{contact.role}</span>}
                  {(contact.email || contact.phone) && (
                    <span className="flex flex-wrap gap-x-4 gap-y-1">
                      {contact.email && (
                        <a
                          href={`mailto:${contact.email}`}
                          className="inline-flex min-w-0 items-center gap-1 break-all text-primary hover:underline"
                        >
                          <Mail className="size-3.5 shrink-0" aria-hidden /> {contact.email}
                        </a>
                      )}
                      {contact.phone && (
                        <a href={`tel:${contact.phone}`} className="inline-flex items-center gap-1 hover:underline">
                          <Phone className="size-3.5 shrink-0" aria-hidden /> {contact.phone}
                        </a>
                      )}
                    </span>
                  )}
                  {contact.notes && (
                    <span className="whitespace-pre-wrap break-words text-xs text-muted-foreground">
                      {contact.notes}
                    </span>
                  )}
                </div>
                {canWrite && (
                  <div className="flex flex-wrap gap-1.5 sm:justify-end">
                    {!contact.isPrimary && (
                      <Button
                        variant="outline"
                        size="sm"
                        disabled={update.isPending}
                        onClick={() => update.mutate({ contactId: contact.id, changes: { isPrimary: true } })}
                        aria-label={`Make ${contact.name} the primary contact`}
                      >
                        Make primary
                      </Button>
                    )}
                    {!contact.isBilling && (
                      <Button
                        variant="outline"
                        size="sm"
                        disabled={update.isPending || !contact.email}
                        title={
                          contact.email ? undefined : 'A billing contact needs an e-mail address: edit the contact'
                        }
                        onClick={() => update.mutate({ contactId: contact.id, changes: { isBilling: true } })}
                        aria-label={`Make ${contact.name} the billing contact`}
                      >
                        Make billing
                      </Button>
                    )}
                    <Button
                      variant="ghost"
                      size="sm"
                      onClick={() => setEditing({ contact })}
                      aria-label={`Edit ${contact.name}`}
                    >
                      <Pencil aria-hidden /> Edit
                    </Button>
                    <Button
                      variant="ghost"
                      size="sm"
                      className="text-destructive hover:text-destructive"
                      onClick={() => setDeleting(contact)}
                      aria-label={`Delete ${contact.name}`}
                    >
                      <Trash2 aria-hidden /> Delete
                    </Button>
                  </div>
                )}
              </li>
            ))}
          </ul>
        )}
      </CardContent>
      {canWrite && (
        <>
          <ContactFormDialog
            open={editing !== null}
            onOpenChange={(open) => !open && setEditing(null)}
            customerId={customerId}
            customerName={customerName}
            contact={editing?.contact ?? null}
          />
          <DeleteContactDialog contact={deleting} onClose={() => setDeleting(null)} />
        </>
      )}
    </Card>
  );
}
