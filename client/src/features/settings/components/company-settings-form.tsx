import { zodResolver } from '@hookform/resolvers/zod';
import { type CompanyProfileInput, type CompanyProfileValues, companyProfileSchema } from '@shared/contracts/company';
import { COMPANY_LIMITS, type CompanyProfile, MAX_LOGO_PIXELS } from '@shared/contracts/company-vocabulary';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { ErrorState } from '@/components/ui/feedback';
import { FormField } from '@/components/ui/form-field';
import { Input, Textarea } from '@/components/ui/input';
import { errorMessage } from '@/lib/api-client';
import { showServerFieldErrors } from '@/lib/server-field-errors';
import { useCompanyProfile } from '../api/get-company-profile';
import { useUpdateCompanyProfile } from '../api/update-company-profile';
import { companyLogoUrl, useUploadCompanyLogo } from '../api/upload-company-logo';
import { SettingsCard, SettingsFormSkeleton } from './settings-card';

/**
 * The company profile (product.md section 17): the seller every invoice, credit note, insertion order and
 * receipt prints in its header and footer, and every e-mail to a customer ends with. Admins only: the page
 * mounts this tab, and so its query, for super_admin and admin alone.
 */
export function CompanySettingsPanel() {
  const { data, isLoading, error } = useCompanyProfile();
  return (
    <SettingsCard
      title="Company"
      description="Your business as invoices, credit notes, insertion orders and receipts show it, and as e-mails to customers sign off. Documents made from now on print it."
    >
      <div className="grid gap-6">
        <LogoField />
        {isLoading && <SettingsFormSkeleton rows={6} />}
        {error && !data && <ErrorState title="Could not load the company profile" />}
        {data && <CompanyProfileForm current={data} />}
      </div>
    </SettingsCard>
  );
}

/** The form holds text: a field that is not set is empty. */
function toFormValues(profile: CompanyProfile): CompanyProfileInput {
  const text = (value: string | null) => value ?? '';
  return {
    legalName: profile.legalName,
    address: {
      street: text(profile.address.street),
      city: text(profile.address.city),
      state: text(profile.address.state),
      zip: text(profile.address.zip),
      country: text(profile.address.country),
    },
    phone: text(profile.phone),
    billingEmail: text(profile.billingEmail),
    website: text(profile.website),
    taxId: text(profile.taxId),
    paymentInstructions: text(profile.paymentInstructions),
    invoiceFooter: text(profile.invoiceFooter),
  };
}

function CompanyProfileForm({ current }: { current: CompanyProfile }) {
  const update = useUpdateCompanyProfile();
  const form = useForm<CompanyProfileInput, unknown, CompanyProfileValues>({
    resolver: zodResolver(companyProfileSchema),
    defaultValues: toFormValues(current),
  });
  const { errors } = form.formState;

  return (
    <form
      noValidate
      className="grid gap-4"
      onSubmit={form.handleSubmit((values) =>
        update.mutate(values, {
          onSuccess: (saved) => form.reset(toFormValues(saved)),
          onError: (error) => showServerFieldErrors(form, error),
        }),
      )}
    >
      <FormField
        label="Legal Name"
        error={errors.legalName?.message}
        hint="The name on invoices and contracts, e.g. Northwind Media LLC."
      >
        <Input autoComplete="organization" maxLength={COMPANY_LIMITS.legalName} {...form.register('legalName')} />
      </FormField>

      <fieldset className="grid gap-4">
        <legend className="mb-1 text-sm font-semibold">Address</legend>
        <FormField label="Street" error={errors.address?.street?.message}>
          <Input autoComplete="street-address" {...form.register('address.street')} />
        </FormField>
        <div className="grid items-start gap-4 sm:grid-cols-[2fr_1fr_1fr]">
          <FormField label="City" error={errors.address?.city?.message}>
            <Input autoComplete="address-level2" {...form.register('address.city')} />
          </FormField>
          <FormField label="State" error={errors.address?.state?.message}>
            <Input autoComplete="address-level1" {...form.register('address.state')} />
          </FormField>
          <FormField label="ZIP Code" error={errors.address?.zip?.message}>
            <Input autoComplete="postal-code" {...form.register('address.zip')} />
          </FormField>
        </div>
        <FormField label="Country" error={errors.address?.country?.message}>
          <Input autoComplete="country-name" {...form.register('address.country')} />
        </FormField>
      </fieldset>

      <div className="grid items-start gap-4 sm:grid-cols-2">
        <FormField label="Phone" error={errors.phone?.message}>
          <Input type="tel" autoComplete="tel" {...form.register('phone')} />
        </FormField>
        <FormField
          label="Billing Email"
          error={errors.billingEmail?.message}
          hint="Where customers write about invoices."
        >
          <Input type="email" autoComplete="email" {...form.register('billingEmail')} />
        </FormField>
        <FormField label="Website" error={errors.website?.message}>
          <Input type="url" inputMode="url" autoComplete="url" placeholder="https://" {...form.register('website')} />
        </FormField>
        <FormField label="Tax ID" error={errors.taxId?.message} hint="e.g. your EIN or VAT number.">
          <Input {...form.register('taxId')} />
        </FormField>
      </div>

      <FormField
        label="Payment Instructions"
        error={errors.paymentInstructions?.message}
        hint="Other ways to pay, e.g. bank details for wires: on invoices with an amount due and in e-mails asking for payment."
      >
        <Textarea rows={3} maxLength={COMPANY_LIMITS.paymentInstructions} {...form.register('paymentInstructions')} />
      </FormField>
      <FormField
        label="Invoice Footer"
        error={errors.invoiceFooter?.message}
        hint="The closing words of every document, e.g. thanks or late-payment terms."
      >
        <Textarea rows={2} maxLength={COMPANY_LIMITS.invoiceFooter} {...form.register('invoiceFooter')} />
      </FormField>

      <div>
        <Button type="submit" disabled={update.isPending}>
          {update.isPending ? 'Saving...' : 'Save Company Profile'}
        </Button>
      </div>
    </form>
  );
}

