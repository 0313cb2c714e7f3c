import { DEAL_SOURCE_LABELS, DEAL_SOURCES, type DealSource } from '@shared/contracts/deal-vocabulary';
import type { Deal, DealPayload, PipelineStage } from '@shared/contracts/deals';
import { ListPlus, Plus, Trash2 } from 'lucide-react';
import { Controller, type UseFormReturn, useFieldArray, useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogFormButtons, DialogFormHeader, saveOrCreate } from '@/components/ui/dialog';
import { ErrorState, Skeleton } from '@/components/ui/feedback';
import { FormField } from '@/components/ui/form-field';
import { Input, Textarea } from '@/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { type PersonOption, SELLER_ROLES, usePeopleOptions } from '@/lib/people-options';
import { showServerFieldErrors } from '@/lib/server-field-errors';
import { useCreateDeal } from '../api/create-deal';
import { usePipelineSettings } from '../api/get-pipeline-settings';
import { type ProductOption, useProductOptions } from '../api/get-product-options';
import { useUpdateDeal } from '../api/update-deal';
import { CustomerPicker } from './customer-picker';
import { type DealFormState, dealFormResolver, emptyLineRow, newDealState, toFormState, toPatch } from './deal-form';

type Form = UseFormReturn<DealFormState, unknown, DealPayload>;

/** The create and edit dialog: `deal` null creates. The form is mounted afresh each time it opens. */
/** The API's prospect paths and the form's fields for them. */
const PROSPECT_FIELDS = { 'prospect.name': 'prospectName', 'prospect.email': 'prospectEmail' } as const;

export function DealFormDialog({
  open,
  onOpenChange,
  deal,
  canChooseOwner,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  deal: Deal | null;
  /** Managers and admins choose the owner; a rep's deals are their own. */
  canChooseOwner: boolean;
}) {
  const settings = usePipelineSettings({ enabled: open });
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-3xl">
        {settings.data ? (
          <DealForm
            deal={deal}
            stages={settings.data.stages}
            canChooseOwner={canChooseOwner}
            onDone={() => onOpenChange(false)}
          />
        ) : settings.error ? (
          <>
            <DialogFormHeader title={deal ? 'Edit deal' : 'New deal'} description="The pipeline's stages are needed." />
            <ErrorState title="Could not load the pipeline's stages">Close this and try again.</ErrorState>
          </>
        ) : (
          <div className="grid gap-4" aria-busy="true">
            <DialogFormHeader title={deal ? 'Edit deal' : 'New deal'} description="Loading the pipeline's stages..." />
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} className="h-9" />
            ))}
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}

