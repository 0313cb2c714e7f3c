import { zodResolver } from '@hookform/resolvers/zod';
import { type Contact, type ContactInput, type ContactValues, contactSchema } from '@shared/contracts/contacts';
import { useForm } from 'react-hook-form';
import { Dialog, DialogContent, DialogFormButtons, DialogFormHeader, saveOrCreate } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { Input, Textarea } from '@/components/ui/input';
import { showServerFieldErrors } from '@/lib/server-field-errors';
import { useCreateContact } from '../api/create-contact';
import { useUpdateContact } from '../api/update-contact';

/** The form holds the text fields as text ('' for "not set"); the schema turns blanks into null. */
type FormValues = ContactInput;

const EMPTY: Required<FormValues> = {
  name: '',
  role: '',
  email: '',
  phone: '',
  notes: '',
  isPrimary: false,
  isBilling: false,
};

function toFormValues(contact: Contact): Required<FormValues> {
  return {
    name: contact.name,
    role: contact.role ?? '',
    email: contact.email ?? '',
    phone: contact.phone ?? '',
    notes: contact.notes ?? '',
    isPrimary: contact.isPrimary,
    isBilling: contact.isBilling,
  };
}

/**
 * Adding or editing one of a customer's contacts (`contact` null: a new one). The form is mounted afresh each time
 * the dialog opens. Marking it primary or billing takes the mark from the customer's previous one.
 */
export function ContactFormDialog({
  open,
  onOpenChange,
  customerId,
  customerName,
  contact,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  customerId: string;
  customerName: string;
  contact: Contact | null;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-xl">
        <ContactForm
          customerId={customerId}
          customerName={customerName}
          contact={contact}
          onDone={() => onOpenChange(false)}
        />
      </DialogContent>
    </Dialog>
  );
}

function ContactForm({
  customerId,
  customerName,
  contact,
  onDone,
}: {
  customerId: string;
  customerName: string;
  contact: Contact | null;
  onDone: () => void;
}) {
  const form = useForm<FormValues, unknown, ContactValues>({
    resolver: zodResolver(contactSchema),
    defaultValues: contact ? toFormValues(contact) : EMPTY,
  });
  const { errors } = form.formState;
  const create = useCreateContact(customerId);
  const update = useUpdateContact(customerId);
  const busy = create.isPending || update.isPending;
  const text = (name: 'name' | 'role' | 'email' | 'phone') => ({ ...form.register(name), autoComplete: 'off' });

  const submit = form.handleSubmit((values) => {
    const onError = (error: Error) => showServerFieldErrors(form, error);
    if (contact) update.mutate({ contactId: contact.id, changes: values }, { onSuccess: onDone, onError });
    else create.mutate(values, { onSuccess: onDone, onError });
  });

  return (
    <form noValidate onSubmit={submit} className="grid gap-5">
      <DialogFormHeader
        title={contact ? 'Edit Contact' : 'Add Contact'}
        description={
          contact
            ? `Update ${contact.name}, one of ${customerName}'s contacts.`
            : `Someone at ${customerName}. A name is required; a billing contact needs an e-mail address.`
        }
      />
      <div className="grid items-start gap-4 sm:grid-cols-2">
        <FormField label="Name" error={errors.name?.message}>
          <Input {...text('name')} />
        </FormField>
        <FormField label="Role" error={errors.role?.message}>
          <Input placeholder="e.g. Marketing manager" {...text('role')} />
        </FormField>
        <FormField label="Email" error={errors.email?.message}>
          <Input type="email" {...text('email')} />
        </FormField>
        <FormField label="Phone" error={errors.phone?.message}>
          <Input type="tel" {...text('phone')} />
        </FormField>
      </div>
      <FormField label="Notes" error={errors.notes?.message}>
        <Textarea rows={3} {...form.register('notes')} />
      </FormField>
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-xs font-semibold uppercase tracking-wider text-muted-foreground">Marks</legend>
        <label className="flex cursor-pointer items-start gap-2 text-sm">
          <input type="checkbox" className="mt-0.5 size-4 accent-primary" {...form.register('isPrimary')} />
          <span>
            Primary contact
            <span className="block text-xs text-muted-foreground">The person to talk to first.</span>
          </span>
        </label>
        <label className="flex cursor-pointer items-start gap-2 text-sm">
          <input type="checkbox" className="mt-0.5 size-4 accent-primary" {...form.register('isBilling')} />
          <span>
            Billing contact
            <span className="block text-xs text-muted-foreground">
              Receives the invoices, reminders and receipts instead of the customer's e-mail.
            </span>
          </span>
        </label>
      </fieldset>
      <DialogFormButtons {...saveOrCreate(Boolean(contact), 'Add Contact')} busy={busy} onCancel={onDone} />
    </form>
  );
}
