import { zodResolver } from '@hookform/resolvers/zod';
import {
  type Activity,
  type ActivityFormValues,
  type ActivityPayload,
  activityFormSchema,
} from '@shared/contracts/activities';
import {
  ACTIVITY_TYPE_LABELS,
  ACTIVITY_TYPES,
  type ActivityType,
  CALL_OUTCOME_LABELS,
  CALL_OUTCOMES,
  type CallOutcome,
  takesDuration,
  takesOutcome,
} from '@shared/contracts/activity-vocabulary';
import { rolesWith } from '@shared/permissions';
import { type ComponentType, Suspense, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Dialog, DialogContent, DialogFormButtons, DialogFormHeader, saveOrCreate } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { Input, Textarea } from '@/components/ui/input';
import { OptionSelect } from '@/components/ui/select';
import { todayIso } from '@/lib/format';
import { usePeopleOptions } from '@/lib/people-options';
import { showServerFieldErrors } from '@/lib/server-field-errors';
import { useCreateActivity } from '../api/create-activity';
import { useDealOptions } from '../api/get-deal-options';
import { useUpdateActivity } from '../api/update-activity';

/** Who an activity can belong to: the people who work the pipeline. */
const OWNER_ROLES = rolesWith(['deal:any', 'deal:own']);
/** The props of a customer search box (the page hands the dialog one: the pipeline's, say). */
export type CustomerPickerProps = {
  value: string;
  name: string;
  onChange: (customer: { id: string; name: string }) => void;
  id?: string;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
};
export type CustomerPicker = ComponentType<CustomerPickerProps>;

/** What a new activity starts with when it is logged from a customer or a deal. */
export type ActivityDefaults = {
  customerId: string;
  customerName: string;
  dealId?: string | null;
  dealTitle?: string | null;
};

const NO_DEAL = 'none';
const ME = 'me';

/**
 * Log or edit an activity (`activity` null logs a new one). The customer is fixed when the dialog is opened from a
 * customer or a deal (or to edit); otherwise `customerPicker` chooses it. Managers and admins choose the owner.
 * The form is mounted afresh each time it opens.
 */