function DealForm({
  deal,
  stages,
  canChooseOwner,
  onDone,
}: {
  deal: Deal | null;
  stages: PipelineStage[];
  canChooseOwner: boolean;
  onDone: () => void;
}) {
  const openStages = stages.filter((stage) => stage.kind === 'open');
  // A new deal starts in an open stage; an open deal moves among them here (won and lost are the board's).
  const stageChoices = deal && deal.stageKind !== 'open' ? stages.filter((s) => s.id === deal.stageId) : openStages;
  const form = useForm<DealFormState, unknown, DealPayload>({
    resolver: dealFormResolver,
    defaultValues: deal ? toFormState(deal) : newDealState(openStages[0]?.id ?? ''),
  });
  const lines = useFieldArray({ control: form.control, name: 'lines' });
  const { errors } = form.formState;
  const create = useCreateDeal();
  const update = useUpdateDeal();
  const busy = create.isPending || update.isPending;
  const owners = usePeopleOptions({ roles: SELLER_ROLES, enabled: canChooseOwner });
  const products = useProductOptions();
  const customerMode = form.watch('customerMode');
  const stage = stages.find((s) => s.id === form.watch('stageId'));

  const submit = form.handleSubmit((values) => {
    const onError = (error: Error) => showServerFieldErrors(form, error, PROSPECT_FIELDS);
    if (deal)
      update.mutate({ id: deal.id, input: toPatch(values, deal, canChooseOwner) }, { onSuccess: onDone, onError });
    else create.mutate(values, { onSuccess: onDone, onError });
  });

  return (
    <form noValidate onSubmit={submit} className="grid gap-5">
      <DialogFormHeader
        title={deal ? 'Edit deal' : 'New deal'}
        description="What is being sold, to whom, for how much and when. Line rows with no product chosen are left out."
      />

      <fieldset className="grid gap-3">
        <legend className="sr-only">Customer</legend>
        {!deal && (
          <Controller
            control={form.control}
            name="customerMode"
            render={({ field }) => (
              <div className="flex flex-wrap gap-x-5 gap-y-2 text-sm" role="radiogroup" aria-label="Customer">
                {(
                  [
                    ['existing', 'Existing customer'],
                    ['prospect', 'New prospect'],
                  ] as const
                ).map(([value, label]) => (
                  <label key={value} className="flex cursor-pointer items-center gap-2">
                    <input
                      type="radio"
                      name={field.name}
                      value={value}
                      checked={field.value === value}
                      onChange={() => field.onChange(value)}
                      className="size-4 accent-primary"
                    />
                    {label}
                  </label>
                ))}
              </div>
            )}
          />
        )}
        {customerMode === 'existing' ? (
          <Controller
            control={form.control}
            name="customerId"
            render={({ field }) => (
              <FormField label="Customer" error={errors.customerId?.message}>
                <CustomerPicker
                  value={field.value}
                  name={form.getValues('customerName')}
                  onChange={(customer) => {
                    field.onChange(customer.id);
                    form.setValue('customerName', customer.name);
                  }}
                />
              </FormField>
            )}
          />
        ) : (
          <div className="grid items-start gap-4 sm:grid-cols-2">
            <FormField label="Prospect name" error={errors.prospectName?.message}>
              <Input autoComplete="off" {...form.register('prospectName')} />
            </FormField>
            <FormField label="Prospect e-mail" error={errors.prospectEmail?.message}>
              <Input type="email" autoComplete="off" {...form.register('prospectEmail')} />
            </FormField>
          </div>
        )}
      </fieldset>

      <FormField label="Title" error={errors.title?.message}>
        <Input autoComplete="off" placeholder="Holiday banners" {...form.register('title')} />
      </FormField>

      <div className="grid items-start gap-4 sm:grid-cols-2">
        {canChooseOwner && (
          <Controller
            control={form.control}
            name="ownerId"
            render={({ field }) => (
              <FormField
                label="Owner"
                error={errors.ownerId?.message}
                hint={field.value ? undefined : 'You, unless you choose a rep.'}
              >
                <OptionSelect
                  value={field.value}
                  onChange={field.onChange}
                  placeholder={owners.isLoading ? 'Loading reps...' : 'Choose a rep'}
                  options={ownerChoices(owners.data ?? [], deal)}
                />
              </FormField>
            )}
          />
        )}
        <Controller
          control={form.control}
          name="stageId"
          render={({ field }) => (
            <FormField label="Stage" error={errors.stageId?.message}>
              <OptionSelect
                value={field.value}
                onChange={field.onChange}
                placeholder="Choose a stage"
                disabled={deal !== null && deal.stageKind !== 'open'}
                options={stageChoices.map((s) => ({ value: s.id, label: s.name }))}
              />
            </FormField>
          )}
        />
      </div>

      <div className="grid items-start gap-4 sm:grid-cols-3">
        <FormField label="Amount ($)" error={errors.amount?.message} hint="The expected contract value.">
          <Input type="number" inputMode="decimal" min={0} step={0.01} {...form.register('amount')} />
        </FormField>
        <FormField
          label="Probability (%)"
          error={errors.probability?.message}
          hint="Leave empty to use the stage's default."
        >
          <Input
            type="number"
            inputMode="numeric"
            min={0}
            max={100}
            step={1}
            placeholder={stage ? `Stage default: ${stage.probability}%` : undefined}
            {...form.register('probability')}
          />
        </FormField>
        <Controller
          control={form.control}
          name="source"
          render={({ field }) => (
            <FormField label="Source" error={errors.source?.message}>
              <OptionSelect
                value={field.value}
                onChange={(value) => field.onChange(value as DealSource)}
                placeholder="Choose a source"
                options={DEAL_SOURCES.map((source) => ({ value: source, label: DEAL_SOURCE_LABELS[source] }))}
              />
            </FormField>
          )}
        />
      </div>

      <div className="grid items-start gap-4 sm:grid-cols-3">
        <FormField label="Expected close date" error={errors.expectedCloseDate?.message}>
          <Input type="date" {...form.register('expectedCloseDate')} />
        </FormField>
        <FormField label="Flight start" error={errors.flightStart?.message}>
          <Input type="date" {...form.register('flightStart')} />
        </FormField>
        <FormField label="Flight end" error={errors.flightEnd?.message}>
          <Input type="date" {...form.register('flightEnd')} />
        </FormField>
      </div>

      <FormField label="Next step" error={errors.nextStep?.message}>
        <Textarea rows={2} placeholder="Optional" {...form.register('nextStep')} />
      </FormField>

      <section aria-labelledby="deal-lines-heading" className="grid gap-3">
        <div className="flex items-center justify-between gap-3">
          <h3 id="deal-lines-heading" className="text-sm font-semibold text-slate-900">
            Product lines
          </h3>
          <Button variant="outline" size="sm" onClick={() => lines.append(emptyLineRow())}>
            <Plus aria-hidden /> Add line
          </Button>
        </div>
        {errors.lines?.root?.message && (
          <p role="alert" className="text-sm font-medium text-destructive">
            {errors.lines.root.message}
          </p>
        )}
        {lines.fields.length === 0 && (
          <div className="flex flex-col items-center gap-1 rounded-lg border border-dashed px-4 py-5 text-center text-sm text-muted-foreground">
            <ListPlus className="size-6" aria-hidden />
            No product lines. They are optional; a contract drafted from the deal starts with them.
          </div>
        )}
        {lines.fields.map((row, index) => (
          <LineFields
            key={row.id}
            form={form}
            index={index}
            products={products.data ?? []}
            productsLoading={products.isLoading}
            onRemove={() => lines.remove(index)}
          />
        ))}
      </section>

      <DialogFormButtons {...saveOrCreate(Boolean(deal), 'Create deal')} busy={busy} onCancel={onDone} />
    </form>
  );
}