/**
 * The logo: the current one (or a note that there is none) and a file chooser that uploads at once. The
 * server decides the type by the file's content; the error it gives shows under the field.
 */
function LogoField() {
  const id = useId();
  const upload = useUploadCompanyLogo();
  // The logo's address: a fresh fingerprint after each upload, so the new one shows at once.
  const [version, setVersion] = useState<string | null>(null);
  const [shown, setShown] = useState<'loading' | 'shown' | 'none'>('loading');
  const [problem, setProblem] = useState<string | null>(null);

  const choose = (file: File | undefined) => {
    if (!file) return;
    setProblem(null);
    upload.mutate(file, {
      onSuccess: (logo) => {
        setShown('loading');
        setVersion(logo.sha256);
      },
      onError: (error) => setProblem(errorMessage(error, 'The logo could not be uploaded')),
    });
  };

  return (
    <div className="grid gap-2">
      <label htmlFor={id} className="text-sm font-medium">
        Logo
      </label>
      <div className="flex flex-wrap items-center gap-4">
        <div className="flex h-16 w-40 items-center justify-center overflow-hidden rounded-md border bg-muted/40">
          <img
            key={version ?? 'current'}
            src={companyLogoUrl(version)}
            alt="Company logo"
            className={shown === 'shown' ? 'max-h-14 max-w-36 object-contain' : 'hidden'}
            onLoad={() => setShown('shown')}
            onError={() => setShown('none')}
          />
          {shown === 'none' && <span className="text-xs text-muted-foreground">No logo yet</span>}
        </div>
        <input
          id={id}
          type="file"
          accept="image/png,image/jpeg"
          disabled={upload.isPending}
          aria-invalid={problem ? true : undefined}
          aria-describedby={`${id}-note`}
          className="w-full min-w-0 max-w-xs text-sm file:mr-3 file:rounded-md file:border file:border-input file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-medium"
          onChange={(event) => {
            choose(event.target.files?.[0]);
            event.target.value = '';
          }}
        />
      </div>
      <p
        id={`${id}-note`}
        role={problem ? 'alert' : undefined}
        className={problem ? 'text-sm font-medium text-destructive' : 'text-xs text-muted-foreground'}
      >
        {problem ??
          (upload.isPending
            ? 'Uploading...'
            : `A PNG or JPEG of up to 1 MB and ${MAX_LOGO_PIXELS.toLocaleString('en-US')} pixels a side; printed at the top of every document.`)}
      </p>
    </div>
  );
}