export function ActivityDialog({
  open,
  onOpenChange,
  activity,
  defaults,
  canChooseOwner,
  customerPicker,
  onSaved,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  activity: Activity | null;
  defaults?: ActivityDefaults;
  canChooseOwner: boolean;
  customerPicker?: CustomerPicker;
  /** After a save (a page refreshes what depends on it: the deal's last activity). */
  onSaved?: (activity: Activity) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-2xl">
        {open && (
          <ActivityForm
            activity={activity}
            defaults={defaults}
            canChooseOwner={canChooseOwner}
            customerPicker={customerPicker}
            onDone={(saved) => {
              onOpenChange(false);
              onSaved?.(saved);
            }}
            onCancel={() => onOpenChange(false)}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}

/** The page's customer search (which may load on first use), given the field's id and aria wiring. */
function PickerField({ picker: Picker, ...props }: CustomerPickerProps & { picker: CustomerPicker }) {
  return (
    <Suspense fallback={<Input id={props.id} disabled placeholder="Loading..." />}>
      <Picker {...props} />
    </Suspense>
  );
}

/** The next whole hour today as HH:MM (23:59 late in the evening). */
function nextHour(now = new Date()): string {
  const hour = now.getHours() + 1;
  return hour > 23 ? '23:59' : `${String(hour).padStart(2, '0')}:00`;
}

const pad = (n: number) => String(n).padStart(2, '0');

function formValuesOf(activity: Activity | null, defaults: ActivityDefaults | undefined): ActivityFormValues {
  if (activity) {
    const due = activity.dueAt ? new Date(activity.dueAt) : null;
    return {
      type: activity.type,
      subject: activity.subject,
      body: activity.body ?? '',
      dueDate: due ? `${due.getFullYear()}-${pad(due.getMonth() + 1)}-${pad(due.getDate())}` : '',
      dueTime: due ? `${pad(due.getHours())}:${pad(due.getMinutes())}` : '',
      durationMinutes: activity.durationMinutes === null ? '' : String(activity.durationMinutes),
      outcome: activity.outcome ?? '',
      done: activity.done,
      customerId: activity.customerId,
      dealId: activity.dealId ?? '',
      contactId: activity.contactId ?? '',
      ownerId: activity.ownerId,
    };
  }
  return {
    type: 'task',
    subject: '',
    body: '',
    dueDate: todayIso(),
    dueTime: nextHour(),
    durationMinutes: '',
    outcome: '',
    done: false,
    customerId: defaults?.customerId ?? '',
    dealId: defaults?.dealId ?? '',
    contactId: '',
    ownerId: '',
  };
}

function ActivityForm({
  activity,
  defaults,
  canChooseOwner,
  customerPicker: Picker,
  onDone,
  onCancel,
}: {
  activity: Activity | null;
  defaults?: ActivityDefaults;
  canChooseOwner: boolean;
  customerPicker?: CustomerPicker;
  onDone: (activity: Activity) => void;
  onCancel: () => void;
}) {
  const form = useForm<ActivityFormValues, unknown, ActivityPayload>({
    resolver: zodResolver(activityFormSchema),
    defaultValues: formValuesOf(activity, defaults),
  });
  const { errors } = form.formState;
  const create = useCreateActivity();
  const update = useUpdateActivity();
  const busy = create.isPending || update.isPending;
  const [customerName, setCustomerName] = useState(activity?.customerName ?? defaults?.customerName ?? '');
  const fixedCustomer = activity !== null || defaults !== undefined;
  const type = form.watch('type') as ActivityType;
  const customerId = form.watch('customerId');
  const deals = useDealOptions(customerId);
  const owners = usePeopleOptions({ roles: OWNER_ROLES, activeOnly: true, enabled: canChooseOwner });

  // The deal it has (a closed one is no longer among the open deals offered) and the customer's open deals.
  const known = activity?.dealId
    ? { id: activity.dealId, title: activity.dealTitle ?? 'This deal' }
    : defaults?.dealId
      ? { id: defaults.dealId, title: defaults.dealTitle ?? 'This deal' }
      : null;
  const dealChoices = [
    ...(known && !(deals.data ?? []).some((deal) => deal.id === known.id) ? [known] : []),
    ...(deals.data ?? []),
  ];

  const submit = form.handleSubmit((values) => {
    const onError = (error: Error) => showServerFieldErrors(form, error);
    if (activity) update.mutate({ id: activity.id, input: values }, { onSuccess: onDone, onError });
    else create.mutate(values, { onSuccess: onDone, onError });
  });

  const setType = (next: ActivityType) => {
    form.setValue('type', next);
    // A field the new type does not take is emptied rather than refused.
    if (!takesOutcome(next)) form.setValue('outcome', '');
    if (!takesDuration(next)) form.setValue('durationMinutes', '');
    // A note records what happened: it has no due time. Another type starts from the usual one.
    if (next === 'note') {
      form.setValue('dueDate', '');
      form.setValue('dueTime', '');
    } else if (!form.getValues('dueDate') && !form.getValues('dueTime')) {
      form.setValue('dueDate', todayIso());
      form.setValue('dueTime', nextHour());
    }
  };

  return (
    <form noValidate onSubmit={submit} className="grid gap-5">
      <DialogFormHeader
        title={activity ? 'Edit activity' : 'Log activity'}
        description={
          customerName
            ? `A call, meeting, e-mail, task or note for ${customerName}.`
            : 'A call, meeting, e-mail, task or note for a customer.'
        }
      />

      <div className="grid items-start gap-4 sm:grid-cols-[12rem_1fr]">
        <Controller
          control={form.control}
          name="type"
          render={({ field }) => (
            <FormField label="Type" error={errors.type?.message}>
              <OptionSelect
                value={field.value as ActivityType}
                onChange={setType}
                options={ACTIVITY_TYPES.map((t) => [t, ACTIVITY_TYPE_LABELS[t]] as const)}
              />
            </FormField>
          )}
        />
        <FormField label="Subject" error={errors.subject?.message}>
          <Input autoComplete="off" placeholder="Call about the spring campaign" {...form.register('subject')} />
        </FormField>
      </div>

      {fixedCustomer ? (
        <p className="text-sm">
          <span className="text-muted-foreground">Customer: </span>
          <span className="font-medium text-slate-900">{customerName}</span>
        </p>
      ) : (
        <Controller
          control={form.control}
          name="customerId"
          render={({ field }) => (
            <FormField label="Customer" error={errors.customerId?.message}>
              {Picker ? (
                <PickerField
                  picker={Picker}
                  value={field.value}
                  name={customerName}
                  onChange={(customer) => {
                    field.onChange(customer.id);
                    setCustomerName(customer.name);
                    form.setValue('dealId', '');
                  }}
                />
              ) : (
                <Input disabled value={customerName} placeholder="Open this from a customer or a deal" />
              )}
            </FormField>
          )}
        />
      )}

      <div className={type === 'note' ? 'hidden' : 'grid items-start gap-4 sm:grid-cols-3'}>
        <FormField label={type === 'meeting' ? 'Date' : 'Due date'} error={errors.dueDate?.message}>
          <Input type="date" {...form.register('dueDate')} />
        </FormField>
        <FormField label={type === 'meeting' ? 'Time' : 'Due time'} error={errors.dueTime?.message}>
          <Input type="time" {...form.register('dueTime')} />
        </FormField>
        {takesDuration(type) && (
          <FormField label="Duration (minutes)" error={errors.durationMinutes?.message}>
            <Input
              type="number"
              inputMode="numeric"
              min={1}
              max={1440}
              step={1}
              {...form.register('durationMinutes')}
            />
          </FormField>
        )}
      </div>

      <div className="grid items-start gap-4 sm:grid-cols-2">
        {takesOutcome(type) && (
          <Controller
            control={form.control}
            name="outcome"
            render={({ field }) => (
              <FormField label="Outcome" error={errors.outcome?.message}>
                <OptionSelect
                  value={(field.value as CallOutcome | '' | null) ?? ''}
                  onChange={field.onChange}
                  placeholder="How did the call go?"
                  options={CALL_OUTCOMES.map((o) => [o, CALL_OUTCOME_LABELS[o]] as const)}
                />
              </FormField>
            )}
          />
        )}
        <Controller
          control={form.control}
          name="dealId"
          render={({ field }) => (
            <FormField
              label="Deal"
              error={errors.dealId?.message}
              hint={customerId ? undefined : 'Choose the customer first.'}
            >
              <OptionSelect
                value={(field.value as string) || NO_DEAL}
                onChange={(value) => field.onChange(value === NO_DEAL ? '' : value)}
                options={[[NO_DEAL, 'No deal'] as const, ...dealChoices.map((deal) => [deal.id, deal.title] as const)]}
              />
            </FormField>
          )}
        />
        {canChooseOwner && (
          <Controller
            control={form.control}
            name="ownerId"
            render={({ field }) => (
              <FormField label="Owner" error={errors.ownerId?.message}>
                <OptionSelect
                  value={(field.value as string) || ME}
                  onChange={(value) => field.onChange(value === ME ? '' : value)}
                  placeholder={owners.isLoading ? 'Loading people...' : 'Choose an owner'}
                  options={[
                    ...(activity ? [] : [[ME, 'Me'] as const]),
                    ...(owners.data ?? []).map((owner) => [owner.id, owner.name] as const),
                  ]}
                />
              </FormField>
            )}
          />
        )}
      </div>

      <FormField label="Details" error={errors.body?.message}>
        <Textarea rows={3} {...form.register('body')} />
      </FormField>

      {type !== 'note' && (
        <label className="flex cursor-pointer items-center gap-2 text-sm">
          <input type="checkbox" className="size-4 accent-primary" {...form.register('done')} />
          Already done
        </label>
      )}

      <DialogFormButtons {...saveOrCreate(activity !== null, 'Log activity')} busy={busy} onCancel={onCancel} />
    </form>
  );
}
