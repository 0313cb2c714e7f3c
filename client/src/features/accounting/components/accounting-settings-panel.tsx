import { zodResolver } from '@hookform/resolvers/zod';
import {
  type AccountingSettingsInput,
  type AccountingSettingsUpdate,
  accountingSettingsSchema,
} from '@shared/contracts/accounting';
import {
  ACCOUNT_FIELD_HINTS,
  ACCOUNT_FIELD_LABELS,
  ACCOUNT_FIELDS,
  ACCOUNTING_DATE_FORMAT_LABELS,
  ACCOUNTING_DATE_FORMATS,
  type AccountingSettings,
  AGENCY_ACCOUNT_FIELDS,
  AGENCY_ACCOUNT_HINTS,
  AGENCY_ACCOUNT_LABELS,
  agencyAccount,
  TAX_NAME_FIELDS,
  TAX_NAME_LABELS,
} from '@shared/contracts/accounting-vocabulary';
import { AD_TYPE_LABELS, AD_TYPES } from '@shared/contracts/product-vocabulary';
import { type ReactNode, useId } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ErrorState, Skeleton } from '@/components/ui/feedback';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { showServerFieldErrors } from '@/lib/server-field-errors';
import { useAccountingSettings } from '../api/get-accounting-settings';
import { useUpdateAccountingSettings } from '../api/update-accounting-settings';
import { ChoiceSelect } from './choice-select';

/**
 * The Settings screen's "Accounting" tab (admins): the account code of each ad type's revenue, of tax,
 * receivables, bank, card clearing and customer credit, of agency commission and its payable, the tax names Xero and QuickBooks know, and how their
 * files write dates, which the accounting export writes into its files. A code left empty is not set.
 */
export function AccountingSettingsPanel() {
  const { data, isLoading, error } = useAccountingSettings();
  return (
    <Card className="max-w-3xl">
      <CardHeader className="pb-5">
        <CardTitle className="text-lg">Accounting</CardTitle>
        <CardDescription>
          The account codes of your chart of accounts that the accounting export writes into its files (Xero, QuickBooks
          and the journal). An export that needs a code left empty is refused until it is set.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {isLoading && (
          <div className="grid gap-3" aria-busy="true">
            <Skeleton className="h-9 w-full" />
            <Skeleton className="h-9 w-full" />
            <Skeleton className="h-9 w-28" />
          </div>
        )}
        {error && !data && <ErrorState title="Could not load the account codes" />}
        {data && <AccountingSettingsForm current={data} />}
      </CardContent>
    </Card>
  );
}

/** The saved codes as the form's text: null (not set) is an empty field. */
function formValues(settings: AccountingSettings): AccountingSettingsInput {
  const text = (value: string | null) => value ?? '';
  return {
    revenueAccounts: Object.fromEntries(
      AD_TYPES.map((adType) => [adType, text(settings.revenueAccounts[adType])]),
    ) as AccountingSettingsInput['revenueAccounts'],
    ...Object.fromEntries(ACCOUNT_FIELDS.map((field) => [field, text(settings[field])])),
    ...Object.fromEntries(TAX_NAME_FIELDS.map((field) => [field, text(settings[field])])),
    // The agency accounts as the files use them: their defaults until saved.
    ...Object.fromEntries(AGENCY_ACCOUNT_FIELDS.map((field) => [field, text(agencyAccount(settings, field))])),
    dateFormat: settings.dateFormat,
  };
}

function Group({ title, hint, children }: { title: string; hint: string; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="grid gap-3">
      <div className="grid gap-0.5">
        <h4 id={id} className="text-sm font-semibold text-slate-900">
          {title}
        </h4>
        <p className="text-xs text-muted-foreground">{hint}</p>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">{children}</div>
    </section>
  );
}

function AccountingSettingsForm({ current }: { current: AccountingSettings }) {
  const update = useUpdateAccountingSettings();
  const form = useForm<AccountingSettingsInput, unknown, AccountingSettingsUpdate>({
    resolver: zodResolver(accountingSettingsSchema),
    defaultValues: formValues(current),
  });
  const { errors } = form.formState;

  return (
    <form
      noValidate
      className="grid gap-6"
      onSubmit={form.handleSubmit((values) =>
        update.mutate(values, {
          onSuccess: (saved) => form.reset(formValues(saved)),
          onError: (error) => showServerFieldErrors(form, error),
        }),
      )}
    >
      <Group title="Revenue by ad type" hint="The income account each ad type's sales are booked to.">
        {AD_TYPES.map((adType) => (
          <FormField key={adType} label={AD_TYPE_LABELS[adType]} error={errors.revenueAccounts?.[adType]?.message}>
            <Input autoComplete="off" {...form.register(`revenueAccounts.${adType}`)} />
          </FormField>
        ))}
      </Group>
      <Group title="Other accounts" hint="Where tax, what customers owe, and money received and paid back go.">
        {ACCOUNT_FIELDS.map((field) => (
          <FormField
            key={field}
            label={ACCOUNT_FIELD_LABELS[field]}
            hint={ACCOUNT_FIELD_HINTS[field]}
            error={errors[field]?.message}
          >
            <Input autoComplete="off" {...form.register(field)} />
          </FormField>
        ))}
      </Group>
      <Group
        title="Agencies"
        hint="Agency commission: deducted on net-billed invoices, and owed to the agency on gross-billed ones once paid."
      >
        {AGENCY_ACCOUNT_FIELDS.map((field) => (
          <FormField
            key={field}
            label={AGENCY_ACCOUNT_LABELS[field]}
            hint={AGENCY_ACCOUNT_HINTS[field]}
            error={errors[field]?.message}
          >
            <Input autoComplete="off" {...form.register(field)} />
          </FormField>
        ))}
      </Group>
      <Group
        title="Tax names"
        hint="The tax rate names of Xero and the tax codes of QuickBooks, exactly as they appear there."
      >
        {TAX_NAME_FIELDS.map((field) => (
          <FormField key={field} label={TAX_NAME_LABELS[field]} error={errors[field]?.message}>
            <Input autoComplete="off" {...form.register(field)} />
          </FormField>
        ))}
      </Group>
      <Group title="Dates" hint="How the Xero and QuickBooks files write dates (the journal always writes YYYY-MM-DD).">
        <Controller
          control={form.control}
          name="dateFormat"
          render={({ field }) => (
            <FormField
              label="Date format"
              hint="Choose the format your Xero or QuickBooks organisation reads."
              error={errors.dateFormat?.message}
            >
              <ChoiceSelect
                choices={ACCOUNTING_DATE_FORMATS}
                labels={ACCOUNTING_DATE_FORMAT_LABELS}
                value={field.value ?? 'MM/DD/YYYY'}
                onChange={field.onChange}
              />
            </FormField>
          )}
        />
      </Group>
      <div>
        <Button type="submit" disabled={update.isPending}>
          {update.isPending ? 'Saving...' : 'Save Account Codes'}
        </Button>
      </div>
    </form>
  );
}
