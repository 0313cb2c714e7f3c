import { zodResolver } from '@hookform/resolvers/zod';
import { CUSTOMER_KIND_LABELS, CUSTOMER_KINDS, type CustomerKind } from '@shared/contracts/agencies';
import {
  type CreateCustomerInput,
  type Customer,
  type CustomerValues,
  createCustomerSchema,
} from '@shared/contracts/customers';
import { Controller, useForm } from 'react-hook-form';
import { Dialog, DialogContent, DialogFormButtons, DialogFormHeader, saveOrCreate } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { Input, Textarea } from '@/components/ui/input';
import { OptionSelect } from '@/components/ui/select';
import { showServerFieldErrors } from '@/lib/server-field-errors';
import { useCreateCustomer } from '../api/create-customer';
import { useUpdateCustomer } from '../api/update-customer';

/** The form holds every field as text ('' for "not set"); the schema turns blanks into null. */
type FormValues = CreateCustomerInput;
type TextField = Exclude<keyof Required<FormValues>, 'kind' | 'agencyCommissionPercent'>;
type FormShape = Record<TextField, string> & { kind: CustomerKind; agencyCommissionPercent: string };

const EMPTY_TEXT: Record<TextField, string> = {
  name: '',
  email: '',
  company: '',
  phone: '',
  address: '',
  city: '',
  state: '',
  zipCode: '',
  country: '',
  contactPerson: '',
  website: '',
  industry: '',
  notes: '',
};
const EMPTY: FormShape = { ...EMPTY_TEXT, kind: 'advertiser', agencyCommissionPercent: '' };

function toFormValues(customer: Customer): FormShape {
  const values = { ...EMPTY_TEXT };
  for (const key of Object.keys(EMPTY_TEXT) as TextField[]) values[key] = customer[key] ?? '';
  const percent = customer.agencyCommissionPercent;
  return { ...values, kind: customer.kind, agencyCommissionPercent: percent === null ? '' : String(percent) };
}

/**
 * The create/edit dialog. `customer` absent means create. The form is mounted afresh each time the dialog
 * opens, so it always starts from the customer's current values.
 */
export function CustomerFormDialog({
  open,
  onOpenChange,
  customer,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  customer: Customer | null;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-2xl">
        <CustomerForm customer={customer} onDone={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

function CustomerForm({ customer, onDone }: { customer: Customer | null; onDone: () => void }) {
  const form = useForm<FormValues, unknown, CustomerValues>({
    resolver: zodResolver(createCustomerSchema),
    defaultValues: customer ? toFormValues(customer) : EMPTY,
  });
  const { errors } = form.formState;
  const create = useCreateCustomer();
  const update = useUpdateCustomer();
  const busy = create.isPending || update.isPending;
  const text = (name: TextField) => ({ ...form.register(name), autoComplete: 'off' });
  const kind = form.watch('kind');
  // The kind is fixed once a contract names the customer (product.md section 20): the server refuses it with 409.
  const kindFixed = Boolean(customer && customer.contractCount > 0);

  const submit = form.handleSubmit((values) => {
    const onError = (error: Error) => showServerFieldErrors(form, error);
    // An advertiser has no agency commission: a value typed before switching the kind back is not sent.
    const input = values.kind === 'agency' ? values : { ...values, agencyCommissionPercent: null };
    if (customer) update.mutate({ id: customer.id, input }, { onSuccess: onDone, onError });
    else create.mutate(input, { onSuccess: onDone, onError });
  });

  return (
    <form noValidate onSubmit={submit} className="grid gap-5">
      <DialogFormHeader
        title={customer ? 'Edit Customer' : 'Add Customer'}
        description={
          customer
            ? `Update ${customer.name}'s contact details, address and notes.`
            : 'Name and email are required; everything else can be filled in later.'
        }
      />

      <div className="grid items-start gap-4 sm:grid-cols-2">
        <Controller
          control={form.control}
          name="kind"
          render={({ field }) => (
            <FormField
              label="Kind"
              error={errors.kind?.message}
              hint={
                kindFixed
                  ? 'Fixed: this customer has contracts.'
                  : 'An agency buys advertising for advertisers and is billed for them.'
              }
            >
              <OptionSelect
                value={field.value ?? 'advertiser'}
                onChange={field.onChange}
                onBlur={field.onBlur}
                disabled={kindFixed}
                options={CUSTOMER_KINDS.map((value) => [value, CUSTOMER_KIND_LABELS[value]] as const)}
              />
            </FormField>
          )}
        />
        {kind === 'agency' && (
          <FormField
            label="Agency commission (%)"
            error={errors.agencyCommissionPercent?.message}
            hint="The default of the advertisers it represents; blank: 15%."
          >
            <Input
              inputMode="decimal"
              placeholder="15"
              autoComplete="off"
              {...form.register('agencyCommissionPercent')}
            />
          </FormField>
        )}
      </div>

      <fieldset className="grid gap-4">
        <legend className="mb-3 text-xs font-semibold uppercase tracking-wider text-muted-foreground">Contact</legend>
        <div className="grid items-start gap-4 sm:grid-cols-2">
          <FormField label="Name" error={errors.name?.message}>
            <Input {...text('name')} />
          </FormField>
          <FormField label="Email" error={errors.email?.message}>
            <Input type="email" {...text('email')} />
          </FormField>
          <FormField label="Company" error={errors.company?.message}>
            <Input {...text('company')} />
          </FormField>
          <FormField label="Contact Person" error={errors.contactPerson?.message}>
            <Input {...text('contactPerson')} />
          </FormField>
          <FormField label="Phone" error={errors.phone?.message}>
            <Input type="tel" {...text('phone')} />
          </FormField>
          <FormField label="Website" error={errors.website?.message}>
            <Input type="url" placeholder="https://" {...text('website')} />
          </FormField>
          <FormField label="Industry" error={errors.industry?.message}>
            <Input {...text('industry')} />
          </FormField>
        </div>
      </fieldset>

      <fieldset className="grid gap-4">
        <legend className="mb-3 text-xs font-semibold uppercase tracking-wider text-muted-foreground">Address</legend>
        <FormField label="Address" error={errors.address?.message}>
          <Input {...text('address')} />
        </FormField>
        <div className="grid items-start gap-4 sm:grid-cols-2">
          <FormField label="City" error={errors.city?.message}>
            <Input {...text('city')} />
          </FormField>
          <FormField label="State" error={errors.state?.message}>
            <Input {...text('state')} />
          </FormField>
          <FormField label="ZIP Code" error={errors.zipCode?.message}>
            <Input {...text('zipCode')} />
          </FormField>
          <FormField label="Country" error={errors.country?.message}>
            <Input {...text('country')} />
          </FormField>
        </div>
      </fieldset>

      <FormField label="Notes" error={errors.notes?.message} hint="Internal: never shown to the customer.">
        <Textarea rows={3} {...form.register('notes')} />
      </FormField>

      <DialogFormButtons {...saveOrCreate(Boolean(customer), 'Create Customer')} busy={busy} onCancel={onDone} />
    </form>
  );
}
