import { zodResolver } from '@hookform/resolvers/zod';
import { PAYOUT_MESSAGES } from '@shared/contracts/commission-vocabulary';
import { exceedsAvailable, type PayoutRequestFormValues, payoutRequestFormSchema } from '@shared/contracts/commissions';
import { centsToAmount, centsToPlain, parseMoney } from '@shared/money';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { DialogFormButtons, DialogFormHeader } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { formatMoney } from '@/lib/format';
import { useRequestPayout } from '../api/request-payout';

/** The Request Payout form: loaded when the dialog first opens (zod and the form library with it). */
export function RequestForm({ available, onDone }: { available: number; onDone: () => void }) {
  const availableCents = parseMoney(available) ?? 0;
  const form = useForm<PayoutRequestFormValues, unknown, { requestedAmount: number }>({
    resolver: zodResolver(payoutRequestFormSchema(availableCents)),
    mode: 'onChange',
    defaultValues: { requestedAmount: '' },
  });
  const request = useRequestPayout();
  const typed = form.watch('requestedAmount') ?? '';
  const tooMuch = exceedsAvailable(typed, availableCents);
  const error = tooMuch ? PAYOUT_MESSAGES.amountExceedsAvailable : form.formState.errors.requestedAmount?.message;
  const submit = form.handleSubmit((values) =>
    request.mutate({ requestedAmount: values.requestedAmount }, { onSuccess: onDone }),
  );
  return (
    <form noValidate onSubmit={submit} className="grid gap-4">
      <DialogFormHeader
        title="Request Payout"
        description={
          <>
            You have <span className="font-medium text-slate-900">{formatMoney(available)}</span> available. Finance
            reviews the request; you are notified when it is approved and paid.
          </>
        }
      />
      <FormField label="Amount ($)" error={error} hint={`Up to ${formatMoney(available)}`}>
        <Input
          type="number"
          inputMode="decimal"
          step="0.01"
          min="0.01"
          max={centsToAmount(availableCents)}
          autoComplete="off"
          placeholder={centsToPlain(availableCents)}
          {...form.register('requestedAmount')}
        />
      </FormField>
      <div className="flex flex-wrap gap-2">
        <Button
          variant="outline"
          size="sm"
          onClick={() => form.setValue('requestedAmount', centsToPlain(availableCents), { shouldValidate: true })}
        >
          Request all ({formatMoney(available)})
        </Button>
      </div>
      <DialogFormButtons
        label="Request Payout"
        busyLabel="Requesting..."
        busy={request.isPending}
        onCancel={onDone}
        disabled={tooMuch}
      />
    </form>
  );
}
