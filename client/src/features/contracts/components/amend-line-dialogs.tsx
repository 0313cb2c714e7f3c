import { zodResolver } from '@hookform/resolvers/zod';
import { type AddLineFormValues, addLineFormSchema } from '@shared/contracts/contract-form';
import { emptyFormLine, toPayloadLine } from '@shared/contracts/contract-form-values';
import type { AmendmentPreview, Contract } from '@shared/contracts/contract-responses';
import { plainAmount } from '@shared/money';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Controller, type FieldValues, type UseFormReturn, useForm } from 'react-hook-form';
import { Dialog, DialogContent, DialogFormButtons, DialogFormHeader } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { errorMessage } from '@/lib/api-client';
import { todayIso } from '@/lib/format';
import { showServerFieldErrors } from '@/lib/server-field-errors';
import { useAddContractLine, useEndContractLine } from '../api/amend-contract';
import { productOptionsQueryOptions } from '../api/get-contract-options';
import { usePreviewAddContractLine, usePreviewEndContractLine } from '../api/preview-amendment';
import { formatDate } from '../lib/format';
import { AmendmentPreviewPanel } from './amendment-preview';
import { ProductSelect } from './line-items-fields';

const SETTLED =
  'Issued invoices stay as they are: the part of an invoiced month this changes is charged or credited, prorated by days, on the next invoice.';

/**
 * The two steps of an amendment: Preview asks the server what it will bill (the amendment done and undone),
 * then the button confirms it. Any change to the form takes it back to Preview, so what is confirmed is
 * always what was shown.
 */
function usePreviewStep<T extends FieldValues>(form: UseFormReturn<T>) {
  const [preview, setPreview] = useState<AmendmentPreview | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    const subscription = form.watch(() => {
      setPreview(null);
      setFailure(null);
    });
    return () => subscription.unsubscribe();
  }, [form]);
  const handlers = {
    onSuccess: (next: AmendmentPreview) => {
      setFailure(null);
      setPreview(next);
    },
    onError: (error: unknown) => {
      // A message that belongs under a field is shown there, once; anything else under the form.
      const underFields = showServerFieldErrors(form, error);
      setFailure(underFields ? null : errorMessage(error, 'Could not work out the preview. Please try again.'));
    },
  };
  return { preview, failure, handlers };
}

function PreviewFailure({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p role="alert" className="text-sm text-destructive">
      {message}
    </p>
  );
}

/** The day a blank Flight Start means: today, or the contract's start date when it has not started yet. */
function flightStartHint(contract: Pick<Contract, 'startDate'>): string {
  return contract.startDate > todayIso()
    ? `Blank: the contract's start (${formatDate(contract.startDate)}).`
    : 'Blank: today.';
}

/** "Add Line" on a running contract: a product sold from today (or a later day). */
export function AddLineDialog({
  contract,
  open,
  onOpenChange,
}: {
  contract: Contract;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-lg">
        {open && <AddLineForm contract={contract} onDone={() => onOpenChange(false)} />}
      </DialogContent>
    </Dialog>
  );
}

