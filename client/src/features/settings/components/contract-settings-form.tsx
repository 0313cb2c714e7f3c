import { zodResolver } from '@hookform/resolvers/zod';
import { type ContractSettings, contractSettingsSchema } from '@shared/contracts/settings';
import { Controller, useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { ErrorState } from '@/components/ui/feedback';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { showServerFieldErrors } from '@/lib/server-field-errors';
import { useContractSettings } from '../api/get-contract-settings';
import { useUpdateContractSettings } from '../api/update-contract-settings';
import { SettingsCard, SettingsFormSkeleton } from './settings-card';
import { SwitchField } from './switch-field';

/** Admin-level only: the page mounts this tab (and so its query) for super_admin and admin alone. */
export function ContractSettingsPanel() {
  const { data, isLoading, error } = useContractSettings();
  return (
    <SettingsCard title="Contract Settings" description="What happens to a contract's payments when its term runs out.">
      {isLoading && <SettingsFormSkeleton rows={2} />}
      {error && !data && <ErrorState title="Could not load the contract settings" />}
      {data && <ContractSettingsForm current={data} />}
    </SettingsCard>
  );
}

function ContractSettingsForm({ current }: { current: ContractSettings }) {
  const update = useUpdateContractSettings();
  const form = useForm<ContractSettings>({ resolver: zodResolver(contractSettingsSchema), defaultValues: current });
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
      <Controller
        control={form.control}
        name="pausePaymentsAfterExpiry"
        render={({ field }) => (
          <SwitchField
            label="Pause payments after expiry"
            description="Stop charging automatically once a contract's term has ended."
            checked={field.value}
            onCheckedChange={field.onChange}
          />
        )}
      />
      <div className="sm:max-w-xs">
        <FormField
          label="Grace Period (days)"
          error={errors.gracePeriodsEndOfDays?.message}
          hint="Days after the term ends before payments pause, from 0 to 30."
        >
          <Input
            type="number"
            inputMode="numeric"
            step={1}
            min={0}
            max={30}
            {...form.register('gracePeriodsEndOfDays', { valueAsNumber: true })}
          />
        </FormField>
      </div>
      <div>
        <Button type="submit" disabled={update.isPending}>
          {update.isPending ? 'Saving...' : 'Save Contract Settings'}
        </Button>
      </div>
    </form>
  );
}
