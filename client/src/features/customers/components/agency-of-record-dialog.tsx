import { zodResolver } from '@hookform/resolvers/zod';
import {
  AGENCY_BILLING_MODE_LABELS,
  AGENCY_BILLING_MODES,
  type AgencyBillingMode,
  type AgencyOfRecord,
  type AgencyOfRecordInput,
  type AgencyOfRecordValues,
  agencyOfRecordSchema,
} from '@shared/contracts/agencies';
import { Controller, useForm } from 'react-hook-form';
import { Dialog, DialogContent, DialogFormButtons, DialogFormHeader } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { OptionSelect } from '@/components/ui/select';
import { showServerFieldErrors } from '@/lib/server-field-errors';
import { type AgencyOption, useAgencyOptions } from '../api/get-agency-options';
import { useSetAgencyOfRecord } from '../api/set-agency-of-record';

/** The form's values: text ('' for "not set"), which the shared schema (agencyOfRecordSchema) checks and converts. */
type FormValues = {
  agencyId: string;
  commissionPercent: string;
  billingMode: AgencyBillingMode;
  from: string;
  to: string;
};

function toFormValues(period: AgencyOfRecord | null, today: string): FormValues {
  if (!period) return { agencyId: '', commissionPercent: '', billingMode: 'net', from: today, to: '' };
  return {
    agencyId: period.agencyId,
    commissionPercent: String(period.commissionPercent),
    billingMode: period.billingMode,
    from: period.from,
    to: period.to ?? '',
  };
}

/** The agencies to choose from (never the advertiser itself), and the period's own agency if the list lacks it. */
function agencyChoices(agencies: readonly AgencyOption[], customerId: string, period: AgencyOfRecord | null) {
  const choices = agencies.filter((agency) => agency.id !== customerId).map((a) => [a.id, a.name] as const);
  if (period && !choices.some(([id]) => id === period.agencyId)) {
    choices.push([period.agencyId, period.agencyName] as const);
  }
  return choices;
}

/** The local calendar day (YYYY-MM-DD): the form's default "from". */
function localToday(): string {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/**
 * Setting or changing an advertiser's agency of record (PUT /api/customers/{id}/agency): the agency (customers of
 * kind agency), the commission (the agency's own when left blank), the billing mode and the dates. `period` is
 * the one being changed, or null for a new one. The form is mounted afresh each time the dialog opens.
 */
export function AgencyOfRecordDialog({
  open,
  onOpenChange,
  customerId,
  customerName,
  period,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  customerId: string;
  customerName: string;
  period: AgencyOfRecord | null;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-xl">
        <AgencyOfRecordForm
          customerId={customerId}
          customerName={customerName}
          period={period}
          onDone={() => onOpenChange(false)}
        />
      </DialogContent>
    </Dialog>
  );
}

function AgencyOfRecordForm({
  customerId,
  customerName,
  period,
  onDone,
}: {
  customerId: string;
  customerName: string;
  period: AgencyOfRecord | null;
  onDone: () => void;
}) {
  const form = useForm<AgencyOfRecordInput, unknown, AgencyOfRecordValues>({
    // The form's text is the schema's input: it trims, reads the percent and turns a blank "to" into null.
    resolver: zodResolver(agencyOfRecordSchema),
    defaultValues: toFormValues(period, localToday()),
  });
  const { errors } = form.formState;
  const agencies = useAgencyOptions();
  const save = useSetAgencyOfRecord(customerId);
  const chosen = agencies.data?.find((agency) => agency.id === form.watch('agencyId'));
  const options = agencies.data ?? [];

  const submit = form.handleSubmit((values) => {
    save.mutate(
      { ...values, to: values.to ?? null },
      { onSuccess: onDone, onError: (error) => showServerFieldErrors(form, error) },
    );
  });

  return (
    <form noValidate onSubmit={submit} className="grid gap-5">
      <DialogFormHeader
        title={period ? 'Change agency of record' : 'Set agency'}
        description={`The agency that buys for ${customerName}: contracts made for these dates are billed to it.`}
      />
      <Controller
        control={form.control}
        name="agencyId"
        render={({ field }) => (
          <FormField
            label="Agency"
            error={errors.agencyId?.message}
            hint={agencies.data && options.length === 0 ? 'No agencies yet: add a customer of kind Agency.' : undefined}
          >
            <OptionSelect
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              disabled={agencies.isLoading}
              placeholder={agencies.isLoading ? 'Loading agencies...' : 'Choose an agency'}
              options={agencyChoices(options, customerId, period)}
            />
          </FormField>
        )}
      />
      <div className="grid items-start gap-4 sm:grid-cols-2">
        <FormField
          label="Commission (%)"
          error={errors.commissionPercent?.message}
          hint={
            chosen?.agencyCommissionPercent !== null && chosen?.agencyCommissionPercent !== undefined
              ? `Blank: the agency's own ${chosen.agencyCommissionPercent}%.`
              : "Blank: the agency's own commission."
          }
        >
          <Input inputMode="decimal" autoComplete="off" placeholder="15" {...form.register('commissionPercent')} />
        </FormField>
        <Controller
          control={form.control}
          name="billingMode"
          render={({ field }) => (
            <FormField label="Billing mode" error={errors.billingMode?.message}>
              <OptionSelect
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                options={AGENCY_BILLING_MODES.map((mode) => [mode, AGENCY_BILLING_MODE_LABELS[mode]] as const)}
              />
            </FormField>
          )}
        />
        <FormField label="From" error={errors.from?.message}>
          <Input type="date" {...form.register('from')} />
        </FormField>
        <FormField label="To" error={errors.to?.message} hint="Blank: until further notice.">
          <Input type="date" {...form.register('to')} />
        </FormField>
      </div>
      <DialogFormButtons
        {...(period
          ? { label: 'Save Changes', busyLabel: 'Saving...' }
          : { label: 'Set agency', busyLabel: 'Saving...' })}
        busy={save.isPending}
        onCancel={onDone}
      />
    </form>
  );
}