function AddLineForm({ contract, onDone }: { contract: Contract; onDone: () => void }) {
  const products = useQuery(productOptionsQueryOptions);
  const form = useForm<AddLineFormValues>({ resolver: zodResolver(addLineFormSchema), defaultValues: emptyFormLine() });
  const add = useAddContractLine();
  const check = usePreviewAddContractLine();
  const { preview, failure, handlers } = usePreviewStep(form);
  const { errors } = form.formState;
  const submit = form.handleSubmit((values) => {
    const request = { id: contract.id, line: toPayloadLine(values) };
    if (!preview) return check.mutate(request, handlers);
    add.mutate(request, { onSuccess: onDone, onError: (error) => showServerFieldErrors(form, error) });
  });
  const list = products.data ?? [];
  const chosen = list.find((p) => p.id === form.watch('productId'));
  return (
    <form noValidate onSubmit={submit} className="grid gap-4">
      <DialogFormHeader title="Add a line" description={SETTLED} />
      <Controller
        control={form.control}
        name="productId"
        render={({ field }) => (
          <FormField label="Product" error={errors.productId?.message}>
            <ProductSelect
              value={field.value ?? ''}
              products={list}
              loading={products.isPending}
              onBlur={field.onBlur}
              onChange={(next) => {
                field.onChange(next);
                const product = list.find((p) => p.id === next);
                if (!product) return;
                form.setValue('unitPrice', plainAmount(product.defaultPrice));
                form.setValue(
                  'seasonalPrice',
                  product.seasonalPrice === null ? '' : plainAmount(product.seasonalPrice),
                );
              }}
            />
          </FormField>
        )}
      />
      <div className="grid grid-cols-2 items-start gap-3">
        <FormField
          label="Quantity"
          error={errors.quantity?.message}
          hint={chosen?.priceMetric === 'cpm' ? 'Thousands of impressions a month.' : undefined}
        >
          <Input
            type="number"
            inputMode="numeric"
            min={1}
            step={1}
            {...form.register('quantity', { deps: 'discount' })}
          />
        </FormField>
        <FormField label="Unit Price ($)" error={errors.unitPrice?.message}>
          <Input
            type="number"
            inputMode="decimal"
            min={0}
            step={0.01}
            {...form.register('unitPrice', { deps: 'discount' })}
          />
        </FormField>
        <FormField
          label="In-Season Price ($)"
          error={errors.seasonalPrice?.message}
          hint="October to December; blank for none."
        >
          <Input
            type="number"
            inputMode="decimal"
            min={0}
            step={0.01}
            {...form.register('seasonalPrice', { deps: 'discount' })}
          />
        </FormField>
        <FormField label="Discount ($)" error={errors.discount?.message}>
          <Input type="number" inputMode="decimal" min={0} step={0.01} {...form.register('discount')} />
        </FormField>
      </div>
      {/* Date inputs need their width: side by side from the small breakpoint, stacked on a phone. */}
      <div className="grid grid-cols-1 items-start gap-3 sm:grid-cols-2">
        <FormField label="Flight Start" error={errors.flightStart?.message} hint={flightStartHint(contract)}>
          <Input type="date" {...form.register('flightStart')} />
        </FormField>
        <FormField
          label="Flight End"
          error={errors.flightEnd?.message}
          hint={
            contract.autoStopDate
              ? `Blank: until the contract stops (${formatDate(contract.autoStopDate)}).`
              : 'Blank: until the contract ends.'
          }
        >
          <Input type="date" {...form.register('flightEnd')} />
        </FormField>
      </div>
      {preview && <AmendmentPreviewPanel preview={preview} />}
      <PreviewFailure message={failure} />
      <DialogFormButtons
        label={preview ? 'Add Line' : 'Preview'}
        busyLabel={preview ? 'Adding...' : 'Working out...'}
        busy={add.isPending || check.isPending}
        onCancel={onDone}
      />
    </form>
  );
}

type Line = Contract['lineItems'][number];

/** "End" on a line of a running contract: its last day, today unless a later day is chosen. */
export function EndLineDialog({
  contract,
  line,
  onOpenChange,
}: {
  contract: Contract;
  line: Line | null;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={line !== null} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-md">
        {line && <EndLineForm contract={contract} line={line} onDone={() => onOpenChange(false)} />}
      </DialogContent>
    </Dialog>
  );
}

function EndLineForm({ contract, line, onDone }: { contract: Contract; line: Line; onDone: () => void }) {
  const form = useForm<{ endDate: string }>({ defaultValues: { endDate: '' } });
  const end = useEndContractLine();
  const check = usePreviewEndContractLine();
  const { preview, failure, handlers } = usePreviewStep(form);
  const submit = form.handleSubmit(({ endDate }) => {
    const request = { id: contract.id, lineId: line.id, endDate: endDate.trim() === '' ? null : endDate };
    if (!preview) return check.mutate(request, handlers);
    end.mutate(request, { onSuccess: onDone, onError: (error) => showServerFieldErrors(form, error) });
  });
  return (
    <form noValidate className="grid gap-4" onSubmit={submit}>
      <DialogFormHeader title={<>End {line.product.name}?</>} description={SETTLED} />
      <FormField
        label="Last Day"
        error={form.formState.errors.endDate?.message}
        hint="Blank: today. The line bills through this day."
      >
        <Input type="date" {...form.register('endDate')} />
      </FormField>
      {preview && <AmendmentPreviewPanel preview={preview} />}
      <PreviewFailure message={failure} />
      <DialogFormButtons
        label={preview ? 'End Line' : 'Preview'}
        busyLabel={preview ? 'Ending...' : 'Working out...'}
        busy={end.isPending || check.isPending}
        onCancel={onDone}
        destructive={preview !== null}
      />
    </form>
  );
}
