import {
  MANUAL_PAYMENT_METHODS,
  type ManualPaymentMethod,
  PAYMENT_METHOD_LABELS,
} from '@shared/contracts/invoice-vocabulary';
import { Controller, type FieldValues, type UseFormReturn } from 'react-hook-form';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';

/** The fields every money movement recorded by hand has: how it was paid, and the reference. */
type ManualPaymentValues = { method: ManualPaymentMethod; reference?: string | null };

/**
 * The Method select (check, wire, cash, other) and the optional Reference of money recorded by hand: a
 * payment received or a credit paid back. `wideReference` gives the reference the form's whole width.
 */
export function ManualPaymentFields<T extends ManualPaymentValues, R extends FieldValues>({
  form,
  methodId,
  wideReference = false,
}: {
  form: UseFormReturn<T, unknown, R>;
  methodId: string;
  wideReference?: boolean;
}) {
  // Every form given here has these two fields; this view of it names just them.
  const fields = form as unknown as UseFormReturn<ManualPaymentValues>;
  const errors = fields.formState.errors;
  const reference = (
    <FormField label="Reference" hint="Check number or wire reference (optional)" error={errors.reference?.message}>
      <Input autoComplete="off" maxLength={200} {...fields.register('reference')} />
    </FormField>
  );
  return (
    <>
      <FormField label="Method" error={errors.method?.message} id={methodId}>
        <Controller
          control={fields.control}
          name="method"
          render={({ field }) => (
            <Select value={field.value} onValueChange={field.onChange}>
              <SelectTrigger id={methodId} aria-label="Method">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {MANUAL_PAYMENT_METHODS.map((method) => (
                  <SelectItem key={method} value={method}>
                    {PAYMENT_METHOD_LABELS[method]}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          )}
        />
      </FormField>
      {wideReference ? <div className="sm:col-span-2">{reference}</div> : reference}
    </>
  );
}
