import { zodResolver } from '@hookform/resolvers/zod';
import { MAX_DELIVERY_GRACE_DAYS } from '@shared/contracts/delivery-vocabulary';
import { MAX_HOLD_DAYS } from '@shared/contracts/inventory-vocabulary';
import { type ContractSettings, contractSettingsSchema, MAX_IO_TERMS_LENGTH } from '@shared/contracts/settings';
import { useId } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { ErrorState } from '@/components/ui/feedback';
import { FormField } from '@/components/ui/form-field';
import { Input, Textarea } from '@/components/ui/input';
import { LazySelect } from '@/components/ui/lazy-select';
import { showServerFieldErrors } from '@/lib/server-field-errors';
import { useContractSettings } from '../api/get-contract-settings';
import { useUpdateContractSettings } from '../api/update-contract-settings';
import { SettingsCard, SettingsFormSkeleton } from './settings-card';
import { SwitchField } from './switch-field';

type DaysField =
  | 'gracePeriodsEndOfDays'
  | 'firstReminderDays'
  | 'secondReminderDays'
  | 'pauseAfterOverdueDays'
  | 'holdDays'
  | 'deliveryGraceDays';

/** The dunning steps (product.md section 14): whole days after an unpaid invoice's due date. */
const DUNNING_FIELDS: { name: DaysField; label: string; max: number; hint: string }[] = [
  {
    name: 'firstReminderDays',
    label: 'First Reminder (days after due date)',
    max: 60,
    hint: 'From 0 to 60; 0 turns it off.',
  },
  {
    name: 'secondReminderDays',
    label: 'Second Reminder (days after due date)',
    max: 60,
    hint: 'From 0 to 60, later than the first; 0 turns it off.',
  },
  {
    name: 'pauseAfterOverdueDays',
    label: 'Pause Contract After (days overdue)',
    max: 120,
    hint: 'From 0 to 120; 0 never pauses. Paying resumes the contract.',
  },
];

/** The days autopay can charge an open invoice on (product.md section 18), as the select offers them. */
export const AUTOPAY_CHARGE_ON_OPTIONS: { value: ContractSettings['autopayChargeOn']; label: string }[] = [
  { value: 'due_date', label: 'The due date' },
  { value: 'issue_date', label: 'The issue date' },
];

/** Admin-level only: the page mounts this tab (and so its query) for super_admin and admin alone. */
export function ContractSettingsPanel() {
  const { data, isLoading, error } = useContractSettings();
  return (
    <SettingsCard
      title="Contract Settings"
      description="What happens to a contract's payments when its term runs out, how unpaid invoices are chased (reminders to the customer, then a pause of the contract), how long a sent contract holds its inventory, the terms every insertion order prints, when delivery reported by the ad server is final, and the day autopay charges a card on file."
    >
      {isLoading && <SettingsFormSkeleton rows={7} />}
      {error && !data && <ErrorState title="Could not load the contract settings" />}
      {data && <ContractSettingsForm current={data} />}
    </SettingsCard>
  );
}

function ContractSettingsForm({ current }: { current: ContractSettings }) {
  const update = useUpdateContractSettings();
  const form = useForm<ContractSettings>({ resolver: zodResolver(contractSettingsSchema), defaultValues: current });
  const { errors } = form.formState;
  const id = useId();

  const daysInput = (name: DaysField, max: number, min = 0) => (
    <Input
      type="number"
      inputMode="numeric"
      step={1}
      min={min}
      max={max}
      {...form.register(name, { valueAsNumber: true })}
    />
  );

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
          {daysInput('gracePeriodsEndOfDays', 30)}
        </FormField>
      </div>
      <div className="border-t pt-5">
        <fieldset className="grid gap-4" aria-describedby={`${id}-dunning`}>
          <legend className="mb-1 text-sm font-semibold text-slate-900">Dunning</legend>
          <p id={`${id}-dunning`} className="text-sm text-muted-foreground">
            When an invoice stays unpaid after its due date: reminders to the customer, then a pause of the contract
            until its overdue invoices are paid.
          </p>
          {DUNNING_FIELDS.map(({ name, label, max, hint }) => (
            <div key={name} className="sm:max-w-xs">
              <FormField label={label} error={errors[name]?.message} hint={hint}>
                {daysInput(name, max)}
              </FormField>
            </div>
          ))}
        </fieldset>
      </div>
      <div className="border-t pt-5">
        <fieldset className="grid gap-4">
          <legend className="mb-1 text-sm font-semibold text-slate-900">Autopay</legend>
          <div className="sm:max-w-xs">
            <Controller
              control={form.control}
              name="autopayChargeOn"
              render={({ field }) => (
                <FormField
                  label="Autopay charges on"
                  error={errors.autopayChargeOn?.message}
                  hint="Customers with a card on file are charged on this day."
                >
                  <LazySelect
                    value={field.value}
                    onValueChange={field.onChange}
                    onBlur={field.onBlur}
                    placeholder="Select a day"
                    display={AUTOPAY_CHARGE_ON_OPTIONS.find((option) => option.value === field.value)?.label}
                    options={AUTOPAY_CHARGE_ON_OPTIONS}
                  />
                </FormField>
              )}
            />
          </div>
        </fieldset>
      </div>
      <div className="border-t pt-5">
        <fieldset className="grid gap-4">
          <legend className="mb-1 text-sm font-semibold text-slate-900">Inventory</legend>
          <div className="sm:max-w-xs">
            <FormField
              label="Hold Days"
              error={errors.holdDays?.message}
              hint={`Days a sent contract holds its inventory slots before they are released, from 1 to ${MAX_HOLD_DAYS}.`}
            >
              {daysInput('holdDays', MAX_HOLD_DAYS, 1)}
            </FormField>
          </div>
        </fieldset>
      </div>
      <div className="border-t pt-5">
        <fieldset className="grid gap-4">
          <legend className="mb-1 text-sm font-semibold text-slate-900">Delivery</legend>
          <div className="sm:max-w-xs">
            <FormField
              label="Delivery Grace Days"
              error={errors.deliveryGraceDays?.message}
              hint={`Days after a billing period ends before the delivery the ad server reported for it is final and any under-delivery is settled, from 0 to ${MAX_DELIVERY_GRACE_DAYS}.`}
            >
              {daysInput('deliveryGraceDays', MAX_DELIVERY_GRACE_DAYS)}
            </FormField>
          </div>
        </fieldset>
      </div>
      <div className="border-t pt-5">
        <fieldset className="grid gap-4">
          <legend className="mb-1 text-sm font-semibold text-slate-900">Insertion orders</legend>
          <FormField
            label="Insertion Order Terms"
            error={errors.ioTerms?.message}
            hint={`Printed on every insertion order sent from now on, which the customer accepts; up to ${MAX_IO_TERMS_LENGTH.toLocaleString('en-US')} characters. Orders already sent keep the terms they were sent with.`}
          >
            <Textarea rows={8} maxLength={MAX_IO_TERMS_LENGTH} {...form.register('ioTerms')} />
          </FormField>
        </fieldset>
      </div>
      <div>
        <Button type="submit" disabled={update.isPending}>
          {update.isPending ? 'Saving...' : 'Save Contract Settings'}
        </Button>
      </div>
    </form>
  );
}
