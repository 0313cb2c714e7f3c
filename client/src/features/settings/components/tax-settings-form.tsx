import { zodResolver } from '@hookform/resolvers/zod';
import { type TaxSettings, taxSettingsSchema } from '@shared/contracts/settings';
import { Controller, useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { ErrorState } from '@/components/ui/feedback';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { showServerFieldErrors } from '@/lib/server-field-errors';
import { useTaxSettings } from '../api/get-tax-settings';
import { useUpdateTaxSettings } from '../api/update-tax-settings';
import { SettingsCard, SettingsFormSkeleton } from './settings-card';
import { SwitchField } from './switch-field';

/** Admin-level only: the page mounts this tab (and so its query) for super_admin and admin alone. */
export function TaxSettingsPanel() {
  const { data, isLoading, error } = useTaxSettings();
  return (
    <SettingsCard
      title="Tax Settings"
      description="The default tax rate and how tax appears on contracts and invoices."
    >
      {isLoading && <SettingsFormSkeleton rows={2} />}
      {error && !data && <ErrorState title="Could not load the tax settings" />}
      {data && <TaxSettingsForm current={data} />}
    </SettingsCard>
  );
}

function TaxSettingsForm({ current }: { current: TaxSettings }) {
  const update = useUpdateTaxSettings();
  const form = useForm<TaxSettings>({ resolver: zodResolver(taxSettingsSchema), defaultValues: current });
  const { errors } = form.formState;

  return (
    <form
      noValidate
      className="grid gap-4"
      onSubmit={form.handleSubmit((values) =>
        update.mutate(values, {
          onSuccess: (saved) => form.reset(saved),
          onError: (error) => showServerFieldErrors(form, error),
        }),
      )}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Default Tax Rate (%)" error={errors.defaultTaxRate?.message} hint="From 0 to 100, e.g. 8.25.">
          <Input
            type="number"
            inputMode="decimal"
            step={0.01}
            min={0}
            max={100}
            {...form.register('defaultTaxRate', { valueAsNumber: true })}
          />
        </FormField>
        <FormField label="Tax Label" error={errors.taxLabel?.message} hint='Shown on invoices, e.g. "Sales Tax".'>
          <Input {...form.register('taxLabel')} />
        </FormField>
      </div>
      <Controller
        control={form.control}
        name="taxIncluded"
        render={({ field }) => (
          <SwitchField
            label="Prices include tax"
            description="On: entered prices already contain tax. Off: tax is added on top of prices."
            checked={field.value}
            onCheckedChange={field.onChange}
          />
        )}
      />
      <div>
        <Button type="submit" disabled={update.isPending}>
          {update.isPending ? 'Saving...' : 'Save Tax Settings'}
        </Button>
      </div>
    </form>
  );
}
