import { zodResolver } from '@hookform/resolvers/zod';
import { type DeliveryFormValues, type DeliveryPeriod, deliveryFormSchema } from '@shared/contracts/delivery';
import { formatMonth, type UnderDeliveryRemedy } from '@shared/contracts/delivery-vocabulary';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { Dialog, DialogContent, DialogFormButtons, DialogFormHeader } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { formatImpressions, periodDates } from '@/lib/delivery-text';
import { showServerFieldErrors } from '@/lib/server-field-errors';
import { useRecordDelivery } from '../api/record-delivery';

type FormOutput = z.output<typeof deliveryFormSchema>;

/** What saving fewer impressions than booked does, by the contract's remedy. */
const SETTLEMENT_NOTE: Record<UnderDeliveryRemedy, string> = {
  credit: 'Fewer impressions than booked are settled at once by a credit note for the shortfall, at the rate billed.',
  makegood:
    "Fewer impressions than booked are settled at once by makegood impressions: the shortfall is added free to the line's next invoice.",
};

/** The figures as the API takes them: whole numbers, and no clicks when the field is left empty. */
export function toDeliveryBody(values: FormOutput) {
  return { impressions: Number(values.impressions), clicks: values.clicks === '' ? null : Number(values.clicks) };
}

/**
 * Records or corrects an ended period's delivery. Below booked, the period is settled at once by the contract's
 * remedy and its figures are locked; the dialog says so before saving.
 */
export function RecordDeliveryDialog({
  contractId,
  remedy,
  period,
  onClose,
}: {
  contractId: string;
  remedy: UnderDeliveryRemedy;
  period: DeliveryPeriod | null;
  onClose: () => void;
}) {
  return (
    <Dialog open={period !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        {period && (
          <RecordForm
            key={`${period.lineId}-${period.month}`}
            contractId={contractId}
            remedy={remedy}
            period={period}
            onDone={onClose}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}

function RecordForm({
  contractId,
  remedy,
  period,
  onDone,
}: {
  contractId: string;
  remedy: UnderDeliveryRemedy;
  period: DeliveryPeriod;
  onDone: () => void;
}) {
  const form = useForm<DeliveryFormValues, unknown, FormOutput>({
    resolver: zodResolver(deliveryFormSchema),
    defaultValues: {
      impressions: period.delivered === null ? '' : String(period.delivered),
      clicks: period.clicks === null ? '' : String(period.clicks),
    },
  });
  const record = useRecordDelivery();
  const { errors } = form.formState;
  const correcting = period.delivered !== null;
  const submit = form.handleSubmit((values) =>
    record.mutate(
      { contractId, lineId: period.lineId, month: period.month, figures: toDeliveryBody(values) },
      { onSuccess: onDone, onError: (error) => showServerFieldErrors(form, error) },
    ),
  );
  return (
    <form noValidate onSubmit={submit} className="grid gap-4">
      <DialogFormHeader
        title={`${correcting ? 'Correct' : 'Record'} delivery: ${formatMonth(period.month)}`}
        description={
          <>
            {period.productName} · {periodDates(period)} · {formatImpressions(period.booked)} impressions booked
            {period.makegood > 0 && ` (incl. ${formatImpressions(period.makegood)} makegood)`}
          </>
        }
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Impressions" error={errors.impressions?.message} hint="Delivered in the period">
          <Input inputMode="numeric" autoComplete="off" {...form.register('impressions')} />
        </FormField>
        <FormField label="Clicks" error={errors.clicks?.message} hint="Optional">
          <Input inputMode="numeric" autoComplete="off" {...form.register('clicks')} />
        </FormField>
      </div>
      <p className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
        {SETTLEMENT_NOTE[remedy]} After that, the period's figures can no longer be changed.
      </p>
      <DialogFormButtons
        label={correcting ? 'Save Correction' : 'Record Delivery'}
        busyLabel="Saving..."
        busy={record.isPending}
        onCancel={onDone}
      />
    </form>
  );
}