function LineFields({
  form,
  index,
  products,
  productsLoading,
  onRemove,
}: {
  form: Form;
  index: number;
  products: ProductOption[];
  productsLoading: boolean;
  onRemove: () => void;
}) {
  const errors = form.formState.errors.lines?.[index];
  const current = form.watch(`lines.${index}.productId`);
  // A product the deal has that is no longer active stays selectable on its line.
  const known = products.some((p) => p.id === current);
  return (
    <fieldset className="rounded-lg border bg-slate-50/60 p-4" data-testid="deal-line-row">
      <legend className="sr-only">Line {index + 1}</legend>
      <div className="grid items-start gap-3 sm:grid-cols-[minmax(0,1fr)_7rem_9rem_auto]">
        <Controller
          control={form.control}
          name={`lines.${index}.productId`}
          render={({ field }) => (
            <FormField label="Product" error={errors?.productId?.message}>
              <OptionSelect
                value={field.value}
                onChange={(productId) => {
                  field.onChange(productId);
                  // The product's own price, unless a price was typed already.
                  const product = products.find((p) => p.id === productId);
                  if (product && form.getValues(`lines.${index}.unitPrice`) === '') {
                    form.setValue(`lines.${index}.unitPrice`, String(product.defaultPrice));
                  }
                }}
                placeholder={productsLoading ? 'Loading products...' : 'Choose a product'}
                options={[
                  ...products.map((p) => ({ value: p.id, label: p.name })),
                  ...(current && !known && !productsLoading ? [{ value: current, label: 'Current product' }] : []),
                ]}
              />
            </FormField>
          )}
        />
        <FormField label="Quantity" error={errors?.quantity?.message}>
          <Input type="number" inputMode="numeric" min={1} step={1} {...form.register(`lines.${index}.quantity`)} />
        </FormField>
        <FormField label="Unit price ($)" error={errors?.unitPrice?.message}>
          <Input type="number" inputMode="decimal" min={0} step={0.01} {...form.register(`lines.${index}.unitPrice`)} />
        </FormField>
        <div className="flex justify-end sm:pt-[1.375rem]">
          <Button
            variant="ghost"
            size="icon"
            className="text-muted-foreground hover:bg-red-50 hover:text-destructive"
            aria-label={`Remove line ${index + 1}`}
            onClick={onRemove}
          >
            <Trash2 aria-hidden />
          </Button>
        </div>
      </div>
    </fieldset>
  );
}

/** The reps and managers who can own a deal (active ones; the deal's own owner stays listed). */
function ownerChoices(owners: PersonOption[], deal: Deal | null) {
  const choices = owners
    .filter((owner) => owner.isActive || owner.id === deal?.ownerId)
    .map((owner) => ({ value: owner.id, label: owner.isActive ? owner.name : `${owner.name} (inactive)` }));
  if (deal && !choices.some((choice) => choice.value === deal.ownerId)) {
    choices.push({ value: deal.ownerId, label: deal.ownerName });
  }
  return choices;
}

/** A Radix select of plain options; the id and aria props land on the trigger for FormField. */
function OptionSelect({
  value,
  onChange,
  placeholder,
  options,
  disabled,
  ...trigger
}: {
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
  options: { value: string; label: string }[];
  disabled?: boolean;
  id?: string;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
}) {
  return (
    <Select value={value} onValueChange={onChange} disabled={disabled}>
      <SelectTrigger {...trigger}>
        <SelectValue placeholder={placeholder} />
      </SelectTrigger>
      <SelectContent>
        {options.map((option) => (
          <SelectItem key={option.value} value={option.value}>
            {option.label}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
